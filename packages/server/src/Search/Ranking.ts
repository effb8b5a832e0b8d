/**
 * The ranking rules (see SearchEngine.ts): documents holding expanded query
 * terms, ordered by bucketed keys compared rule by rule.
 */
import type { Expansion, QueryWord, TermMatch } from "./Query"

/** Cross-field or far-apart words count as this far (Meilisearch's cap). */
const maxProximity = 8

/**
 * How much a word's idf weighs by the field it matched in (title,
 * classification, attribute values, externalId, related terms), as BM25F
 * weighs fields: a colour in an attribute says less of what a product is
 * than a product type in its title, so the kettles of other colours rank
 * above a red blender for a red kettle, where a rarer attribute word alone
 * would have won.
 */
const fieldWeights = [1, 0.8, 0.6, 0.6, 0.4]
const classificationField = 1
const attributeField = 2
/** The hidden field of related terms: a match there says a word is related, not that it is held again. */
const relatedField = 4

/**
 * A word's field weight: its best field's, and the classification's on top
 * when it is in the title too. A word in both the title and the category
 * names what the product is (the type of "bosch kettle"), where a brand or
 * a colour is in the title and an attribute: such a word weighs as an
 * attribute value, since it says what the product is like, so the kettles
 * of other brands rank above the brand's toaster even when no category
 * names them.
 */
const fieldWeightOf = (
  found: { readonly best: WordHit; readonly classified: boolean; readonly attributed: boolean }
) => {
  const field = found.best.field === 0 && found.attributed && !found.classified ? attributeField : found.best.field
  return (fieldWeights[field] ?? 0.4) +
    (found.best.field === 0 && found.classified ? fieldWeights[classificationField] ?? 0 : 0)
}

/**
 * A document as ranked: its fields, best first, one line each ("\n"
 * between fields, a single space between words; "" is a field without words).
 */
export interface RankInput {
  readonly id: string
  readonly fields: string
}

/** Where and how a query word matched a document. */
interface WordHit {
  readonly typos: number
  readonly field: number
  readonly position: number
  readonly exact: boolean
}

export interface Ranked {
  readonly id: string
  /** The bucket keys, compared in order (lower is better). */
  readonly key: ReadonlyArray<number>
  /** Query words matched, counting ones; used by the relevance cut-off. */
  readonly matched: number
  /** Whether a counted query word matched in the title or the classification: the document names it. */
  readonly named: boolean
  /** The counted query words the document names, a bit each (query word `w` is bit `w`). */
  readonly names: number
}

/** The query words a term stands for, and how. */
type TermIndex = ReadonlyMap<string, ReadonlyArray<{ readonly word: number; readonly match: TermMatch }>>

/** A document's hits per query word (in field and word order), and the number of words of its first field. */
interface Scanned {
  readonly hits: ReadonlyArray<Array<WordHit> | undefined>
  readonly titleWords: number
}

const space = 32
const newline = 10
const tilde = 126
/** Offsets the second code unit of a related term in `firsts`, above every first code unit. */
const tildeSecond = 0x10000

/**
 * One pass over a document's fields: each word is looked up among the
 * expansion's terms, and only a word whose first code unit begins some term
 * is cut out of the text to look up (most are not: splitting every field of
 * 2,000 candidates into arrays of words was most of a search's CPU).
 */
const scan = (text: string, terms: TermIndex, firsts: ReadonlySet<number>, words: number): Scanned => {
  const hits: Array<Array<WordHit> | undefined> = new Array(words)
  let field = 0
  let position = 0
  let start = 0
  let titleWords = 0
  for (let i = 0; i <= text.length; i++) {
    const c = i === text.length ? newline : text.charCodeAt(i)
    if (c !== space && c !== newline) continue
    const first = text.charCodeAt(start)
    // Each related term starts with "~": its second code unit says more (the hidden field is all "~" words).
    if (i > start && firsts.has(first) && (first !== tilde || firsts.has(text.charCodeAt(start + 1) + tildeSecond))) {
      const found = terms.get(text.slice(start, i))
      if (found !== undefined) {
        for (const { match, word } of found) {
          const hit = { typos: match.typos, field, position, exact: match.exact }
          const list = hits[word]
          if (list === undefined) hits[word] = [hit]
          else list.push(hit)
        }
      }
    }
    // As `split`: an empty field has no words; a space always ends one (an empty one between two spaces).
    if (field === 0 && (i > 0 || c === space)) titleWords = position + 1
    if (c === newline) {
      field++
      position = 0
    } else position++
    start = i + 1
  }
  return { hits, titleWords }
}

/**
 * A query word's best hit in a document, in how many searched fields it occurs (a word in title and category says
 * more; the hidden field of related terms does not count),
 * and whether any hit is in the title or classification (it names the document, even when a closer hit is in a
 * weaker field).
 */
const bestHits = (
  hits: ReadonlyArray<WordHit> | undefined
): {
  readonly best: WordHit
  readonly fields: number
  readonly classified: boolean
  readonly attributed: boolean
  readonly naming: boolean
} | null => {
  if (hits === undefined) return null
  let best: WordHit | null = null
  let inFields = 0
  let lastField = -1
  let classified = false
  let attributed = false
  let naming = false
  for (const hit of hits) {
    if (hit.field <= classificationField) naming = true
    if (hit.field !== lastField) {
      if (hit.field < relatedField) inFields++
      lastField = hit.field
    }
    if (hit.field === classificationField) classified = true
    if (hit.field === attributeField && hit.typos === 0) attributed = true
    if (
      best === null || hit.typos < best.typos ||
      (hit.typos === best.typos && (hit.field < best.field || (hit.field === best.field && hit.exact && !best.exact)))
    ) best = hit
  }
  return best === null ? null : { best, fields: inFields, classified, attributed, naming }
}

/** Compares two bucket keys on their first `depth` rules (all by default). */
export const compareKeys = (a: ReadonlyArray<number>, b: ReadonlyArray<number>, depth = Infinity): number => {
  for (let i = 0; i < Math.min(depth, Math.max(a.length, b.length)); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d !== 0) return d
  }
  return 0
}

/**
 * The most documents of a collection a word may be held by and still count
 * as a query word: one held by more than half of them is a stop word of the
 * collection (the ranking, and the keyword read's tiers, see HybridSearch.ts).
 */
export const commonWordLimit = (collectionSize: number): number => Math.floor(collectionSize / 2)

/**
 * Orders documents by the ranking rules (see the module comment). Documents
 * matching no query word are dropped; ties keep the input order.
 */
export const rankDocuments = (
  words: ReadonlyArray<QueryWord>,
  expansion: Expansion,
  documents: ReadonlyArray<RankInput>,
  /** Documents of the assistant (of its catalog), for idf; at least the documents given. */
  collectionSize: number,
  /** Per query word, documents known to hold it beyond those given (a sample's count), for idf. */
  frequencyFloors: ReadonlyArray<number> = []
): ReadonlyArray<Ranked> => {
  const terms = new Map<string, Array<{ readonly word: number; readonly match: TermMatch }>>()
  const firsts = new Set<number>()
  expansion.forEach((map, word) => {
    for (const [term, match] of map) {
      // An empty term would stand for no word of a field.
      if (term === "") continue
      const entries = terms.get(term)
      if (entries === undefined) terms.set(term, [{ word, match }])
      else entries.push({ word, match })
      firsts.add(term.charCodeAt(0))
      if (term.charCodeAt(0) === tilde) firsts.add(term.charCodeAt(1) + tildeSecond)
    }
  })
  const scanned = documents.map((document) => scan(document.fields, terms, firsts, expansion.length))
  const hits = scanned.map(({ hits: perWord }) => expansion.map((_, w) => bestHits(perWord[w])))
  // BM25's idf within the assistant's documents: a word most of them have weighs little.
  const total = Math.max(collectionSize, documents.length)
  const frequencies = expansion.map((_, w) =>
    Math.max(frequencyFloors[w] ?? 0, hits.reduce((n, perWord) => n + (perWord[w] === null ? 0 : 1), 0))
  )
  const idf = frequencies.map((df) => Math.log(1 + (total - df + 0.5) / (df + 0.5)))
  // A word more than half the documents hold is a stop word of this collection, unless all are.
  const common = frequencies.map((df) => df > commonWordLimit(total))
  const counts = words.map((word, w) => word.counts && !common[w])
  const counted = counts.some((c) => c) ? counts : words.map((word) => word.counts)
  const ranked = documents.flatMap((document, index): Array<Ranked & { readonly index: number }> => {
    const perWord = hits[index] ?? []
    if (perWord.every((hit) => hit === null)) return []
    let matched = 0
    let weight = 0
    let typos = 0
    let field = 0
    let coverage = 0
    let position = 0
    let exact = 0
    let proximity = 0
    let previous: WordHit | null = null
    perWord.forEach((found, w) => {
      if (found === null) return
      const hit = found.best
      if (counted[w]) matched++
      weight += (idf[w] ?? 0) * fieldWeightOf(found)
      typos += hit.typos
      field += hit.field
      coverage += found.fields
      position += Math.min(hit.position, maxProximity)
      if (hit.exact) exact++
      if (previous !== null) {
        proximity += previous.field !== hit.field
          ? maxProximity
          : Math.min(
            maxProximity,
            Math.abs(hit.position - previous.position) + (hit.position < previous.position ? 1 : 0)
          )
      }
      previous = hit
    })
    const titleWords = scanned[index]?.titleWords ?? 0
    // Title words matched, each once (two query words may match the same title word).
    let titleMatched = 0
    perWord.forEach((found, w) => {
      if (found === null || found.best.field !== 0) return
      const position = found.best.position
      if (
        !perWord.some((other, v) =>
          v < w && other !== null && other.best.field === 0 && other.best.position === position
        )
      ) {
        titleMatched++
      }
    })
    // Weights are rounded so that documents matching the same words tie and the next rule decides.
    const key = [
      -matched,
      -Math.round(weight * 1e6),
      typos,
      proximity,
      field,
      -coverage,
      -exact,
      position,
      titleWords - titleMatched
    ]
    const names = perWord.reduce(
      (bits, found, w) => found !== null && counted[w] === true && found.naming ? bits | (1 << w) : bits,
      0
    )
    return [{ id: document.id, key, matched, named: names !== 0, names, index }]
  })
  return ranked.sort((a, b) => compareKeys(a.key, b.key) || a.index - b.index).map((
    { id, key, matched, named, names }
  ) => ({ id, key, matched, named, names }))
}
