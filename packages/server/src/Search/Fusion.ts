/**
 * Fusion of the keyword ranking with the meaning side's by weighted
 * reciprocal rank (`semanticRatio`); the meaning side only adds.
 */
import { compareKeys, type Ranked } from "./Ranking"

/** Reciprocal rank fusion's constant: higher flattens the advantage of the first ranks. */
export const rrfK = 60

/**
 * Meaning-only results (no query word matched) are kept only while their
 * similarity is at least this share of the best meaning result's: the long
 * tail of unrelated products (a toaster for "kettle") does not pad results.
 * Keyword matches are never cut.
 */
export const meaningCutoff = 0.85

/**
 * Meaning-only results kept at most when no query word matched anything
 * (below `semanticRatio` 1): the meaning side then answers alone, and a
 * query with no close word (a misspelling too far from every term) should
 * get a few guesses, not the whole catalog in no useful order. It holds for
 * any embedder, since it counts results rather than trusting a similarity.
 * The offline embedder keeps none (`meaningOnlyWithoutWords` 0): its
 * vectors hash words and letters, which the keyword side, with its typos
 * and second look, has already searched; a guess from them is noise.
 */
export const maxMeaningOnlyWithoutWords = 3

export interface Fused {
  readonly id: string
  /** In (0, 1]: 1 for the best possible result. */
  readonly score: number
}

/** Keyword rules the meaning side cannot overturn below `semanticRatio` ½: words (idf), typos, proximity, field. */
const strongRules = 6

/**
 * Merges the keyword ranking with the meaning ranking (best first, with
 * cosine similarity). Keyword matches stay in the buckets of the strong
 * keyword rules (below a ratio of one half: words with their idf weights,
 * typos, proximity and field; from one half: the number of query words
 * matched only), so the meaning side never demotes a better keyword match.
 * Within a bucket the order is by weighted reciprocal rank (`ratio` 0 keyword
 * only, 1 meaning only; documents with equal keyword keys share a rank, so
 * meaning breaks their ties), and meaning-only documents follow every keyword
 * match. At `ratio` 1 the meaning ranking alone decides.
 *
 * With `keywordSimilarity` (each keyword match's own similarity to the query),
 * a keyword match's meaning rank is its rank by similarity among the matches
 * of its bucket, not its place in `meaning` (which then only brings the
 * meaning-only documents): the order of a bucket then depends on its members
 * alone, whichever other documents were read, so pages of any size agree.
 */
export const fuse = (
  keyword: ReadonlyArray<Ranked>,
  meaning: ReadonlyArray<{ readonly id: string; readonly similarity: number }>,
  ratio: number,
  keywordSimilarity?: ReadonlyMap<string, number>,
  meaningOnlyWithoutWords: number = maxMeaningOnlyWithoutWords
): ReadonlyArray<Fused> => {
  const entries = new Map<string, { score: number; bucket: number; order: number }>()
  let rank = 0
  let bucket = 0
  keyword.forEach((result, i) => {
    const prior = keyword[i - 1]
    if (prior === undefined || compareKeys(prior.key, result.key) !== 0) rank = i
    const depth = ratio < 0.5 ? strongRules : 1
    if (prior !== undefined && compareKeys(prior.key, result.key, depth) !== 0) bucket++
    entries.set(result.id, { score: (1 - ratio) / (rrfK + rank + 1), bucket: ratio === 1 ? 0 : bucket, order: i })
  })
  if (keywordSimilarity !== undefined && ratio > 0) {
    const buckets = new Map<number, Array<{ readonly id: string; readonly similarity: number }>>()
    for (const [id, entry] of entries) {
      const similarity = keywordSimilarity.get(id)
      if (similarity === undefined) continue
      const members = buckets.get(entry.bucket)
      if (members === undefined) buckets.set(entry.bucket, [{ id, similarity }])
      else members.push({ id, similarity })
    }
    for (const members of buckets.values()) {
      // A stable sort: equal similarities keep the keyword order.
      members.sort((a, b) => b.similarity - a.similarity).forEach(({ id }, i) => {
        const entry = entries.get(id)
        if (entry !== undefined) entry.score += ratio / (rrfK + i + 1)
      })
    }
  }
  const best = meaning[0]?.similarity ?? 0
  let meaningOnly = 0
  const meaningOnlyCap = keyword.length === 0 && ratio < 1 ? meaningOnlyWithoutWords : Number.POSITIVE_INFINITY
  meaning.forEach((result, i) => {
    if (ratio === 0) return
    const score = ratio / (rrfK + i + 1)
    const entry = entries.get(result.id)
    if (entry !== undefined) {
      if (keywordSimilarity === undefined) entry.score += score
    } else if ((ratio === 1 || result.similarity >= best * meaningCutoff) && meaningOnly < meaningOnlyCap) {
      meaningOnly++
      entries.set(result.id, { score, bucket: ratio === 1 ? 0 : Number.POSITIVE_INFINITY, order: keyword.length + i })
    }
  })
  const bestScore = 1 / (rrfK + 1)
  return [...entries.entries()]
    .sort((a, b) => a[1].bucket - b[1].bucket || b[1].score - a[1].score || a[1].order - b[1].order)
    .map(([id, { score }]) => ({ id, score: score / bestScore }))
}
