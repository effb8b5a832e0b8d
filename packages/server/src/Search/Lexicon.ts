/**
 * What the offline answerer counts as the same word: the shop terms of the
 * bilingual shop vocabulary (ShopVocabulary.ts, one place for them, shared
 * with chunk retrieval), and, kept here, the verbs a question asks with and
 * the verbs a document states the same thing with ("can I return" / "you may
 * send back", "how heavy" / "weighs"), and a few phrases that mean one word
 * ("send back", "پس دادن"); and a thing's kind by WordNet (`broaderOf`): a
 * question naming a parka is about a passage naming coats; and the classes
 * terms name things by (Kinds.ts): a hamster is an animal, Kashan a city of Isfahan.
 */
import { boundedMemo } from "../Platform/Memo"
import { classesOf, classWordsOf } from "./Kinds"
import { productKinds, shopVocabulary } from "./ShopVocabulary"
import { stem } from "./Stemmer"
import { stopWords } from "./StopWords"
import { wordsOf } from "./TextNormalization"
import { broaderWords } from "./WordNet"

/**
 * What a question asks with and what a document states it with: a question's verb or measure word and
 * the words a passage answers it in. Kept apart from the shop terms so that each entry says which
 * wording it joins; the answerer reads both the same way.
 */
const paraphrases: ReadonlyArray<string> = [
  // Buying: "the item I bought" is "the purchase", "the order", "what you received".
  "buy bought purchase purchased خرید خریداری",
  // Spending: "if I spend £50" / "orders over £50".
  "spend spends spent spending order orders",
  "receive received get دریافت",
  // Accepting: "do you take cards" / "we accept cards"; "is it accepted" / "it is valid".
  "accept accepted valid پذیرفت قبول معتبر",
  // Being available: "can I get parts" / "parts are provided", "گیر میاد" (see `phrases`).
  "available provide provided offer offered ارائه موجود",
  // Covering: "is X covered" / "the guarantee includes X", "شامل … می‌شود".
  "cover covered covers include includes including شامل پوشش",
  // Needing: "do I need" / "is required", "must".
  "need needed require required mandatory necessary لازم الزامی نیاز ضروری",
  // Measures: "how heavy" / "weighs", "weight"; "how big" / "size"; "capacity" / "holds".
  "heavy weight weigh weighs وزن سنگین",
  "capacity hold holds volume گنجایش ظرفیت حجم",
  "length long طول",
  "size big dimension dimensions اندازه ابعاد",
  // A unit and its short form: "a one-kilo cake" / "1.5 kilograms", "۹۰ سانت" / "سانتیمتر".
  "kilo kilos kilogram kilograms kg کیلو کیلوگرم",
  "centimetre centimetres centimeter centimeters cm سانت سانتیمتر",
  // Lasting and running: "how long can I run it" / "operate", "use".
  "run running operate operation use روشن",
  // Stopping: "it stopped working" / "switched off", "shuts down".
  "stop stopped shut خاموش",
  // Cleaning: "clean" / "wash", "wipe", "descale".
  "clean cleaning wash wipe rinse تمیز شست شستشو",
  // Changing a part: "replace" / "change", "swap".
  "replace replacement change swap تعویض عوض",
  // Contacting: "reach you" / "contact", "call".
  "contact reach call تماس",
  // Space around a thing: "how much room" / "free space", "clearance".
  "room space clearance gap فاصله فضا",
  // "Is that a problem?" / "is normal".
  "problem normal طبیعی عادی مشکل",
  // How often: "how often", "every month", "once a week", "هر چند وقت", "ماهی یک بار" (see `phrases`).
  "often frequency frequently regularly",
  // Becoming a member: "sign up" (see `phrases`) / "join", "register", "enrol".
  "join joining register registration enrol enroll enrolment signup",
  // Stopping for a while: "put on hold" (see `phrases`) / "pause", "freeze", "suspend".
  "pause paused freeze frozen suspend suspended",
  // A payment that does not go through: "bounces" / "fails", "is declined", "is returned unpaid".
  "fail failed fails bounce bounced bounces unpaid",
  // A year's term: "annual" / "yearly", "12-month" (see `phrases`).
  "annual annually yearly",
  // Keeping: "hold on to" / "stay good" (see `phrases`) / "keep", "store".
  "keep keeps kept store stored",
  // Lost property: "left behind" (see `phrases`) / "lost", "forgotten".
  "lost forgotten",
  // Growing: "get bigger" / "rise", "increase"; "بیشتر شدن" / "افزایش".
  "rise rises rising increase increases increased grow grows bigger larger higher افزایش",
  // Moving home: "relocate" / "move".
  "move moving moved relocate relocating relocation",
  // Paying less: "any discount on lamps?" / "save £5 on every lamp".
  "discount discounted save saves saving savings",
  // Joining to a supply: "can you wire up the oven" / "we connect cookers".
  "connect connected connection wire wired wiring",
  // Leaving a thing with the shop, in either phrasal verb (see `phrases`).
  "handin dropoff",
  // Taking a thing to pieces and back, in plain words or phrasal verbs (see `phrases`).
  "dismantle dismantling dismantled disassemble disassembly takeapart",
  "reassemble reassembly reassembled assemble assembly puttogether",
  // Costing more: "pricier" / "costs a third more", "a surcharge" (see `phrases`).
  "dearer pricier costlier surcharge costmore"
]

/**
 * Phrases that mean one word of a shop term or paraphrase, in normal form: "send back" is a return, not a shipment;
 * "پس دادن" and "پس گرفتن" are returning. An empty word drops the phrase.
 */
const phrases: ReadonlyArray<readonly [RegExp, string]> = [
  // "something I bought", "کالایی که خریدم": in a shop every item was bought, the clause says nothing more.
  [/\b(?:that |which )?(?:i|we)(?: have| had| just)? (?:bought|purchased|ordered|received|got)\b/gu, ""],
  [
    /(?:^|\s)که\s+(?:از\s*(?:شما|تون)\s+|ازتون\s+)?(?:خریدم|خریدیم|خریدهام|سفارش\s+دادم|گرفتم|تحویل\s+گرفتم)(?=[^\p{L}]|$)/gu,
    ""
  ],
  [/\b(?:send|sent|sending|give|giving|gave|bring|bringing|brought|take|taking|took)\s+(?:\w+\s+)?back\b/gu, "return"],
  [/(?:^|\s)پس\s+(?:ن?می|ب|ن)?(?:داد|ده|د|گرفت|گیر)(?:ه|ن|م|ی|ید|یم|ند|ین)?(?=[^\p{L}]|$)/gu, "مرجوع"],
  // "بعد از" and "پس از" (after) relate two things and name neither.
  [/(?:^|\s)(?:بعد|پس)\s+از(?=\s)/gu, ""],
  // An age ("my 7 year old", "9 weeks old") is a number of years or weeks: "old" names nothing more.
  [/(?<=\b(?:years?|months?|weeks?|days?)[\s-])old\b/gu, ""],
  // "چند حساب کردن" (to reckon at how much) is charging: "کیلویی چند حساب میکنین؟" asks the cost; "حساب کردن"
  // alone is settling a bill.
  [/(?<=(?:^|\s)(?:چند|چن|چقدر|چقد)\s+)حساب\s+(?:ن?می|ب)?کن(?:ه|ن|ی|ید|ین|یم|م|د|ند)?(?=[^\p{L}]|$)/gu, "هزینه"],
  // "به گردن کیست؟" (on whose neck is it?) asks who is responsible.
  [/(?:^|\s)(?:به\s+)?گردن\s+(?:کی|کیه|کیست|کسیه|کسی)(?=[^\p{L}]|$)/gu, "مسئولیت"],
  // Taking a time is booking a slot, "نوبت"; making a thing right is repairing it.
  [/(?:^|\s)وقت\s+(?:ن?می|ب)?(?:گیر|گرفت)\S*(?=[^\p{L}]|$)/gu, "نوبت"],
  [/(?:^|\s)درست(?:ش|شون)?\s+(?:ن?می|ب)?(?:کن|کرد)\S*(?=[^\p{L}]|$)/gu, "تعمیر"],
  // "گیر میاد" (can be had) is being available.
  [/(?:^|\s)گیر\s+(?:ن?می|ب)?(?:اد|یاد|اید|ایند|یان)(?=[^\p{L}]|$)/gu, "موجود"],
  [/\bpick(?:ing|ed|s)?\s+(?:\w+\s+){0,2}up\b|\bcollect(?:ing|ed|s)?\b/gu, "collect"],
  // "خودم بیام … بگیرم" (I come and take it myself) is collecting in person.
  [
    /(?:^|\s)(?:خودم\s+|خودمون\s+)?(?:بیام|بیایم|بیاییم|میام|میایم|میاییم)(?=\s+(?:\S+\s+)?(?:بگیرم|بگیریم|ببرم|ببریم|میگیرم|میبرم))/gu,
    "collect"
  ],
  [/\b(?:switch|turn)(?:ed|ing|s)?\s+(?:\w+\s+)?on\b/gu, "run"],
  // Whom an order is for ("to my mum", "برای دوستم") changes no rule of the shop: the phrase says nothing more.
  [
    /\b(?:to|for)\s+my\s+(?:mum|mom|mother|dad|father|parents|wife|husband|partner|friend|friends|son|daughter|kids?|children|sister|brother|grandmother|grandfather)\b/gu,
    ""
  ],
  [/(?:^|\s)(?:برای|واسه|به)\s+(?:مامانم|مادرم|بابام|پدرم|همسرم|خانمم|شوهرم|دوستم|بچم|بچهام|پسرم|دخترم|خواهرم|برادرم)(?=[^\p{L}]|$)/gu, ""],
  // A credit note is a voucher, not buying on credit.
  [/\bcredit\s+notes?\b/gu, "voucher"],
  // "call off", "pull out" and "back out" are cancelling; "money back" a refund; "sold out" and "out of stock"
  // one state.
  [/\bcall(?:s|ed|ing)?\s+(?:\w+\s+)?off\b/gu, "cancel"],
  [/\b(?:pull|pulls|pulled|pulling|back|backs|backed|backing|drop|drops|dropped|dropping)\s+out\b/gu, "cancel"],
  [/\bmoney\s+back\b/gu, "refund"],
  [/\bsign(?:s|ed|ing)?[\s-]?up\b/gu, "signup"],
  // "hold on to" and "stay good" are keeping; what people "leave behind" is lost property.
  [/\bhold(?:s|ing)?\s+on\s*to\b/gu, "keep"],
  [/\bstays?\s+(?:good|fresh)\b/gu, "keep"],
  [/\b(?:leave|leaves|left|leaving|forget|forgets|forgot|forgotten)\s+(?:\w+\s+){0,2}?behind\b/gu, "lost"],
  // "take the money" is charging; "take the door off" removing it.
  [/\b(?:take|takes|taking|took|taken)\s+(?:the\s+|my\s+|your\s+|our\s+)?(?:money|payments?)\b/gu, "charge"],
  [/\b(?:take|takes|taking|took|taken)\s+(?:\w+\s+){0,3}?off\b/gu, "remove"],
  [/\b(?:12|twelve)[\s-]months?\b/gu, "annual"],
  // "30% off" is a discount; the amount stays for the values read from the sentence.
  [/(\d\s*%|\bpercent|درصد)\s+off\b/gu, "$1 discount"],
  [/\b(?:drop|drops|dropped|dropping)\s+(?:\w+\s+){0,2}?off\b/gu, "dropoff"],
  [/\bhand(?:s|ed|ing)?\s+(?:\w+\s+){0,2}?in\b/gu, "handin"],
  [/\b(?:take|takes|taking|took|taken)\s+(?:\w+\s+){0,2}?apart\b/gu, "takeapart"],
  [/\b(?:put|puts|putting)\s+(?:\w+\s+){0,2}?(?:back\s+)?together\b/gu, "puttogether"],
  [/\b(?:cost|costs|costing)\s+(?:\S+\s+)?more\b|\bmore\s+expensive\b/gu, "$& costmore"],
  [/\b(?:put|putting|place|placing)\s+(?:\w+\s+){0,2}on\s+hold\b/gu, "pause"],
  [/\bsold\s+out\b|\bout\s+of\s+stock\b/gu, "soldout"],
  [/\bmonthly payments?\b|\bspread the cost\b|\bsplit the cost\b|\bpay later\b/gu, "installment"],
  [/\bat a time\b|\bcontinuously\b|\bnon-?stop\b|\bwithout (?:a )?break\b/gu, "continuous"],
  [/پشت\s+سر\s+هم|بدون\s+وقفه|یکسره|مداوم/gu, "continuous"],
  [/\bhow often\b|\bonce\s+(?:a|every)\b|\bevery\s+(?:\w+\s+)?(?:days?|weeks?|months?|years?)\b/gu, "often"],
  [
    /هر\s+چند\s+وقت|چند\s+وقت\s+یک\s*بار|(?:روزی|هفته\s*ای|ماهی|سالی|هر\s+\S+)\s+(?:یک|یه|دو|سه|۱|۲|۳|1|2|3)\s*بار/gu,
    "often"
  ]
]

/**
 * The shop vocabulary's hyphenated terms ("second-hand", "after-sales", "click-and-collect") as one word each,
 * written with a hyphen, a space or none: their parts are no synonyms of the line ("after" is no "support").
 */
const hyphenated = [...new Set(shopVocabulary.flatMap((line) => line.match(/[a-z]+(?:-[a-z]+)+/gu) ?? []))]
const joinedTerm = (term: string) => term.replace(/-/gu, "")
const joins: ReadonlyArray<readonly [RegExp, string]> = hyphenated.map((term) => [
  new RegExp(`\\b${term.split("-").join("[\\s-]*")}\\b`, "gu"),
  joinedTerm(term)
])

/** `text` (normal form) with each phrase of `phrases` as its one word: "send it back" reads "return". */
export const rewritePhrases = (text: string): string =>
  [...joins, ...phrases].reduce((out, [pattern, word]) => out.replace(pattern, ` ${word} `), text)

/** Each shop term line and paraphrase as stems of normal-form words, stop words out. */
const stemGroups: ReadonlyArray<ReadonlyArray<string>> = [
  ...shopVocabulary.map((line) => line.replace("|", " ").replace(/[a-z]+(?:-[a-z]+)+/gu, joinedTerm)),
  ...paraphrases
].map((group) => [...new Set(wordsOf(group).filter((word) => !stopWords.has(word)).map(stem))])

const byStem = new Map<string, Array<string>>()
for (const group of stemGroups) {
  for (const root of group) byStem.set(root, [...(byStem.get(root) ?? []), ...group])
}

/** Stem → the words (normal form) of every paraphrase holding a word of that stem. */
const paraphraseByStem = new Map<string, Set<string>>()
for (const line of paraphrases) {
  const words = wordsOf(line).filter((word) => !stopWords.has(word))
  for (const word of words) {
    const related = paraphraseByStem.get(stem(word)) ?? new Set<string>()
    for (const other of words) related.add(other)
    paraphraseByStem.set(stem(word), related)
  }
}

/**
 * The words a passage may state what `word` asks with ("relocating" → "move"), without words of its own stem:
 * chunk retrieval searches them below the shop vocabulary's, so a question finds the passage the answerer
 * would quote.
 */
export const paraphraseWords = (word: string): ReadonlyArray<string> => {
  const root = stem(word)
  return [...paraphraseByStem.get(root) ?? [], ...classWordsOf(root)].filter((other) => stem(other) !== root)
}

/** Stems meaning the same as `root` (itself included). */
export const synonymsOf = (root: string): ReadonlyArray<string> => [...new Set([root, ...(byStem.get(root) ?? [])])]

/** A hyphenated name ("washing-machine") is no kind of goods by each of its parts ("machine"). */
const productStems = new Set(
  productKinds.flatMap((line) => line.split(/\s+/u).filter((word) => !word.includes("-")))
    .flatMap((word) => wordsOf(word)).filter((word) => !stopWords.has(word)).map(stem)
)

/** Whether `root` names a kind of goods ("fridge", "یخچال", "gift"). */
export const isProductKind = (root: string): boolean => productStems.has(root)

/** The words a stem may have been cut from: "cabl" of "cable", "shipp" of "shipping". */
const wordsOfStem = (root: string): ReadonlyArray<string> => [
  root,
  `${root}e`,
  ...(/([a-z])\1$/u.test(root) ? [root.slice(0, -1)] : [])
]

/**
 * Stems of what an English noun's stem names in other words (WordNet.ts, `broaderWords`: its synonyms as a
 * thing a shop sells and the kinds above it within two steps, "parka" → "anorak", "jacket", "coat"), with their
 * words of the shop vocabulary and paraphrases: a question naming a thing is about a passage naming its
 * kind. The other way round it is not: a rule about parkas says nothing of all coats.
 */
export const broaderOf = boundedMemo(20_000, (root: string): ReadonlyArray<string> => {
  // A class the terms name a thing by ("animals" for a cat, a province for its city), in either language.
  const classes = classesOf(root)
  if (!/^[a-z]/u.test(root)) return classes
  const broader = [...new Set(wordsOfStem(root).flatMap(broaderWords))]
    .filter((word) => !stopWords.has(word)).map(stem).filter((found) => found !== root)
  return [...new Set([...classes, ...broader.flatMap(synonymsOf)])]
})
