/**
 * A query as the engine reads it: its words in normal form, which of them
 * count, and how a dictionary term stands for a query word.
 */
import { boundedMemo } from "../Platform/Memo"
import { stem } from "./Stemmer"
import { particles, stopWords } from "./StopWords"
import { wordsOf } from "./TextNormalization"
import { dotsApart, nearLetters, persianSameSound, soundKey, typoBudget, typoCost } from "./Typos"

/** Query words beyond this are ignored (a pasted paragraph is not a search). */
const maxQueryWords = 12
/** The shortest last word that also matches as a prefix. */
const minPrefixLength = 2

export interface QueryWord {
  readonly word: string
  /** Counted by the "words matched" rule; stop words and particles are not unless the query has nothing else. */
  readonly counts: boolean
  /** The last word: also matches words it begins. */
  readonly prefix: boolean
  /**
   * Not typed by the searcher (a synonym's word, two query words joined): when it matches nothing it is not
   * looked for again with more typos (TermDictionary.ts), as a word someone may have mistyped is.
   */
  readonly alternative?: boolean
}

/** The query's words in normal form, deduplicated, in order. */
export const parseQuery = (query: string): ReadonlyArray<QueryWord> => {
  const words = [...new Set(wordsOf(query))].slice(0, maxQueryWords)
  const filler = (word: string) => stopWords.has(word) || particles.has(word)
  const allStop = words.every(filler)
  return words.map((word, i) => ({
    word,
    counts: allStop || !filler(word),
    prefix: i === words.length - 1 && [...word].length >= minPrefixLength
  }))
}

/** How a dictionary term matches a query word. */
export interface TermMatch {
  readonly typos: number
  /** The very word, not a stem, prefix or typo of it. */
  readonly exact: boolean
}

/** Per query word (same order as the parsed query): term → how it matches. */
export type Expansion = ReadonlyArray<ReadonlyMap<string, TermMatch>>

/**
 * Pairs of query word and term whose match is remembered: a search decides it for each of up to hundreds of
 * dictionary terms per word, and the words and terms of a shop's searches recur.
 */
const matchesKept = 100_000

/** `matchTermOnce` remembered; it reads nothing of the query word but the word and whether it is a prefix. */
const rememberedMatches = boundedMemo(matchesKept, (key) => {
  const [flags = "", word = "", term = ""] = key.split("\u0000")
  return matchTermOnce({ word, counts: true, prefix: flags === "p" }, term)
})

/** Decides whether a dictionary term stands for a query word, and how well. */
export const matchTerm = (query: QueryWord, term: string): TermMatch | null =>
  rememberedMatches(`${query.prefix ? "p" : "w"}\u0000${query.word}\u0000${term}`)

const matchTermOnce = (query: QueryWord, term: string): TermMatch | null => {
  if (term === query.word) return { typos: 0, exact: true }
  if (stem(term) === stem(query.word)) return { typos: 0, exact: false }
  // One word is the other's stem: "ببرها" is "ببر" (tigers), though "ببر" alone also reads as a verb.
  if (stem(query.word) === term || stem(term) === query.word) return { typos: 0, exact: false }
  if (query.prefix && term.startsWith(query.word)) return { typos: 0, exact: false }
  const budget = typoBudget(query.word)
  if (budget > 0 && [...term][0] === [...query.word][0]) {
    const cost = typoCost(term, query.word, budget)
    if (cost <= budget) return { typos: Math.ceil(cost), exact: false }
  }
  if (budget === 0 && shortWordTypo(query.word, term)) return { typos: 1, exact: false }
  if (spelledByEar(query.word, term)) return { typos: Math.max(1, budget), exact: false }
  if (persianEnding(query.word, term)) return { typos: 0, exact: false }
  const family = familyOf(query.word)
  return family !== null && stem(term) === family ? { typos: 1, exact: false } : null
}

/** Vowel letters: a wrong one is the commonest typo of a short word. */
const vowels = new Set([..."aeiouyاوی"])

/** Persian vowel letters: a writer who spells a short vowel out adds one ("کمود" for "کمد"). */
const persianVowels = new Set([..."اوی"])

/** Persian letters of one sound (see `persianSameSound`): one for another is a short word's typo too. */
const sameSound: ReadonlyArray<ReadonlySet<string>> = persianSameSound.map((letters) => new Set([...letters]))
const soundAlike = (a: string, b: string) =>
  (vowels.has(a) && vowels.has(b)) || sameSound.some((letters) => letters.has(a) && letters.has(b))

/**
 * Endings a Persian word takes that the stemmer keeps on short words, where
 * they may be part of the word: the ezafe or indefinite ی ("کفشی"), and the
 * colloquial plural ا ("کفشا"). A query word that is a dictionary term with
 * one of them is that term.
 */
const persianEndings = ["ی", "ای", "ا", "ایی"]
const persianEnding = (word: string, term: string): boolean =>
  [...term].length >= 3 && /^[\u0600-\u06FF]+$/u.test(word) && word.startsWith(term) &&
  persianEndings.includes(word.slice(term.length))

/** Whether a word too short for the typo budget may still take a short word's typo (see `shortWordTypo`). */
export const takesShortWordTypo = (word: string): boolean =>
  typoBudget(word) === 0 && [...word].length >= 3 && !/\p{N}/u.test(word)

/**
 * The typos a word of 3 or 4 letters (too short for the budget) may still
 * carry, as MiniSearch and Typesense forgive them: two neighbours swapped
 * ("lmap" is "lamp", "tpo" is "top") or a Persian letter missing or gaining
 * a dot ("تسک" is "تشک"); in 4 letters also a missing letter, a doubled one,
 * a Persian vowel letter spelt out, a wrong vowel, a Persian letter of the
 * same sound or a keyboard neighbour ("towl" is "towel", "lemp" is "lamp",
 * "کمود" is "کمد", "کنری" is "کتری"); never another wrong consonant ("cast"
 * is not "case") and never in the first letter.
 */
const shortWordTypo = (word: string, term: string): boolean => {
  if (!takesShortWordTypo(word)) return false
  const s = [...word]
  const t = [...term]
  if (s[0] !== t[0]) return false
  const without = (letters: ReadonlyArray<string>, i: number) =>
    [...letters.slice(0, i), ...letters.slice(i + 1)].join("")
  const differ = t.length === s.length ? s.flatMap((letter, i) => letter === t[i] ? [] : [i]) : []
  const [at, next] = differ
  if (differ.length === 2 && at !== undefined && next === at + 1) return s[at] === t[next] && s[next] === t[at]
  // Three letters leave too little to tell a word from another by anything but their order and dots.
  if (s.length < 4) return differ.length === 1 && at !== undefined && dotsApart(s[at] ?? "", t[at] ?? "")
  if (t.length === s.length + 1) return t.some((_, i) => i > 0 && without(t, i) === word)
  if (t.length === s.length - 1) {
    return s.some((letter, i) =>
      i > 0 && (letter === s[i - 1] || persianVowels.has(letter)) && without(s, i) === term
    )
  }
  return differ.length === 1 && at !== undefined &&
    (soundAlike(s[at] ?? "", t[at] ?? "") || nearLetters(s[at] ?? "", t[at] ?? ""))
}

/**
 * A word of 4 letters or more spelt by ear: it sounds as the term does
 * (`soundKey`, "jaket" and "jacket", "فیلطر" and "فیلتر"), from the same
 * first letter; it counts as the typos the word's budget allows, one at
 * least, so closer matches rank first.
 */
const spelledByEar = (word: string, term: string): boolean =>
  [...word].length >= 4 && !/\p{N}/u.test(word) && [...word][0] === [...term][0] && soundKey(word) === soundKey(term)

/**
 * The root a word's family shares when its stem ends in a letter the
 * family's other forms replace ("hoodies" → "hoody" → "hood", the stem of
 * "hooded" and "hoods"): the stem without its last letter, when at least 4
 * letters and no digit remain. A term of that stem matches as one typo, so
 * the word's own forms rank first.
 */
export const familyOf = (word: string): string | null => {
  if (/\p{N}/u.test(word)) return null
  const root = [...stem(word)]
  return root.length > 4 ? root.slice(0, -1).join("") : null
}

/** Every term the expansion can match, for the candidates' `search_terms && $terms` lookup. */
export const expandedTerms = (expansion: Expansion): ReadonlyArray<string> => [
  ...new Set(expansion.flatMap((map) => [...map.keys()]))
]
