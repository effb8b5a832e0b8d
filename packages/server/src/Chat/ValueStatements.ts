/**
 * Whether a sentence states the kind of value a question asks for: a number
 * of the unit counted, a duration, a price, a frequency, a measure with a
 * unit of its kind, an address; and what names a rule's condition.
 */
import { readNumbers } from "../Search/Numbers"
import { stem } from "../Search/Stemmer"
import { wordsOf } from "../Search/TextNormalization"
import { addressWords, freeWords, moneyUnits, promptWords, timeUnits, unitsOfMeasure } from "./AskedValue"
import { type Question, rootsOf } from "./QuestionAnalysis"
import { sameWord } from "./SameWord"
import { timesOfDayIn } from "./Weekdays"

/** Footnote marks, manual sections ("dpkg(1)") and section numbers ("5.9.5") are not quantities. */
const withoutReferences = (sentence: string) =>
  sentence.replace(/\[\d+\]|\(\d\w?\)|\b\d+(?:\.\d+){2,}\b|(?:Section|Chapter)\s+[\d.]+/gu, "")

/** "روز" and "روزه", "day" and "days": one stem the start of the other. */
const sameThing = (a: string, b: string) =>
  sameWord(a, b) || (Math.min(a.length, b.length) >= 3 && (a.startsWith(b) || b.startsWith(a)))

/** Time units "a"/"an" counts one of: "an hour", "a fortnight" (not "a business"). */
const singleUnits = new Set(wordsOf("minute hour day night week fortnight month year").map(stem))

/** Fractions said in words: "half the fee", "نصف اجرت", "a third" are amounts as a number is. */
const fractionWords = new Set(wordsOf("half halves third quarter نصف نیمی نیم ربع ثلث"))

/** What a fraction of states a price: "half of the fee", "a third of the price", "نصف اجرت". */
const chargeWords = new Set(wordsOf("fee fees price cost charge اجرت هزینه قیمت مبلغ").map(stem))

/** Words that say how often without a number. */
const frequencyWords = new Set(
  wordsOf("daily weekly monthly yearly annually regularly each every روزانه هفتگی ماهانه سالانه مرتب").map(stem)
)

/** What states a rule's condition: "if", "once", "within", "after", "اگر", "در صورت", "پس از", "تا". */
export const conditionMarks =
  /\b(?:if|unless|once|after|before|within|until|up to|more than|less than|between|when|only|otherwise)\b|(?:^|\s)(?:اگر|در صورت|درصورت|پس از|بعد از|قبل از|تا|ظرف|فقط|جز|به شرط|مگر|وگرنه)(?=\s)/u

/**
 * The sentence itself counts in the unit the question asks for ("در ۱۸ قسط ماهانه" for "چند ماهه"), not only
 * with the sentence it is quoted with or in another unit.
 */
export const countsInUnit = (sentence: string, unit: string): boolean => {
  const { quantities, tokens } = readNumbers(withoutReferences(sentence))
  const roots = tokens.map(stem)
  return quantities.some((quantity) =>
    roots.slice(quantity.end, quantity.end + 3).some((root) => sameThing(root, unit))
  )
}

/**
 * A moment named by an event: "on the day of the fitting", "upon delivery", "at the time of booking", "روز
 * نصب", "هنگام تحویل", "موقع ثبت سفارش". It answers "when" as a number of days does.
 */
const namesMoment =
  /\b(?:on the day of|upon|at the time of|on (?:delivery|collection|arrival|completion))\b|(?:^|[\s(،])(?:روز|هنگام|موقع|زمان)\s+(?=[\u0600-\u06FF]{3,})(?!(?:های|ها|کاری|بعد|قبل|تا)(?:\s|$))/u

/** The sentence states the kind of value the question asks for. */
export const statesValue = (sentence: string, question: Question): boolean => {
  if (question.expected === "any") return true
  const { quantities, tokens } = readNumbers(withoutReferences(sentence))
  const roots = tokens.map(stem)
  const followedBy = (test: (root: string) => boolean) =>
    quantities.some((quantity) => roots.slice(quantity.end, quantity.end + 3).some(test))
  switch (question.expected) {
    case "duration":
      return followedBy((root) =>
        question.unit === undefined
          ? [...timeUnits].some((unit) => sameThing(root, unit))
          : sameThing(root, question.unit) || timeUnits.has(root)
      ) || roots.some((root) => promptWords.has(root)) ||
        // "until when", "how late": a moment ("upon delivery") or the hours of the day ("8 to 13") answers.
        (question.unit === undefined && (namesMoment.test(sentence) || timesOfDayIn(sentence).length > 0)) ||
        // "an hour", "a week", "up to a month": one of the unit.
        tokens.some((token, i) => (token === "a" || token === "an") && singleUnits.has(roots[i + 1] ?? ""))
    case "price":
      return followedBy((root) => moneyUnits.has(root)) || roots.some((root) => freeWords.has(root)) ||
        /[£$€¥]\s?\d|\d\s?[£$€¥]/u.test(sentence) ||
        quantities.some((quantity) => quantity.value >= 1000) ||
        tokens.some((token, i) => fractionWords.has(token) && roots.slice(i + 1, i + 4).some((r) => chargeWords.has(r)))
    case "measure": {
      // A number with a unit of the measure's kind ("3.2 kg", "1.5 litres", "۹۰ سانتیمتر"), also joined ("800W").
      const units = unitsOfMeasure(question.unit ?? "")
      return followedBy((root) => units.has(root)) ||
        tokens.some((token) => /^\d[\d.,]*\p{L}+$/u.test(token) && units.has(stem(token.replace(/^[\d.,]+/u, ""))))
    }
    case "address":
      return roots.some((root) => addressWords.has(root)) ||
        /\b\d+\s+\p{Lu}\p{Ll}+\s+(?:Street|Road|Avenue|Lane)\b/u.test(sentence)
    case "frequency":
      // "every month", "once a week", "ماهی یک بار" (read as "often"), "monthly", or a number of time units.
      return roots.some((root) => frequencyWords.has(root)) || rootsOf(sentence).includes("often") ||
        followedBy((root) => [...timeUnits].some((unit) => sameThing(root, unit)))
    case "condition":
      // Any sentence about the case may state what holds in it ("Returns of faulty items are free"); one
      // that names a condition ranks higher.
      return true
    case "count": {
      const unit = question.unit
      return unit === undefined
        ? quantities.length > 0 || tokens.some((token) => fractionWords.has(token))
        : followedBy((root) => sameThing(root, unit))
    }
  }
}
