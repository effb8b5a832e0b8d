/**
 * How much of a question a chunk covers: each subject word of the question
 * (ChunkQuery.ts) is matched by the chunk as itself, as another written form
 * of it, as a related word of the shop vocabulary, as a paraphrase, or not at
 * all, and the matches are averaged, a word held by more than half the
 * assistant's chunks earning half its match (held as itself or another form
 * where the chunk holds it so; in any way where the chunk holds only a related
 * word or a paraphrase). A chunk holding more of the question's distinct
 * words covers more of it; a word most chunks hold says less, though still
 * something (a heading repeated in each chunk of its page), and a question of
 * such words never covers a chunk fully: meaning decides.
 */

/**
 * What a question word's match is worth: the word itself, another written form, a related word of the shop
 * vocabulary, a paraphrase (a wording that may mean it, "move" for "relocate").
 */
export const matchWeights = { word: 1, form: 0.9, related: 0.6, paraphrase: 0.5 } as const

/** What matching a word held by more than half the assistant's chunks earns, of its match. */
export const commonWordCredit = 0.5

/** The dictionary terms standing for one question word, by how they stand for it. */
export interface WordTerms {
  readonly counts: boolean
  readonly word: ReadonlySet<string>
  readonly form: ReadonlySet<string>
  readonly related: ReadonlySet<string>
  readonly paraphrase: ReadonlySet<string>
}

/** A chunk's match of each question word, in [0, 1]. */
const matchesOf = (words: ReadonlyArray<WordTerms>, chunkWords: ReadonlySet<string>): ReadonlyArray<number> =>
  words.map((terms) => {
    const holds = (set: ReadonlySet<string>) => {
      for (const term of set) if (chunkWords.has(term)) return true
      return false
    }
    return holds(terms.word)
      ? matchWeights.word
      : holds(terms.form)
      ? matchWeights.form
      : holds(terms.related)
      ? matchWeights.related
      : holds(terms.paraphrase)
      ? matchWeights.paraphrase
      : 0
  })

/**
 * Each chunk's share of the question, in [0, 1], by id. `chunks` are the
 * candidates (each holding some term); `collectionSize` counts all the
 * assistant's chunks.
 */
export const coverage = (
  words: ReadonlyArray<WordTerms>,
  chunks: ReadonlyArray<{ readonly id: string; readonly searchText: string }>,
  collectionSize: number
): ReadonlyMap<string, number> => {
  const matches = chunks.map((chunk) => matchesOf(words, new Set(chunk.searchText.split(/[ \n]+/))))
  // A word most chunks hold (a page's heading, repeated in each of its chunks) earns a chunk half its match. A
  // chunk holding the word itself or another form of it is judged by how many chunks hold that: a word is no
  // commoner for having synonyms in many chunks. A chunk holding only a related word or a paraphrase is judged by
  // how many chunks match the word in any way, so a synonym found everywhere says as little as before.
  const half = Math.floor(Math.max(collectionSize, chunks.length) / 2)
  const creditAbove = (least: number) =>
    words.map((_, w) => {
      const df = matches.reduce((n, perWord) => n + ((perWord[w] ?? 0) >= least ? 1 : 0), 0)
      return df > half ? commonWordCredit : 1
    })
  const asWritten = creditAbove(matchWeights.form)
  const inAnyWay = creditAbove(matchWeights.paraphrase)
  const counted = words.filter((terms) => terms.counts).length
  return new Map(chunks.map((chunk, i) => {
    const perWord = matches[i] ?? []
    const covered = words.reduce((sum, terms, w) => {
      const match = perWord[w] ?? 0
      const credit = (match >= matchWeights.form ? asWritten[w] : inAnyWay[w]) ?? 1
      return sum + (terms.counts ? credit * match : 0)
    }, 0)
    return [chunk.id, counted === 0 ? 0 : covered / counted]
  }))
}
