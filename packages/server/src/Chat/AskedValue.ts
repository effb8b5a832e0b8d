/**
 * The kind of value a question asks for (a count, a duration, a price, how
 * often, a measure, an address, what holds in a case, or anything) and the
 * unit it names, with the words that frame such a value rather than name the
 * question's subject.
 */
import { rewritePhrases } from "../Search/Lexicon"
import { isNumberWord } from "../Search/Numbers"
import { stem } from "../Search/Stemmer"
import { questionStopWords } from "../Search/StopWords"
import { normalizeText, wordsOf } from "../Search/TextNormalization"

/**
 * What the answer must hold: a number (of `unit` when named), a duration, a price, how often, a measure (a
 * number with a unit of weight, size, volume, power), an address, what holds under a condition ("what if …"), or
 * anything.
 */
export type Expected = "count" | "duration" | "price" | "frequency" | "measure" | "address" | "condition" | "any"

export const stems = (words: string): ReadonlySet<string> => new Set(wordsOf(words).map(stem))

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
export const askingWords = stems("time period duration زمان مدت وقت")

/** Words that frame the value asked for rather than name the subject. */
export const frameWords = new Set([
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
  /\bwhen (?:will|does|do|is|can)\b.*\b(?:arrive|arrives|come|back|ready|get)\b|(?:^|\s)(?:کی|چه وقت|چه زمانی)\s+(?:(?!برا)\S+\s+){0,2}(?:می|بر(?!ا)|اماد|میرس|میاد)|\bhow (?:soon|fast|quickly)\b|\bhow (?:far|long) (?:ahead|in advance|beforehand)\b|\bhow much notice\b|چند (?:روز|ساعت|هفته) (?:قبل|زودتر|جلوتر)|\bhow long\b.*\b(?:take|takes|last|lasts|wait|valid|keep|until)\b|\bwithin how\b|\b(?:period|duration)\b|مدت|چند وقت|چقدر (?:طول|زمان|وقت)|تا کی|تا ساعت چند|چه زمانی طول/u
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
/** Words counting how many times: "چند بار", "how many times". */
const occasions = stems("time times بار دفعه مرتبه")

/** Words that ask where a shop is: an address answers. */
const addressAsk =
  /\baddress\b(?<!\b(?:at|to|from|with|use|using|under|on)\s+(?:(?:your|our|my|the|this|that)\s+)?address)|\bwhere (?:is|are) (?:your|the) (?:shop|store|showroom|office|branch|warehouse)|ادرس|نشانی|(?:مغاز|فروشگاه|شعبه|دفتر)\S*\s+(?:\S+\s+)?کجا/u
/** Words that say where: a street, a square, a floor. */
export const addressWords = stems(
  "street st road rd avenue ave lane square floor building unit boulevard " +
    "خیابان بلوار نبش کوچه پلاک میدان طبقه چهارراه بزرگراه ساختمان"
)
/**
 * "how much to fit a shelf", "how much for two", "چند میگیرین" (how much do you take): what is charged. "How much"
 * before a noun ("how much room") asks an amount of it.
 */
const priceAsk =
  /\bhow much\b.*\b(?:cost|price|fee|charge|pay|is)\b|\bwhat (?:does|do|is|would|will).*\b(?:cost|price|fee)\b|\bhow much (?:to|for|would|will|extra)\b|(?:^|\s)(?:چند|چقدر)\s+(?:ازم\s+|از\s+من\s+)?(?:ن?می|ب)?گیر/u
const countAsk = /\bhow (?:many|much)\b|چند|چقدر|كم/u

/**
 * Words that ask what holds in a case: "what if …", "what happens if/when …", "اگه … چی میشه؟", "اگر … چه
 * می‌شود؟". A rule with its condition answers ("Cancel within seven days and the deposit is kept").
 */
const conditionAsk =
  /^(?:and |but |so )?what (?:if|happens (?:if|when|to)|about if)\b|^(?:and|but|so) if\b|(?:^|\s)(?:اگه|اگر|در صورتی که|وقتی)\s.*(?:چی|چه)(?:\s*(?:میشه|می شود|میشود|اتفاقی|کار))?\s*[?؟]?\s*$/u

/** Words that name what something costs: "how much is the tuition" asks a price. */
const priceWords = new Set(
  wordsOf("price cost fee fees tuition fare charge قیمت هزینه تومان تومن ریال شهریه کارمزد کرایه").map(normalizeText)
)

/** Which kind of value the question asks for, and the unit it names. */
export const expectedOf = (text: string): { readonly expected: Expected; readonly unit: string | undefined } => {
  const normal = normalizeText(text)
  const words = wordsOf(normal)
  const at = words.findIndex((word, i) =>
    (word === "many" && words[i - 1] === "how") || word === "چند" || (word === "long" && words[i - 1] === "how")
  )
  // "ساعت چند" asks what time: the word after it is the verb ("ساعت چند می‌بندید؟"), no unit. Nor is a verb after
  // "چند" ("چند میگیرین", how much do you take) a unit.
  const after = at < 0 || (words[at] === "چند" && words[at - 1] === "ساعت") ? undefined : words[at + 1]
  const next = after !== undefined && words[at] === "چند" && /^(?:ن?می|ب)\p{L}{3,}$/u.test(after) ? undefined : after
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
  // "تا چند میلیون", "how many thousand": a magnitude is no unit; any amount answers. Nor is a number of times:
  // it is counted in the occasions a document names ("چند بار پرو" by "دو جلسه پرو").
  if (countAsk.test(normal)) {
    return {
      expected: "count",
      unit: unit !== undefined && (isNumberWord(unit) || occasions.has(unit)) ? undefined : unit
    }
  }
  if (conditionAsk.test(normal)) return { expected: "condition", unit: undefined }
  return { expected: "any", unit: undefined }
}
