/**
 * A price bound stated in a question ("under 1 million toman", "زیر ۲ میلیون
 * تومان", "ارزان‌تر از ۵۰۰ هزار", "between 200k and 400k"), in either
 * language and digit system, as the product tool's `minPrice`/`maxPrice`;
 * and the question without it, as the product query. A number is a price
 * when a currency follows it, a price word is in the question, or it is
 * 1000 or more ("under 2 kg" is no bound).
 */
import { readNumbers } from "../Search/Numbers"
import { stem } from "../Search/Stemmer"
import { wordsOf } from "../Search/TextNormalization"
import { moneyUnits } from "./AskedValue"

export interface PriceBounds {
  readonly minPrice?: number
  readonly maxPrice?: number
  /** The question without the bound's words: what to search for. */
  readonly query: string
}

const phrases = (text: string) => text.split("|").map((phrase) => wordsOf(phrase))
/** Words before an amount that make it a ceiling or a floor, in normal form. */
const ceilings = phrases(
  "under|below|less than|cheaper than|up to|at most|no more than|not more than|max|maximum|within|" +
    "زیر|کمتر از|کم تر از|ارزانتر از|پایینتر از|پایین تر از|حداکثر|تا|نهایتا|زیر"
)
const floors = phrases(
  "over|above|more than|at least|from|min|minimum|starting at|" +
    "بالای|بالاتر از|بیشتر از|بیش از|گرانتر از|حداقل|از"
)
const priceWords = new Set(wordsOf("price priced cost costs budget قیمت هزینه بودجه").map(stem))

/** The phrase of `list` ending just before token `at`, if any: its length in tokens. */
const phraseBefore = (tokens: ReadonlyArray<string>, at: number, list: ReadonlyArray<ReadonlyArray<string>>) => {
  let longest = 0
  for (const phrase of list) {
    const start = at - phrase.length
    if (start >= 0 && phrase.length > longest && phrase.every((word, i) => tokens[start + i] === word)) {
      longest = phrase.length
    }
  }
  return longest
}

export const priceBounds = (question: string): PriceBounds => {
  const { quantities, tokens } = readNumbers(question)
  const priced = tokens.some((token) => priceWords.has(stem(token)))
  const dropped = new Set<number>()
  let minPrice: number | undefined
  let maxPrice: number | undefined
  for (const quantity of quantities) {
    const after = tokens[quantity.end] ?? ""
    const currency = moneyUnits.has(stem(after))
    if (!currency && !priced && quantity.max < 1000) continue
    const between = tokens[quantity.start - 1] === "between" || tokens[quantity.start - 1] === "بین" ? 1 : 0
    const ceiling = phraseBefore(tokens, quantity.start, ceilings)
    const floor = phraseBefore(tokens, quantity.start, floors)
    const range = quantity.max > quantity.value
    if (!range && ceiling === 0 && floor === 0) continue
    if (range || floor > ceiling) minPrice = quantity.value
    if (range || ceiling >= floor) maxPrice = quantity.max
    const from = quantity.start - Math.max(ceiling, floor, between)
    const to = quantity.end + (currency ? 1 : 0)
    for (let i = from; i < to; i++) dropped.add(i)
  }
  return {
    ...(minPrice === undefined ? {} : { minPrice }),
    ...(maxPrice === undefined ? {} : { maxPrice }),
    query: dropped.size === 0 ? question : tokens.filter((_, i) => !dropped.has(i)).join(" ")
  }
}
