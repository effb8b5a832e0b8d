/**
 * What the offline answerer counts as the same word: the shop terms of the
 * bilingual shop vocabulary (ShopVocabulary.ts, one place for them, shared
 * with chunk retrieval), and, kept here, the verbs a question asks with and
 * the verbs a document states the same thing with ("can I return" / "you may
 * send back", "how heavy" / "weighs"), and a few phrases that mean one word
 * ("send back", "پس دادن"). Beyond these there is no notion of meaning offline.
 */
import { productKinds, shopVocabulary } from "./ShopVocabulary"
import { stem } from "./Stemmer"
import { stopWords } from "./StopWords"
import { wordsOf } from "./TextNormalization"

/**
 * What a question asks with and what a document states it with: a question's verb or measure word and
 * the words a passage answers it in. Kept apart from the shop terms so that each entry says which
 * wording it joins; the answerer reads both the same way.
 */
const paraphrases: ReadonlyArray<string> = [
  // Buying: "the item I bought" is "the purchase", "the order", "what you received".
  "buy bought purchase purchased خرید خریداری",
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
  "move moving moved relocate relocating relocation"
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

/** `text` (normal form) with each phrase of `phrases` as its one word: "send it back" reads "return". */
export const rewritePhrases = (text: string): string =>
  phrases.reduce((out, [pattern, word]) => out.replace(pattern, ` ${word} `), text)

/** Each shop term line and paraphrase as stems of normal-form words, stop words out. */
const stemGroups: ReadonlyArray<ReadonlyArray<string>> = [
  ...shopVocabulary.map((line) => line.replace("|", " ")),
  ...paraphrases
].map((group) => [...new Set(wordsOf(group).filter((word) => !stopWords.has(word)).map(stem))])

const byStem = new Map<string, Array<string>>()
for (const group of stemGroups) {
  for (const root of group) byStem.set(root, [...(byStem.get(root) ?? []), ...group])
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
