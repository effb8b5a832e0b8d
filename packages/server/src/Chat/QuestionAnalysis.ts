/**
 * What the offline answerer reads in a question: its words as stems (stop
 * words out, synonyms of the shared lexicon in), the kind of value it asks
 * for (a count, a duration, a price, or anything), what it counts ("days" in
 * "how many days"), which of its words are its subject rather than the frame
 * of the value ("days", "take", "long"), which name a place, and, for a
 * follow-up, the words of the question before it.
 */
import { broaderOf, rewritePhrases, synonymsOf } from "../Search/Lexicon"
import { isNumberWord, isOrdinal } from "../Search/Numbers"
import { colloquialBases, stem, withoutEnclitic } from "../Search/Stemmer"
import { questionStopWords } from "../Search/StopWords"
import { normalizeText, wordsOf } from "../Search/TextNormalization"
import { abroadWords, domesticWords, foreignPlaces } from "./Places"
import { persianLetters, sameWord } from "./SameWord"

/**
 * What the answer must hold: a number (of `unit` when named), a duration, a price, how often, a measure (a
 * number with a unit of weight, size, volume, power), an address, what holds under a condition ("what if …"), or
 * anything.
 */
export type Expected = "count" | "duration" | "price" | "frequency" | "measure" | "address" | "condition" | "any"

export interface Question {
  readonly text: string
  /** Stems of the question's own words. */
  readonly roots: ReadonlyArray<string>
  /** Stems of the previous question's words, for a follow-up; they weigh less. */
  readonly contextRoots: ReadonlyArray<string>
  readonly expected: Expected
  /** The stem of what a count or duration counts ("روز" in "چند روز"), when named; a measure's kind. */
  readonly unit: string | undefined
  /** Roots that are the subject: not the value's frame ("day", "take", "long", "cost"). */
  readonly subject: ReadonlyArray<string>
  /** Roots naming a place (a known city, a capitalised name after "to"/"in"). */
  readonly places: ReadonlyArray<string>
  /** The thing asked for, the word after "what"/"which"/"چه"/"کدام" ("port" in "which port…"), when named. */
  readonly focus: string | undefined
  /** Persian words after "به"/"در" ("به زاهدان"): a place when no passage names them. */
  readonly maybePlaces: ReadonlyArray<string>
  /** Names the question writes with a capital inside a sentence ("PayPal", "Bitcoin"): not places or days. */
  readonly names: ReadonlyArray<string>
  /** A follow-up asking no kind of value of its own ("and macarons?"): it names only the new thing. */
  readonly elliptical: boolean
  /** A follow-up leaning on a pronoun ("how long can I use them?"): it is about the previous subject too. */
  readonly leansBack: boolean
  /** A follow-up stating a case ("and if it was on sale?", "اگه حراجی باشه چی؟"): it asks what holds in it. */
  readonly statesCase: boolean
}

/**
 * Persian light verbs: in a compound verb ("ضربه خوردن", "تماس گرفتن", "گارانتی داشتن") the meaning is the
 * noun's, and a document says the same with another verb ("شامل … می‌شود"), so the verb is not a word to match.
 */
const lightVerbStems = ["خورد", "کرد", "شد", "داد", "زد", "گرفت", "داشت", "امد", "اورد", "گذاشت", "نمود"]
/**
 * ...and the modal verbs of wanting and being able ("بخوام", "بتونم"), which frame a question as "want" and
 * "can" do in English.
 */
const modalStems = ["خواست", "توانست"]
/** ...with their infinitives ("تموم شدن", "نصب کردن"). */
const lightVerbs = new Set([...lightVerbStems, ...modalStems, ...lightVerbStems.map((verb) => `${verb}ن`)])

/**
 * A light verb or "to be" in its present tense, as typed ("بدم", "کنین", "بیارم", "نباشه", "میدین"): an optional
 * prefix (می, نمی, ب, ن), a present stem and a personal ending. Without a prefix only the stems no noun
 * shares count ("کنم", "داری", "شه"); "come" only as "میام" or "بیام" ("نام" is a name), and "go" only as
 * "میرم" or "برم" ("نرم" is soft).
 */
const lightPresent = new RegExp(
  "^(?:(?:نمی|می|ب|ن)(?:کن|د|ده|گیر|دار|یا|یار|اور|ش|شو|خور|ذار|گذار|باش)|(?:نمی|می)ا|(?:نمی|می|ب)ر|کن|دار|گیر|ش|شو|باش)" +
    "(?:م|ی|ه|یم|ین|ید|ن|ند)$",
  "u"
)

/** Words of a text as stems, without stop words, single letters or light verbs; phrases read as their word. */
export const rootsOf = (text: string): ReadonlyArray<string> =>
  wordsOf(rewritePhrases(normalizeText(text)))
    .filter((word) => word.length > 1 && !questionStopWords.has(word) && !lightPresent.test(word))
    .map(stem).filter((root) => !lightVerbs.has(root))

/**
 * A Persian question word as the passages hold it, when they hold it only without its colloquial endings
 * ("گوشیم" for "گوشی", "کتابامو" for "کتاب").
 */
export const bareForm = (root: string, everywhere: ReadonlyArray<string>): string => {
  if (mentions(everywhere, root)) return root
  return [...colloquialBases(root), ...shortBase(root), ...perUnitBase(root)].flatMap((bare) => [bare, stem(bare), `${bare}ه`, `${bare}ی`])
    .find((candidate) => candidate.length >= 2 && mentions(everywhere, candidate)) ?? root
}

/**
 * A short Persian noun with the "ی" of "per" or "a" ("ساعتی" hourly, "روزی" a day), which
 * the stemmer keeps on short words: the noun, when the passages hold it and not the word as asked.
 */
const perUnitBase = (root: string): ReadonlyArray<string> =>
  persianLetters.test(root) && root.length >= 4 && root.endsWith("ی") ? [root.slice(0, -1)] : []

/**
 * A two-letter Persian noun under a possessive ending ("جامو" my place, "فنش" its fan): too short for the
 * shared colloquial bases, which search uses too, so only a word the passages hold exactly is taken for it.
 */
const shortBase = (root: string): ReadonlyArray<string> => {
  const bare = root.replace(/(?:مو|تو|شو|م|ت|ش)$/u, "")
  return persianLetters.test(root) && bare !== root && bare.length === 2 ? [bare] : []
}

export const contains = (roots: ReadonlyArray<string>, root: string): boolean =>
  roots.some((candidate) => sameWord(candidate, root))

/**
 * The root or one of its synonyms is among `roots`, a foreign country or city also by a word for abroad
 * ("ایتالیا" by "سفرهای خارج از کشور"), a city of the country by a word for inside it ("کیش" by
 * "تورهای داخلی"). A word that only asks for the kind of value ("time",
 * "وقت", "cost") is matched by itself: its synonyms name that kind anywhere ("زمان تحویل" for a question on
 * the time to return), and the value itself is what answers it.
 */
export const namedAsSaid = (roots: ReadonlyArray<string>, root: string): boolean =>
  askingWords.has(root)
    ? contains(roots, root)
    : [
      ...synonymsOf(root),
      ...(isForeign(root) ? abroadWords : []),
      ...(knownPlaces.has(root) ? domesticWords : [])
    ].some((alternative) =>
      contains(roots, alternative)
    )

/**
 * `namedAsSaid`, or a thing the root names is among `roots` by its kind ("coat" for "parka",
 * `broaderOf`): a rule about the kind holds for the thing. A kind counts only as its own stem, not as a
 * word it begins ("storehouse" is no "store").
 */
export const mentions = (roots: ReadonlyArray<string>, root: string): boolean =>
  namedAsSaid(roots, root) || broaderOf(root).some((kind) => roots.includes(kind))

/** A foreign country or city, also with a colloquial ending ("پاریسو"). */
const isForeign = (root: string): boolean =>
  foreignPlaces.has(root) || colloquialBases(root).some((base) => foreignPlaces.has(stem(base)))

const stems = (words: string): ReadonlySet<string> => new Set(wordsOf(words).map(stem))

/** Units of time: what a duration is counted in. */
export const timeUnits = stems(
  "minute minutes hour hours day days week weeks month months year years working business " +
    "دقیقه ساعت روز روزه هفته ماه سال"
)
/** Units of money. */
export const moneyUnits = stems("toman tomans rial rials dollar dollars usd eur euro euros تومان تومن ریال دلار یورو")
/** Words that say a price without a number. */
export const freeWords = stems("free رایگان مجانی")
/** Words that say a duration without a number. */
export const promptWords = stems("same immediately instantly tomorrow overnight today فورا فوری همان فردا امروز")

/** Words that ask for time itself rather than name a unit or the subject. */
const askingWords = stems("time period duration زمان مدت وقت")

/** Words that frame the value asked for rather than name the subject. */
const frameWords = new Set([
  ...timeUnits,
  ...moneyUnits,
  ...askingWords,
  ...stems(
    "long take takes took fast quickly soon cost costs price much many number amount often " +
      "heavy weight weigh weighs capacity size big length wide tall high address " +
      "maximum minimum most least far ahead advance notice beforehand score grade " +
      "طول کشد میکشد میبرد قیمت هزینه چقدر تعداد وزن ظرفیت گنجایش اندازه ادرس نشانی حداکثر حداقل"
  )
])

/**
 * Words that ask for a duration: "how soon", "how long … take", "what is the warranty period", "مدت"; "کی"
 * before a verb ("کی برمیگرده") asks when, but before "برام" (for me) it asks who.
 */
const durationAsk =
  /\bwhen (?:will|does|do|is|can)\b.*\b(?:arrive|arrives|come|back|ready|get)\b|(?:^|\s)(?:کی|چه وقت|چه زمانی)\s+(?:(?!برا)\S+\s+){0,2}(?:می|بر(?!ا)|اماد|میرس|میاد)|\bhow (?:soon|fast|quickly)\b|\bhow (?:far|long) (?:ahead|in advance|beforehand)\b|\bhow much notice\b|چند (?:روز|ساعت|هفته) (?:قبل|زودتر|جلوتر)|\bhow long\b.*\b(?:take|takes|last|lasts|wait|valid|keep|until)\b|\bwithin how\b|\b(?:period|duration)\b|مدت|چند وقت|چقدر (?:طول|زمان|وقت)|تا کی|چه زمانی طول/u
/** Words that ask how often: "how often", "هر چند وقت", "چند وقت یک بار". */
const frequencyAsk = /\bhow often\b|\bhow frequently\b|هر\s*چند\s*(?:وقت|روز|ماه|هفته)|چند\s*وقت\s*(?:یک|یه)\s*بار/u
/**
 * Measures by what they measure: the words that ask for one ("how heavy", "capacity", "how much room",
 * "وزن", "چند لیتر") and the units that state it. A measure is answered only by a number with a unit of
 * its own kind: a weight is no litres.
 */
const measures = {
  weight: {
    ask: /\bhow heavy\b|\bweigh|\bweight\b|(?:^|\s)وزن|چند (?:کیلو|گرم)/u,
    units: "kg kilo kilos kilogram kilograms g gram grams lb lbs pound pounds کیلو کیلوگرم گرم"
  },
  volume: {
    ask: /\bcapacity\b|\bvolume\b|\bhow much (?:does|can) (?:it|the \w+) hold\b|ظرفیت|گنجایش|(?:^|\s)حجم|چند لیتر/u,
    units: "l litre litres liter liters ml millilitre millilitres cup cups لیتر میلیلیتر"
  },
  size: {
    ask: /\bhow (?:big|large)\b|(?:^|\s)(?:اندازه|سایز)(?:ش)? چقدر/u,
    units: "cm mm m metre metres meter meters inch inches l litre litres liter liters ml متر سانت سانتیمتر لیتر"
  },
  length: {
    ask: /\bhow (?:wide|tall|high|deep|far)\b|\bdimensions\b|\bhow much (?:room|space)\b|ابعاد|چند (?:متر|سانت)/u,
    units: "cm mm m km metre metres meter meters centimetre centimetres inch inches متر سانت سانتیمتر میلیمتر اینچ"
  },
  power: {
    ask: /\bpower\b|\bwattage\b|\bvoltage\b|\bhow many watts\b|ولتاژ|چند وات/u,
    units: "w watt watts kw v volt volts hz وات کیلووات ولت هرتز"
  }
} as const
export type Measure = keyof typeof measures | "extent"
const measureUnitsOf = new Map<string, ReadonlySet<string>>(
  Object.entries(measures).map(([kind, { units }]) => [kind, stems(units)])
)
/** What a text's length is counted in: "how long is the description" is a number of characters or words. */
const textUnits = stems("character characters letter letters word words line lines page pages حرف کاراکتر کلمه خط صفحه")
/** Units that state a measure of `kind`; "how long is the …" (an extent) is a length, a duration or a text's length. */
export const unitsOfMeasure = (kind: string): ReadonlySet<string> =>
  kind === "extent"
    ? new Set([...(measureUnitsOf.get("length") ?? []), ...timeUnits, ...textUnits])
    : measureUnitsOf.get(kind) ?? new Set()
const measureOf = (normal: string): Measure | undefined =>
  (Object.keys(measures) as ReadonlyArray<keyof typeof measures>).find((kind) => measures[kind].ask.test(normal))
/** Words that ask where a shop is: an address answers. */
const addressAsk =
  /\baddress\b|\bwhere (?:is|are) (?:your|the) (?:shop|store|showroom|office|branch|warehouse)|ادرس|نشانی|(?:مغاز|فروشگاه|شعبه|دفتر)\S*\s+(?:\S+\s+)?کجا/u
/** Words that say where: a street, a square, a floor. */
export const addressWords = stems(
  "street st road rd avenue ave lane square floor building unit boulevard " +
    "خیابان بلوار نبش کوچه پلاک میدان طبقه چهارراه بزرگراه ساختمان"
)
const priceAsk = /\bhow much\b.*\b(?:cost|price|fee|charge|pay|is)\b|\bwhat (?:does|do|is).*\b(?:cost|price|fee)\b/u
const countAsk = /\bhow (?:many|much)\b|چند|چقدر|كم/u

/**
 * Words that ask what holds in a case: "what if …", "what happens if/when …", "اگه … چی میشه؟", "اگر … چه
 * می‌شود؟". A rule with its condition answers ("Cancel within seven days and the deposit is kept").
 */
const conditionAsk =
  /^(?:and |but |so )?what (?:if|happens (?:if|when|to)|about if)\b|^(?:and|but|so) if\b|(?:^|\s)(?:اگه|اگر|در صورتی که|وقتی)\s.*(?:چی|چه)(?:\s*(?:میشه|می شود|میشود|اتفاقی|کار))?\s*[?؟]?\s*$/u

/** A follow-up's opening that states a case: "if …", "when …", "اگه …", "در صورتی که …". */
const caseOpening = /^(?:(?:and|but|so|what about) )?(?:if|when|اگه|اگر|وقتی|در صورتی که)(?=\s)/u

/** Words that name what something costs: "how much is the tuition" asks a price. */
const priceWords = new Set(
  wordsOf("price cost fee fees tuition fare charge قیمت هزینه تومان تومن ریال شهریه کارمزد کرایه").map(normalizeText)
)

/** Which kind of value the question asks for, and the unit it names. */
const expectedOf = (text: string): { readonly expected: Expected; readonly unit: string | undefined } => {
  const normal = normalizeText(text)
  const words = wordsOf(normal)
  const at = words.findIndex((word, i) =>
    (word === "many" && words[i - 1] === "how") || word === "چند" || (word === "long" && words[i - 1] === "how")
  )
  // "ساعت چند" asks what time: the word after it is the verb ("ساعت چند می‌بندید؟"), no unit.
  const next = at < 0 || (words[at] === "چند" && words[at - 1] === "ساعت") ? undefined : words[at + 1]
  const named = next === undefined || questionStopWords.has(next) ? undefined : stem(next)
  // "چند ماهه", "چند روزه": a time unit with the colloquial "is" ending is the unit.
  const bareUnit = named === undefined ? undefined : stem(named.replace(/[هی]$/u, ""))
  const unit = named !== undefined && !timeUnits.has(named) && bareUnit !== undefined && timeUnits.has(bareUnit)
    ? bareUnit
    : named
  if (frequencyAsk.test(normal)) return { expected: "frequency", unit: undefined }
  if (addressAsk.test(normal)) return { expected: "address", unit: undefined }
  if (unit !== undefined && timeUnits.has(unit)) return { expected: "duration", unit }
  if (durationAsk.test(normal)) return { expected: "duration", unit: undefined }
  // "How long is the cable?", "How long is the guarantee?": a length or a duration.
  if (/\bhow long\b/u.test(normal)) return { expected: "measure", unit: "extent" }
  const priced = wordsOf(rewritePhrases(normal)).some((word) => priceWords.has(word))
  if (priceAsk.test(normal) || (countAsk.test(normal) && priced)) return { expected: "price", unit: undefined }
  const measure = priced ? undefined : measureOf(normal)
  if (measure !== undefined) return { expected: "measure", unit: measure }
  // "تا چند میلیون", "how many thousand": a magnitude is no unit; any amount answers.
  if (countAsk.test(normal)) return { expected: "count", unit: unit !== undefined && isNumberWord(unit) ? undefined : unit }
  if (conditionAsk.test(normal)) return { expected: "condition", unit: undefined }
  return { expected: "any", unit: undefined }
}

/** Cities and provinces a shop's customers name most, in both languages (normal form). */
const knownPlaces = stems(
  "tehran mashhad isfahan esfahan shiraz tabriz karaj ahvaz qom kermanshah urmia rasht kerman yazd ardabil " +
    "bandar abbas arak zanjan sanandaj qazvin khorramabad gorgan sari kish qeshm hamadan " +
    "تهران مشهد اصفهان شیراز تبریز کرج اهواز قم کرمانشاه ارومیه رشت کرمان یزد اردبیل بندرعباس اراک زنجان " +
    "سنندج قزوین خرمآباد گرگان ساری کیش قشم همدان بوشهر"
)

/** A capitalised word after "to"/"in"/"from" ("ship to Shiraz"), or a word after "به"/"در" missing elsewhere. */
const placesOf = (text: string): ReadonlyArray<string> => {
  const found = new Set<string>()
  for (const word of wordsOf(text)) {
    // "من تهرانم", "کرجم": a city with a personal ending.
    const bare = [word, word.replace(/(?:یم|م|ی|ه)$/u, "")].map(stem).find((root) => knownPlaces.has(root))
    if (bare !== undefined) found.add(bare)
  }
  for (const match of text.matchAll(/\b(?:to|in|from|near)\s+([A-Z][a-z]{2,})/gu)) {
    const name = match[1]
    if (name !== undefined) found.add(stem(name.toLowerCase()))
  }
  return [...found]
}

/** Pronouns standing for something named before, with the colloquial object forms ("اینو" this, "اونو" that). */
export const pointsBack =
  /\b(?:it|its|that|this|they|them|those|these|one)\b|(?:^|\s)(?:اون|آن|اینها|آنها|همون|همان|اونا|اینو|اونو|همینو|همونو)(?=[\s,،.?؟]|$)/iu

/** Days and months: written with a capital, but no name of a thing. */
const calendarWords = stems(
  "monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday saturdays " +
    "sunday sundays january february march april may june july august september october november december"
)

/**
 * Words written with a capital inside an English sentence ("pay with PayPal"): names of a thing, a brand or a
 * service, which a passage must name to answer. A place after "to"/"in"/"from"/"near" and a day are not.
 */
const namesOf = (text: string): ReadonlyArray<string> => {
  const places = new Set(placesOf(text))
  const found = new Set<string>()
  for (const match of text.matchAll(/(?<=[\p{L}\d,;]\s+)(\p{Lu}[\p{L}\d]+)/gu)) {
    const word = match[1] ?? ""
    const before = text.slice(0, match.index).trimEnd()
    if (/\b(?:to|in|from|near|the)$/iu.test(before) || word === "I") continue
    const root = stem(normalizeText(word))
    if (!places.has(root) && !calendarWords.has(root)) found.add(root)
  }
  return [...found]
}

/**
 * Names a follow-up writes with a capital ("What about Leeds?", "And Manchester?") after a question naming a place:
 * it asks the same of another place.
 */
const placesAskedAgain = (text: string, previous: string | undefined): ReadonlyArray<string> =>
  previous === undefined || placesOf(previous).length === 0 ? [] : [
    ...new Set(
      [...text.matchAll(/(?<![\p{L}'])(\p{Lu}\p{Ll}{2,})(?![\p{L}'])/gu)].map((match) =>
        stem(normalizeText(match[1] ?? ""))
      ).filter((root) => !calendarWords.has(root))
    )
  ]

/** A request's opening verb ("Name…", "List…"): it says how to answer, not what about. */
const imperative = /^\s*(?:please\s+)?(?:name|list|give|show|tell|describe|explain|mention)\b/iu

/** Words that name no particular thing: "what to do" is "چه کار کنم". */
const vagueThings = stems("thing things way kind type sort happen happens کار چیز جور نوع طور")
export const isVague = (root: string): boolean => vagueThings.has(root)

/** The word after "what"/"which"/"چه"/"کدام", unless a stop or frame word ("what time", "چه مدت"). */
const focusOf = (text: string): string | undefined => {
  const words = wordsOf(text)
  const at = words.findIndex((word) => ["what", "which", "چه", "کدام", "کدوم"].includes(word))
  const next = at < 0 ? undefined : words[at + 1]
  // "what's" is "what" and a contraction's letter, not a thing.
  if (next === undefined || next.length < 2 || questionStopWords.has(next)) return undefined
  const root = stem(next)
  return frameWords.has(root) || vagueThings.has(root) ? undefined : root
}

/** "کرجم" (I am in Karaj), "تهرانی": a known city with a personal ending is the city. */
const asPlace = (root: string): string =>
  knownPlaces.has(root)
    ? root
    : [root.replace(/(?:یم|م|ی|ه)$/u, "")].map(stem).find((bare) => knownPlaces.has(bare)) ?? root

const questionRoots = (text: string) => rootsOf(text).map(asPlace)

/** "ماهه", "روزه": the unit a question counts in, with the colloquial "is" ending. */
const isUnitForm = (root: string, unit: string | undefined) =>
  unit !== undefined && timeUnits.has(unit) && root !== unit && stem(root.replace(/[هی]$/u, "")) === unit

/** Spoken forms of the asking words, read as written: "چقد" is "چقدر", "چن" is "چند". */
const spokenAsking: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|[^\p{L}])چقد(?=[^\p{L}]|$)/gu, "$1چقدر"],
  [/(^|[^\p{L}])چن(?=[^\p{L}]|$)/gu, "$1چند"]
]
const writtenAsking = (text: string): string =>
  spokenAsking.reduce((out, [pattern, written]) => out.replace(pattern, written), text)

export const analyzeQuestion = (spoken: string, previousSpoken?: string): Question => {
  const text = writtenAsking(spoken)
  const previous = previousSpoken === undefined ? undefined : writtenAsking(previousSpoken)
  const own = questionRoots(text.replace(imperative, ""))
  // A follow-up naming a place of its own ("and to Spain?", "تبریز چطور؟") asks of it instead of the previous one's.
  const askedAgain = placesAskedAgain(text, previous).filter((place) => own.includes(place))
  const ownPlace = own.some(isForeign) || [...placesOf(text), ...askedAgain].some((place) => own.includes(place))
  const context = previous === undefined ? [] : questionRoots(previous).filter((root) =>
    !own.includes(root) && !(ownPlace && (isForeign(root) || placesOf(previous).includes(root)))
  )
  const asked = expectedOf(text)
  // A follow-up without a value of its own ("And to another province?") asks for the previous one's.
  const inherited = asked.expected === "any" && previous !== undefined ? expectedOf(previous) : asked
  // One stating a case ("and if I come a day late?", "اگه دیرتر بیام چی؟") asks what holds in it, and names
  // no new thing.
  const statesCase = previous !== undefined && caseOpening.test(normalizeText(text))
  const { expected, unit } = statesCase && inherited.expected === "any"
    ? { expected: "condition" as const, unit: undefined }
    : inherited
  const all = [...own, ...context]
  return {
    text,
    roots: own,
    contextRoots: context,
    expected,
    unit,
    // A number ("بیست و یک", "twenty") is a value the question states, not what it is about; so is the unit
    // counted in its colloquial form ("ماهه" of "چند ماهه").
    subject: [
      ...new Set(all.filter((root) =>
        !frameWords.has(root) && !isNumberWord(root) && !isOrdinal(root) && !isUnitForm(root, unit)
      ))
    ],
    places: [...new Set([...placesOf(`${text} ${previous ?? ""}`), ...askedAgain])].filter((place) => all.includes(place)),
    names: namesOf(text).filter((name) => own.includes(name) && !askedAgain.includes(name)),
    focus: focusOf(text),
    elliptical: previous !== undefined && asked.expected === "any" && !statesCase,
    leansBack: previous !== undefined && pointsBack.test(text),
    statesCase,
    // "به حسابم" (to my account) is no place: a word with a possessive ending belongs to someone.
    maybePlaces: [...normalizeText(text).matchAll(/(?:^|\s)(?:به|در)\s+([\u0600-\u06FF]{3,})/gu)]
      .filter((match) => withoutEnclitic(match[1] ?? "") === undefined)
      .map((match) => stem(match[1] ?? "")).filter((root) => all.includes(root))
  }
}

const greetings = new Set(
  wordsOf(
    "hi hello hey hiya greetings good morning evening afternoon thanks thank you سلام درود وقت بخیر صبح عصر شب ممنون مرسی متشکرم سپاس مرحبا اهلا شكرا"
  )
)

/** A greeting or thanks and nothing else. */
export const isSmallTalk = (question: string): boolean => {
  const words = wordsOf(question)
  return words.length > 0 && words.length <= 4 &&
    words.every((word) => greetings.has(word) || questionStopWords.has(word))
}

export const isThanks = (question: string): boolean =>
  wordsOf(question).some((word) => /^(thank|thanks|ممنون|مرسی|متشکرم|سپاس|شكرا)/.test(word))
