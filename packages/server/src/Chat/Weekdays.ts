/**
 * Days of the week and months of the year a sentence covers by a range:
 * "Monday to Thursday", "Mon–Thu" written out, "شنبه تا چهارشنبه", "June to
 * August", "آذر تا بهمن". A question naming a day or month inside the range ("on a
 * Wednesday", "in July") is answered by the sentence, as a number inside a
 * range is. And a sentence stating clock hours ("9 to 13", "۱۰ تا ۱۴") speaks of
 * every time of day and of being open: "Friday evening?" and "open on
 * Friday?" are answered by "Fridays only 9 to 13", inside the hours or not,
 * which the customer reads.
 */
import { readNumbers } from "../Search/Numbers"
import { normalizeText, wordsOf } from "../Search/TextNormalization"

/** Each language's week in order, in normal form (the half-space joined: "سهشنبه"). */
const weeks: ReadonlyArray<ReadonlyArray<string>> = [
  ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"],
  ["شنبه", "یکشنبه", "دوشنبه", "سه‌شنبه", "چهارشنبه", "پنج‌شنبه", "جمعه"].map(normalizeText)
]

/** Each calendar's year in order, in normal form: the Gregorian months and the Persian solar ones. */
const years: ReadonlyArray<ReadonlyArray<string>> = [
  wordsOf("january february march april may june july august september october november december"),
  wordsOf(normalizeText("فروردین اردیبهشت خرداد تیر مرداد شهریور مهر آبان آذر دی بهمن اسفند"))
]

/** Words joining the two ends of a range; a dash leaves none between them. */
const through = new Set(["to", "through", "till", "until", "thru", "تا"])

/**
 * Words saying every day of the week ("every day", "7 days a week", "همه روزه", "هر روز"): a sentence with them
 * covers any weekday, as one about every city covers a city.
 */
const everyDay = /\b(?:every ?day|(?:7|seven) days a week)\b|(?:^|\s)(?:همه ?روزه|هر روز|همه روز|7 روز هفته|هفت روز هفته)(?=[\s,،.]|$)/u

/** The days a weekday range in `text` covers, both ends included, in its own language; all of them every day. */
export const weekdaysIn = (text: string): ReadonlyArray<string> =>
  everyDay.test(normalizeText(text)) ? weeks.flat() : coveredIn(text, weeks)

/** The months a range of months in `text` covers ("June to August" holds July), in its own calendar. */
export const monthsIn = (text: string): ReadonlyArray<string> => coveredIn(text, years)

/** What a range of a cycle's names in `text` covers, both ends included, going round the cycle. */
const coveredIn = (text: string, cycles: ReadonlyArray<ReadonlyArray<string>>): ReadonlyArray<string> => {
  const words = wordsOf(normalizeText(text))
  const covered = new Set<string>()
  for (const week of cycles) {
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

/**
 * Times of day a customer names, in normal form, and being open or closing: hours stated are the hours something
 * is open ("are you open on Friday?", "دوشنبه بازه؟") and say at what time it shuts ("what time do you close?").
 */
const timesOfDay = wordsOf(
  normalizeText(
    "morning afternoon evening night noon time صبح ظهر بعدازظهر عصر شب open close closing shut باز بسته تعطیل"
  )
)

/** The marks of an hour before or after noon. */
const meridiem = new Set(["am", "pm"])

/**
 * Words a timetable's line holds besides its hours and days ("Monday to Friday 8am - 6pm, closed"), and those of
 * its label ("Opening hours").
 */
const timetableWords = new Set([
  "to",
  "and",
  "from",
  "till",
  "until",
  "closed",
  "open",
  "daily",
  "weekday",
  "weekdays",
  "weekend",
  "weekends"
])

/** Every day's name, also in the plural ("Mondays"). */
const days = new Set(weeks.flat().flatMap((day) => [day, `${day}s`]))

/**
 * A line of nothing but days and hours: the hours something is open. A sentence stating hours of another
 * thing ("we deliver between 9 am and 5 pm") has words of its own.
 */
const isTimetableLine = (tokens: ReadonlyArray<string>, numbers: number): boolean => {
  const words = tokens.filter((token) => /\p{L}/u.test(token) && !/^\d/u.test(token))
  const other = words.filter((word) =>
    !meridiem.has(word) && !days.has(word) && !timetableWords.has(word) && !hourWords.has(word)
  )
  return other.length === 0 && numbers <= 6
}

/** Words that make a range of small numbers clock hours. */
const hourWords = new Set(wordsOf(normalizeText("hour hours am pm open opening ساعت ساعات بازه باز")))

/** Every time of day, and being open, when the sentence states a range of clock hours, else none. */
export const timesOfDayIn = (text: string): ReadonlyArray<string> => {
  const { quantities, tokens } = readNumbers(text)
  const named = tokens.some((token) => hourWords.has(token))
  // A range of small numbers, or two hours with their times of day between ("۷ صبح تا ۹ شب", "9am to 5pm"), or a
  // timetable's line of hours marked am or pm ("Saturday 8am - 5pm": past noon, its second number is the smaller).
  const clock = quantities.filter((quantity) => quantity.value <= 24 && meridiem.has(tokens[quantity.end] ?? ""))
  const hours = (clock.length >= 2 && isTimetableLine(tokens, quantities.length)) ||
    (quantities.some((quantity) => quantity.max > quantity.value && quantity.max <= 24) &&
    (named || weekdaysIn(text).length > 0 || weeks.some((week) => tokens.some((token) => week.includes(token))))) ||
    (named && quantities.filter((quantity) => quantity.value <= 24).length >= 2 &&
      tokens.some((token) => timesOfDay.includes(token)))
  return hours ? timesOfDay : []
}
