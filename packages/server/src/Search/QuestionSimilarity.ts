/**
 * How alike two short questions are, by keyword and by meaning, after the
 * same normalisation as search: the words' stems without stop words
 * (keyword side, Dice overlap) and the embedder's vectors (meaning side,
 * cosine). Curated answers match with it; the report groups with it.
 */
import { stopWords } from "./SearchEngine"
import { stem } from "./Stemmer"
import { wordsOf } from "./TextNormalization"

export interface QuestionKey {
  /** Distinct stems of the question's words, stop words left out (all kept when all are stop words). */
  readonly terms: ReadonlyArray<string>
  /** The embedder's vector, unit length. */
  readonly vector: ReadonlyArray<number>
}

/** Weight of the meaning side; the keyword side has the rest. */
export const meaningWeight = 0.35

/**
 * A question matches a curated answer's variant at this score or above.
 * High on purpose: a wrong curated answer is served without a model to
 * soften it, so a rewording must share most of its words or its meaning.
 */
export const curatedThreshold = 0.62

/** Unanswered questions join a group at this score or above; looser than curated, the report is read by people. */
export const groupThreshold = 0.45

/**
 * Words that only make a sentence a question ("is it possible", "do you have"): beside search's stop words,
 * they would make two questions about different things look alike.
 */
const questionFillers: ReadonlySet<string> = new Set(wordsOf([
  "possible available offer please tell know want need get any there",
  "دارید میکنید می‌کنید هست است کنید دارم میخواهم می‌خواهم لطفا آیا چطور چگونه"
].join(" ")))

export const questionTerms = (text: string): ReadonlyArray<string> => {
  const words = wordsOf(text).filter((word) => word.length > 1)
  const meaningful = words.filter((word) => !stopWords.has(word) && !questionFillers.has(word))
  return [...new Set((meaningful.length > 0 ? meaningful : words).map(stem))]
}

/** Two stems are the same term when equal or one extends the other ("ship" and "shipp"), from 3 letters on. */
const sameTerm = (a: string, b: string): boolean =>
  a === b || (Math.min(a.length, b.length) >= 3 && (a.startsWith(b) || b.startsWith(a)))

/** Share of `a`'s terms that `b` has. */
const coverage = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number =>
  a.filter((term) => b.some((other) => sameTerm(term, other))).length / a.length

/**
 * Keyword overlap in [0, 1]: the smaller of the two coverages, so a question
 * that adds or drops a weighty word ("Kish" for "Shiraz") scores low either way.
 */
export const termOverlap = (a: ReadonlyArray<string>, b: ReadonlyArray<string>): number =>
  a.length === 0 || b.length === 0 ? 0 : Math.min(coverage(a, b), coverage(b, a))

/** Cosine of two unit vectors (0 when their lengths differ: two embedders' spaces never compare). */
export const cosine = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number => {
  if (a.length !== b.length) return 0
  let dot = 0
  for (let i = 0; i < a.length; i++) dot += (a[i] ?? 0) * (b[i] ?? 0)
  return Math.max(0, Math.min(1, dot))
}

/** The weighted sum of both sides, in [0, 1]. */
export const similarity = (a: QuestionKey, b: QuestionKey): number =>
  meaningWeight * cosine(a.vector, b.vector) + (1 - meaningWeight) * termOverlap(a.terms, b.terms)
