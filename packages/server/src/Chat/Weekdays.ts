/**
 * Days of the week a sentence covers by a range: "Monday to Thursday",
 * "Mon–Thu" written out, "شنبه تا چهارشنبه". A question naming a day inside the
 * range ("on a Wednesday") is answered by the sentence, as a number inside a
 * range is. And a sentence stating clock hours ("9 to 13", "۱۰ تا ۱۴") speaks of
 * every time of day: "Friday evening?" is answered by "Fridays only 9 to 13",
 * inside the hours or not, which the customer reads.
 */
import { readNumbers } from "../Search/Numbers"
import { normalizeText, wordsOf } from "../Search/TextNormalization"

/** Each language's week in order, in normal form (the half-space joined: "سهشنبه"). */
const weeks: ReadonlyArray<ReadonlyArray<string>> = [
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  ["شنبه", "یکشنبه", "دوشنبه", "سه‌شنبه", "چهارشنبه", "پنج‌شنبه", "جمعه"].map(normalizeText)
]

/** Words joining the two ends of a range; a dash leaves none between them. */
const through = new Set(["to", "through", "till", "until", "thru", "تا"])

/** The days a weekday range in `text` covers, both ends included, in its own language. */
export const weekdaysIn = (text: string): ReadonlyArray<string> => {
  const words = wordsOf(normalizeText(text))
  const covered = new Set<string>()
  for (const week of weeks) {
    words.forEach((word, i) => {
      const from = week.indexOf(word)
      if (from < 0) return
      const next = words[i + 1] ?? ""
      const end = through.has(next) ? words[i + 2] ?? "" : next
      const to = week.indexOf(end)
      if (to < 0 || to === from) return
      for (let day = from; day !== to; day = (day + 1) % week.length) covered.add(week[day] ?? "")
      covered.add(week[to] ?? "")
    })
  }
  return [...covered]
}

/** Times of day a customer names, in normal form. */
const timesOfDay = wordsOf(normalizeText("morning afternoon evening night noon صبح ظهر بعدازظهر عصر شب"))

/** Words that make a range of small numbers clock hours. */
const hourWords = new Set(wordsOf(normalizeText("hour hours am pm open opening ساعت ساعات بازه باز")))

/** Every time of day when the sentence states a range of clock hours, else none. */
export const timesOfDayIn = (text: string): ReadonlyArray<string> => {
  const { quantities, tokens } = readNumbers(text)
  const hours = quantities.some((quantity) => quantity.max > quantity.value && quantity.max <= 24) &&
    (tokens.some((token) => hourWords.has(token)) || weekdaysIn(text).length > 0 ||
      weeks.some((week) => tokens.some((token) => week.includes(token))))
  return hours ? timesOfDay : []
}
