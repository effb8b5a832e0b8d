/**
 * Numbers in text, one parser for search and chat: digits of any script
 * (Latin, Persian ۰-۹, Arabic-Indic ٠-٩, folded by `normalizeText`), with
 * thousands separators and decimals ("1,650,000", "۱٫۵"); English and Persian
 * number words and their compounds ("twenty-one", "one hundred and fifty",
 * "بیست و یک", "صد و پنجاه", "چهل‌وهشت"); scale words after digits
 * ("1 million", "۵۰۰ هزار"); and ranges ("three to five", "۳ تا ۵", "3-5",
 * "between 2 and 4"). Pure.
 */
import { normalizeText } from "./TextNormalization"

/** A number found in a text: `value`, or a range from `value` to `max` (equal for a single number). */
export interface Quantity {
  readonly value: number
  readonly max: number
  /** Token positions it spans in `Reading.tokens`, `end` exclusive. */
  readonly start: number
  readonly end: number
}

export interface Reading {
  /** The normalised text's tokens: words, numbers (thousands separators removed) and dashes. */
  readonly tokens: ReadonlyArray<string>
  readonly quantities: ReadonlyArray<Quantity>
}

// Number words in normal form (see TextNormalization.ts: Persian yeh and keheh, no ZWNJ).
const units = new Map<string, number>([
  ..."zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen"
    .split(" ").map((word, i) => [word, i] as const),
  ..."صفر یک دو سه چهار پنج شش هفت هشت نه ده یازده دوازده سیزده چهارده پانزده شانزده هفده هجده نوزده"
    .split(" ").map((word, i) => [normalizeText(word), i] as const),
  ["هیجده", 18],
  ["یه", 1],
  ["a", 1],
  ["an", 1]
])
const tens = new Map<string, number>([
  ..."twenty thirty forty fifty sixty seventy eighty ninety".split(" ").map((word, i) => [word, 20 + 10 * i] as const),
  ..."بیست سی چهل پنجاه شصت هفتاد هشتاد نود".split(" ").map((word, i) => [normalizeText(word), 20 + 10 * i] as const)
])
const hundreds = new Map<string, number>([
  ..."یکصد دویست سیصد چهارصد پانصد ششصد هفتصد هشتصد نهصد".split(" ")
    .map((word, i) => [normalizeText(word), 100 * (i + 1)] as const),
  ["صد", 100]
])
const scales = new Map<string, number>([
  ["hundred", 100],
  ["thousand", 1e3],
  ["million", 1e6],
  ["billion", 1e9],
  ["هزار", 1e3],
  ["میلیون", 1e6],
  ["ملیون", 1e6],
  ["میلیارد", 1e9],
  // Colloquial "is a million" ("سه میلیونه"): the scale with the spoken "is".
  ["میلیونه", 1e6],
  ["ملیونه", 1e6],
  ["میلیارده", 1e9],
  ["k", 1e3]
])
const halves = new Set(["half", "نیم"])

/** Words that are numbers only in a number's company: "a" (an article), "نه" (also "no"), "یه" (also "a"). */
const onlyInCompany = new Set(["a", "an", "نه", "یه"])
/** Words that join the parts of one compound number. */
const joiners = new Set(["and", "و"])
/** Words (and dashes) between the two ends of a range. */
const rangeWords = new Set(["to", "-", "–", "—", "تا", "الی", "or", "یا", "till", "until"])

const tokenPattern = /\d+(?:[,٬]\d{3})+(?:[.٫]\d+)?|\d+(?:[.٫]\d+)?|[\p{L}\p{N}]+|[-–—]/gu

/** Tokens of normalised text, a compound joined with "و" split ("چهلوهشت" → "چهل", "و", "هشت"). */
const tokenize = (text: string): ReadonlyArray<string> =>
  (normalizeText(text).match(tokenPattern) ?? []).flatMap((token) => {
    if (/^\d/.test(token)) return [token.replace(/[,٬]/g, "").replace("٫", ".")]
    const parts = token.split("و")
    if (parts.length > 1 && parts.every((part) => wordValue(part) !== undefined)) {
      return parts.flatMap((part, i) => i === 0 ? [part] : ["و", part])
    }
    return [token]
  })

const wordValue = (word: string): number | undefined => units.get(word) ?? tens.get(word) ?? hundreds.get(word)

/** The place below which a part may still be added ("twenty" takes "one", "صد" takes "پنجاه"). */
const placeOf = (value: number): number => value >= 1000 ? 1000 : value >= 100 ? 100 : value >= 20 ? 10 : 1

interface Parsed {
  readonly value: number
  readonly end: number
}

/** The number starting at `start` (one compound), if any. */
const numberAt = (tokens: ReadonlyArray<string>, start: number): Parsed | undefined => {
  let total = 0
  let current = 0
  let open = Infinity // the next part must be below this
  let end = start
  let seen = false
  for (let i = start; i < tokens.length; i++) {
    const token = tokens[i] ?? ""
    const digits = /^\d/.test(token) ? Number(token) : undefined
    const scale = scales.get(token)
    if (digits !== undefined) {
      if (seen) break
      current = digits
      open = 1
      seen = true
      end = i + 1
      continue
    }
    if (scale !== undefined && seen) {
      if (scale === 100) {
        current = (current === 0 ? 1 : current) * 100
        open = 100
      } else {
        total += (current === 0 ? 1 : current) * scale
        current = 0
        open = scale
      }
      end = i + 1
      continue
    }
    if (halves.has(token) && open > 0) {
      // "یک میلیون و نیم" is a million and a half; "دو و نیم" two and a half; "نیم" alone a half.
      if (seen && open >= 1000) total += open / 2
      else current += 0.5
      open = 0
      seen = true
      end = i + 1
      continue
    }
    const value = wordValue(token)
    if (value !== undefined && value < open) {
      if (!seen && onlyInCompany.has(token) && !companyFollows(tokens, i)) break
      current += value
      open = placeOf(value)
      seen = true
      end = i + 1
      continue
    }
    // "و" / "and" between parts of one number, and English "twenty-one" split at its hyphen.
    if (seen && (joiners.has(token) || token === "-")) {
      const next = tokens[i + 1] ?? ""
      const nextValue = wordValue(next)
      if ((nextValue !== undefined && nextValue < open) || (scales.has(next) && token !== "-") || halves.has(next)) {
        continue
      }
    }
    break
  }
  if (!seen) return undefined
  const value = total + current
  if (value === 0 && !tokens.slice(start, end).some((token) => token === "0" || token === "zero" || token === "صفر")) {
    return undefined
  }
  return { value, end }
}

/** Units after which an ambiguous word ("نه") is a number. */
const countedUnits = new Set(
  "روز ساعت ماه سال هفته دقیقه ثانیه نفر عدد بار تومان ریال درصد".split(" ").map(normalizeText)
)

/** "نه روز" is nine days; "a hundred" is one hundred. */
const companyFollows = (tokens: ReadonlyArray<string>, at: number): boolean => {
  const next = tokens[at + 1] ?? ""
  return scales.has(next) || countedUnits.has(next)
}

/** Every number in `text`, a range as one quantity. */
export const readNumbers = (text: string): Reading => {
  const tokens = tokenize(text)
  const quantities: Array<Quantity> = []
  for (let i = 0; i < tokens.length;) {
    const between = tokens[i] === "between" || tokens[i] === "بین"
    const first = numberAt(tokens, between ? i + 1 : i)
    if (first === undefined) {
      i++
      continue
    }
    const link = tokens[first.end] ?? ""
    const second = rangeWords.has(link) || (between && joiners.has(link))
      ? numberAt(tokens, first.end + 1)
      : undefined
    if (second !== undefined && second.value >= first.value) {
      quantities.push({ value: first.value, max: second.value, start: i, end: second.end })
      i = second.end
    } else {
      quantities.push({ value: first.value, max: first.value, start: between ? i + 1 : i, end: first.end })
      i = first.end
    }
  }
  return { tokens, quantities }
}

/** The single number a whole text spells ("twenty-one", "۱ میلیون"), or undefined. */
export const parseNumber = (text: string): number | undefined => {
  const { quantities, tokens } = readNumbers(text)
  const [only] = quantities
  return quantities.length === 1 && only !== undefined && only.start === 0 && only.end === tokens.length &&
      only.value === only.max
    ? only.value
    : undefined
}

/** Whether a word (in normal form) is a number by itself: digits or a number word. */
export const isNumberWord = (word: string): boolean =>
  /^\d/.test(word) || (wordValue(word) !== undefined && !onlyInCompany.has(word)) || halves.has(word) ||
  (scales.has(word) && word.length > 1)

/** Ordinals in normal form: English words, digits with their ending ("5th"), Persian "-م" and "-مین" forms. */
const ordinalWords = new Set([
  ..."first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth thirteenth fourteenth fifteenth sixteenth seventeenth eighteenth nineteenth twentieth thirtieth"
    .split(" "),
  ..."اول یکم دوم سوم چهارم پنجم ششم هفتم هشتم نهم دهم یازدهم دوازدهم بیستم سیام".split(" ").map(normalizeText)
])

/** Whether a word (in normal form) is an ordinal: "fifth", "5th", "پنجم", "پنجمین", "بیست و یکم"'s "یکم". */
export const isOrdinal = (word: string): boolean =>
  ordinalWords.has(word) || /^\d+(?:st|nd|rd|th|م|مین)$/u.test(word) ||
  (word.endsWith("مین") && ordinalWords.has(word.slice(0, -2)))
