/**
 * The values a text states, as ranges to compare: "3 to 5"; a bound as one
 * ("over 15 kg" is 15 and up, "کمتر از ۲ میلیون" up to 2 million); a value
 * followed by a unit of time in days ("two months before" is 60 days before).
 * A value the question states picks the sentence whose range holds it.
 */
import { readNumbers } from "../Search/Numbers"
import { wordsOf } from "../Search/TextNormalization"

/** Words before a number that open its range upwards ("over 15 kg", "بیش از ۳") or downwards ("under £30"). */
const atLeast = new Set(wordsOf("over above exceeding least more بیش بیشتر بالای بالاتر حداقل"))
const atMost = new Set(wordsOf("under below less most upto کمتر زیر حداکثر"))

/** Days in a unit of time, so that "a month before" falls in "more than 21 days before". */
const daysIn = new Map<string, number>([
  ...["hour", "hours", "ساعت"].map((unit) => [unit, 1 / 24] as const),
  ...["day", "days", "روز"].map((unit) => [unit, 1] as const),
  ...["week", "weeks", "هفته"].map((unit) => [unit, 7] as const),
  ...["month", "months", "ماه"].map((unit) => [unit, 30] as const),
  ...["year", "years", "سال"].map((unit) => [unit, 365] as const)
])

/** Days named relative to now ("tomorrow", "فردا"): a value in days, as "in one day" would be. */
const relativeDays = new Map<string, number>([
  ...wordsOf("today tonight امروز امشب").map((word) => [word, 0] as const),
  ...wordsOf("tomorrow فردا").map((word) => [word, 1] as const)
])

/** Whether `word` (normal form) names a day relative to now. */
export const isRelativeDay = (word: string): boolean => relativeDays.has(word)

/**
 * The values a text states, each as the range it spans ("3 to 5"; a bound as one: "over 15" is 15 and up), in
 * days when a unit of time follows it.
 */
export const valuesOf = (text: string): ReadonlyArray<readonly [number, number]> => {
  const { quantities, tokens } = readNumbers(text)
  const relative = tokens.flatMap((token) => {
    const days = relativeDays.get(token)
    return days === undefined ? [] : [[days, days] as const]
  })
  return [...relative, ...quantities.map((quantity) => {
    const before = tokens.slice(Math.max(0, quantity.start - 2), quantity.start)
    const scale = daysIn.get(tokens[quantity.end] ?? "") ?? 1
    const [low, high] = quantity.max > quantity.value
      ? [quantity.value, quantity.max]
      : before.some((word) => atLeast.has(word))
      ? [quantity.value, Infinity]
      : before.some((word) => atMost.has(word))
      ? [0, quantity.value]
      : [quantity.value, quantity.value]
    return [low * scale, high * scale] as const
  })]
}
