/**
 * Ranking metrics of the search relevance evaluation, over graded judgments
 * (3 = exactly what was asked, 1 = acceptable; anything unjudged counts 0).
 */

/** Judged items of one query: item → grade. */
export type Judgments = Readonly<Record<string, number>>

const gain = (grade: number): number => 2 ** grade - 1
const discount = (rank: number): number => 1 / Math.log2(rank + 2)

const dcg = (grades: ReadonlyArray<number>, k: number): number =>
  grades.slice(0, k).reduce((sum, grade, rank) => sum + gain(grade) * discount(rank), 0)

/**
 * nDCG@k with exponential gains (2^g − 1) and a log2 discount; the ideal
 * ranking is built from every judgment, so relevant items the system never
 * returned still lower the score. A query without relevant items scores 1.
 */
export const ndcgAt = (k: number, ranked: ReadonlyArray<string>, judgments: Judgments): number => {
  const ideal = dcg(Object.values(judgments).filter((grade) => grade > 0).sort((a, b) => b - a), k)
  if (ideal === 0) return 1
  return dcg(ranked.map((item) => judgments[item] ?? 0), k) / ideal
}

/** Share of all relevant items (grade > 0) found in the first k results. */
export const recallAt = (k: number, ranked: ReadonlyArray<string>, judgments: Judgments): number => {
  const relevant = Object.keys(judgments).filter((item) => (judgments[item] ?? 0) > 0)
  if (relevant.length === 0) return 1
  const top = new Set(ranked.slice(0, k))
  return relevant.filter((item) => top.has(item)).length / relevant.length
}

/**
 * Share of the first k results that are relevant (grade > 0), over what was returned rather than over k: results
 * appended after the relevant ones leave nDCG and recall as they were, but lower this. A page with nothing on it
 * shows nothing relevant and scores 0.
 */
export const precisionAt = (k: number, ranked: ReadonlyArray<string>, judgments: Judgments): number => {
  const page = ranked.slice(0, k)
  if (page.length === 0) return 0
  return page.filter((item) => (judgments[item] ?? 0) > 0).length / page.length
}

export const mean = (values: ReadonlyArray<number>): number =>
  values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length
