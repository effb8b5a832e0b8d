/**
 * The parts of a compound word, which say what it is about: a Persian word
 * made of a word and a bound part that forms compounds ("ضدزنگ" holds "زنگ",
 * "نمکدان" holds "نمک", "کتابچه" holds "کتاب"), a Persian compound a title
 * writes with a half-space ("کیف‌پول" holds "کیف" and "پول"), and an
 * English word WordNet does not know that is two nouns it knows
 * ("lunchbox" holds "lunch" and "box"). A product's hidden field holds the
 * parts of its title words and a query word also stands for its own parts,
 * so a need described with one part finds the compound (RelatedTerms.ts,
 * MeaningLook.ts).
 */
import { boundedMemo } from "../Platform/Memo"
import { stopWords } from "./StopWords"
import { normalizeText, wordsOf } from "./TextNormalization"
import { isNoun } from "./WordNet"

/**
 * Parts that begin Persian compounds and leave the rest's meaning whole:
 * "against", "half" and "under". Negations ("بی", "نا") are left out: the
 * rest is what the product lacks.
 */
const persianPrefixes = ["ضد", "نیم", "زیر"].map(normalizeText)

/**
 * Bound parts that end Persian compounds, longest first: the diminutive,
 * places and containers, keepers and makers, and the present stems that make
 * tools or things of a noun ("-کن" cleans it, "-گیر" holds it, "-شوی"
 * washes it, "-نوش" is drunk of it, "-آویز" hangs on it).
 */
const persianSuffixes = [
  "کننده",
  "انداز",
  "تراش",
  "آویز",
  "نویس",
  "واره",
  "ستان",
  "سازی",
  "بانی",
  "دانی",
  "خوری",
  "کاری",
  "ساز",
  "بان",
  "دان",
  "گاه",
  "زار",
  "کار",
  "گیر",
  "پاش",
  "بند",
  "شوی",
  "خور",
  "سنج",
  "یاب",
  "نوش",
  "کوب",
  "باف",
  "پوش",
  "گری",
  "چه",
  "کن",
  "زن",
  "کش",
  "پز",
  "گر"
].map(normalizeText)

/** Persian parts that are only endings or bound parts: alone they say nothing. */
const boundParts = new Set([
  ...persianPrefixes,
  ...persianSuffixes,
  "ها",
  "های",
  "هایی",
  "ای",
  "ایی",
  "ی",
  "ام",
  "ات",
  "اش",
  "تر",
  "ترین",
  "دار",
  "وار",
  "مند"
])

/** The fewest letters a part may have: "نخ" and "در" are words; one letter is not. */
const minPartLetters = 2
/** The fewest letters of each part of an English compound: "air", "ear"; shorter ones are mostly not words. */
const minEnglishPart = 3

const persian = /^[\u0600-\u06FF]+$/u
const letters = (word: string) => [...word].length
const telling = (part: string) => letters(part) >= minPartLetters && !boundParts.has(part) && !stopWords.has(part)

/** The part a Persian word keeps without a bound part that begins or ends compounds, if it has one. */
const persianParts = (word: string): ReadonlyArray<string> => {
  if (!persian.test(word)) return []
  const parts: Array<string> = []
  for (const prefix of persianPrefixes) {
    if (word.startsWith(prefix)) parts.push(word.slice(prefix.length))
  }
  const suffix = persianSuffixes.find((ending) => word.endsWith(ending) && letters(word) - letters(ending) >= 2)
  if (suffix !== undefined) parts.push(word.slice(0, -suffix.length))
  return parts.filter(telling)
}

/**
 * The two nouns an English word WordNet does not know is made of, the
 * longer head first tried ("keyring" is "key" and "ring"); none when WordNet
 * knows the word (its definition already says what it is) or no split makes
 * two nouns.
 */
const englishParts = (word: string): ReadonlyArray<string> => {
  if (!/^[a-z]+$/.test(word) || word.length < 2 * minEnglishPart || isNoun(word)) return []
  const singular = word.endsWith("s") ? word.slice(0, -1) : word
  if (isNoun(singular)) return []
  for (let at = minEnglishPart; at <= singular.length - minEnglishPart; at++) {
    const head = singular.slice(at)
    const modifier = singular.slice(0, at)
    if (isNoun(modifier) && isNoun(head) && !stopWords.has(modifier) && !stopWords.has(head)) return [modifier, head]
  }
  return []
}

/**
 * The parts of a word in normal form (see the module comment); none for a word that is not a compound.
 * Remembered: a catalog's titles repeat their words, and an English word is tried at every split.
 */
export const wordParts = boundedMemo(
  20_000,
  (word: string): ReadonlyArray<string> =>
    /\p{N}/u.test(word) ? [] : persian.test(word) ? persianParts(word) : englishParts(word)
)

/**
 * The parts of the words a text writes with a half-space, in normal form,
 * and the parts of each such part: "کیف‌پول" gives "کیف" and "پول", never
 * an ending ("کتاب‌ها" gives only "کتاب", which its stem already is).
 */
export const halfSpaceParts = (text: string): ReadonlyArray<string> => {
  // Without a half-space the text's words are all whole: nothing to split (most titles, read twice for nothing).
  if (!text.includes("\u200c")) return []
  const whole = new Set(wordsOf(text))
  const parts = wordsOf(text.replaceAll("\u200c", " ")).filter((part) => !whole.has(part) && telling(part))
  return [...new Set(parts.flatMap((part) => [part, ...wordParts(part)]))]
}
