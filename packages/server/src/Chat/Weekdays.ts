/**
 * Days of the week a sentence covers by a range: "Monday to Thursday",
 * "Mon–Thu" written out, "شنبه تا چهارشنبه". A question naming a day inside the
 * range ("on a Wednesday") is answered by the sentence, as a number inside a
 * range is.
 */
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
