/**
 * The search engine shared by product search and chunk retrieval, ranking the
 * way Meilisearch and Typesense do, on Postgres:
 *
 * 1. Each query word is expanded against the assistant's term dictionary
 *    (`search_terms`, filled from what is indexed: by a trigger for products,
 *    once per document by the ingest for chunks): the word itself,
 *    words of the same stem ("kettles" → "kettle"), words within its typo
 *    budget (Damerau–Levenshtein: 1 typo from 5 letters, 2 from 9, a transposition counts as one,
 *    never on a word with digits, never on the first letter), and for the last
 *    word every word it begins (search as you type).
 * 2. The caller fetches the documents holding the expanded terms (a GIN
 *    index, filters applied in the same query): any of them, or first those
 *    holding every counted word (they rank above all others, see HybridSearch.ts).
 * 3. `rankDocuments` orders them by bucketed ranking rules, in order: more
 *    query words matched (each word weighted by its inverse document
 *    frequency among the matches, BM25's idf, so a rare word outweighs a
 *    common one; a word more than half the documents hold counts as a stop
 *    word), fewer typos, words closer together, the better field (title,
 *    classification, attribute values, externalId; then matched in more
 *    fields), exactness (a whole word beats a stem or a prefix), then earlier
 *    in the field, fewer unmatched title words, and finally catalog order.
 * 4. `fuse` merges the keyword ranking with the meaning side's by weighted
 *    reciprocal rank (`semanticRatio`); the meaning side only adds.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import { prepared } from "../Database/Database"
import { stem } from "./Stemmer"
import { stopWords } from "./StopWords"
import { wordsOf } from "./TextNormalization"

export { stopWords } from "./StopWords"

/** Query words beyond this are ignored (a pasted paragraph is not a search). */
const maxQueryWords = 12
/** Expansions kept per query word, closest first. */
const maxExpansions = 64
/** The shortest last word that also matches as a prefix. */
const minPrefixLength = 2
/** Cross-field or far-apart words count as this far (Meilisearch's cap). */
const maxProximity = 8

/** Typos allowed in a query word: 1 from 5 letters, 2 from 9, none in a word with digits. */
export const typoBudget = (word: string): number => {
  if (/\p{N}/u.test(word)) return 0
  const letters = [...word].length
  return letters >= 9 ? 2 : letters >= 5 ? 1 : 0
}

/**
 * Damerau–Levenshtein distance (an adjacent transposition is one edit, and
 * edits may overlap it: Lowrance–Wagner), or `max + 1` once it is above `max`.
 */
export const typoDistance = (a: string, b: string, max: number): number => {
  const s = [...a]
  const t = [...b]
  if (Math.abs(s.length - t.length) > max) return max + 1
  const infinity = s.length + t.length
  const width = t.length + 2
  const d = new Array<number>((s.length + 2) * width).fill(0)
  const at = (i: number, j: number) => i * width + j
  d[at(0, 0)] = infinity
  for (let i = 0; i <= s.length; i++) {
    d[at(i + 1, 0)] = infinity
    d[at(i + 1, 1)] = i
  }
  for (let j = 0; j <= t.length; j++) {
    d[at(0, j + 1)] = infinity
    d[at(1, j + 1)] = j
  }
  const lastRow = new Map<string, number>()
  for (let i = 1; i <= s.length; i++) {
    let lastColumn = 0
    for (let j = 1; j <= t.length; j++) {
      const k = lastRow.get(t[j - 1] ?? "") ?? 0
      const l = lastColumn
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      if (cost === 0) lastColumn = j
      d[at(i + 1, j + 1)] = Math.min(
        (d[at(i, j)] ?? 0) + cost,
        (d[at(i + 1, j)] ?? 0) + 1,
        (d[at(i, j + 1)] ?? 0) + 1,
        (d[at(k, l)] ?? 0) + (i - k - 1) + 1 + (j - l - 1)
      )
    }
    lastRow.set(s[i - 1] ?? "", i)
  }
  return Math.min(d[at(s.length + 1, t.length + 1)] ?? max + 1, max + 1)
}

export interface QueryWord {
  readonly word: string
  /** Counted by the "words matched" rule; stop words are not unless the query has nothing else. */
  readonly counts: boolean
  /** The last word: also matches words it begins. */
  readonly prefix: boolean
}

/** The query's words in normal form, deduplicated, in order. */
export const parseQuery = (query: string): ReadonlyArray<QueryWord> => {
  const words = [...new Set(wordsOf(query))].slice(0, maxQueryWords)
  const allStop = words.every((word) => stopWords.has(word))
  return words.map((word, i) => ({
    word,
    counts: allStop || !stopWords.has(word),
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

/** Decides whether a dictionary term stands for a query word, and how well. */
export const matchTerm = (query: QueryWord, term: string): TermMatch | null => {
  if (term === query.word) return { typos: 0, exact: true }
  if (stem(term) === stem(query.word)) return { typos: 0, exact: false }
  if (query.prefix && term.startsWith(query.word)) return { typos: 0, exact: false }
  const budget = typoBudget(query.word)
  if (budget === 0 || [...term][0] !== [...query.word][0]) return null
  const typos = typoDistance(term, query.word, budget)
  return typos <= budget ? { typos, exact: false } : null
}

/** The range of dictionary terms a query word can expand to: those sharing its first letters. */
const anchorOf = (query: QueryWord): string => {
  const letters = [...query.word]
  if (typoBudget(query.word) > 0) return letters[0] ?? ""
  // Stems only drop endings: the stem without its last letter starts every word of that stem.
  const root = [...stem(query.word)]
  return root.slice(0, Math.max(1, Math.min(root.length - 1, letters.length - 1))).join("")
}

/** What every word of the query word's stem starts with ("batteri" for "battery" and "batteries"). */
const rootOf = (query: QueryWord): string => {
  const root = [...stem(query.word)]
  return root.length > 3 ? root.slice(0, -1).join("") : query.word
}

/** The highest code point: `anchor || top` bounds every term starting with `anchor` in byte order. */
const top = String.fromCodePoint(0x10FFFF)

/** fuzzystrmatch refuses words over this many characters (an error, not a large distance). */
const maxLevenshteinChars = 255

/** Expands each query word against the assistant's term dictionary (one round trip). */
export const expand = (sql: SqlClient.SqlClient, assistantId: string, words: ReadonlyArray<QueryWord>) =>
  Effect.gen(function*() {
    if (words.length === 0) return []
    // Edit distance of term and query word, at most `limit` + 1; a word too long for levenshtein counts as far.
    // CASE, not AND: only CASE fixes the order in which Postgres evaluates the two.
    const distance = (limit: number) =>
      sql.literal(
        `(CASE WHEN length(s.term) <= ${maxLevenshteinChars} AND length(q.word) <= ${maxLevenshteinChars} ` +
          `THEN levenshtein_less_equal(s.term, q.word, ${limit}) ELSE ${limit + 1} END)`
      )
    const rows = yield* prepared(
      sql,
      sql<{ readonly i: number; readonly term: string }>`
      SELECT q.i::int AS i, t.term
      FROM unnest(${words.map((w) => w.word)}::text[], ${words.map(anchorOf)}::text[], ${words.map(rootOf)}::text[],
                  ${words.map((w) => typoBudget(w.word))}::int[])
        WITH ORDINALITY AS q(word, anchor, root, budget, i)
      CROSS JOIN LATERAL (
        SELECT s.term FROM search_terms s
        WHERE s.assistant_id = ${assistantId}
          AND s.term ~>=~ q.anchor AND s.term ~<~ (q.anchor || ${top})
          AND (q.budget = 0 OR ${distance(8)} <= 2 * q.budget + 2
               OR starts_with(s.term, q.word) OR starts_with(q.word, s.term)
               OR (starts_with(s.term, q.root) AND length(s.term) <= length(q.word) + 4))
        ORDER BY ${distance(8)}, s.term
        LIMIT ${maxExpansions * 4}
      ) t`
    )
    const expansion = words.map(() => new Map<string, TermMatch>())
    const unmatched: Array<{ readonly i: number; readonly term: string }> = []
    for (const row of rows) {
      const query = words[row.i - 1]
      const map = expansion[row.i - 1]
      if (query === undefined || map === undefined) continue
      if (map.size >= maxExpansions) continue
      const match = matchTerm(query, row.term)
      if (match !== null) map.set(row.term, match)
      else unmatched.push(row)
    }
    // Inflections of a corrected word count with its typos ("mriror" → "mirror", so also "mirrors").
    for (const row of unmatched) {
      const map = expansion[row.i - 1]
      if (map === undefined || map.size >= maxExpansions) continue
      const root = stem(row.term)
      for (const [term, match] of map) {
        if (match.typos > 0 && stem(term) === root) {
          map.set(row.term, { typos: match.typos, exact: false })
          break
        }
      }
    }
    // A word the dictionary lacks may still be in a document written since (or a stop word).
    words.forEach((query, i) => {
      if (!expansion[i]?.has(query.word)) expansion[i]?.set(query.word, { typos: 0, exact: true })
    })
    return expansion
  })

/** How long a word's expansion is reused at most (see `expansionCache`). */
export const expansionTtlMs = 5_000

/** Reuses query words' expansions (see `expansionCache`). */
export interface ExpansionCache {
  /** As `expand`, reading only the words not expanded in the last `expansionTtlMs` (none: no round trip). */
  readonly expand: (
    sql: SqlClient.SqlClient,
    assistantId: string,
    words: ReadonlyArray<QueryWord>
  ) => Effect.Effect<Expansion, SqlError.SqlError>
  /** Forgets every expansion; called once this instance has committed new terms. */
  readonly invalidate: Effect.Effect<void>
}

/**
 * Expansions of query words per assistant, for `expansionTtlMs`. A word's
 * expansion depends on nothing but the word (and whether it is the last one)
 * and the assistant's dictionary, which only grows: a cached expansion lacks
 * only terms added since. Terms this instance adds forget the cache at once
 * (`invalidate`, after the commit; an expansion read before it is not kept);
 * terms another instance adds are reached by typos, prefixes and other forms
 * within the TTL, and by the word itself at once (a query word always
 * matches itself). Saves the dictionary's round trip for words searched
 * again.
 */
export const expansionCache = (): ExpansionCache => {
  const entries = new Map<
    string,
    { readonly terms: ReadonlyMap<string, TermMatch>; readonly at: number; readonly generation: number }
  >()
  let generation = 0
  const keyOf = (assistantId: string, word: QueryWord) => `${assistantId} ${word.prefix ? "p" : "w"} ${word.word}`
  return {
    invalidate: Effect.sync(() => {
      generation++
      entries.clear()
    }),
    expand: (sql, assistantId, words) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const cached = words.map((word) => {
          const entry = entries.get(keyOf(assistantId, word))
          return entry !== undefined && entry.generation === generation && now - entry.at < expansionTtlMs
            ? entry.terms
            : undefined
        })
        const missing = words.filter((_, i) => cached[i] === undefined)
        if (missing.length === 0) return cached.flatMap((terms) => terms === undefined ? [] : [terms])
        const readAt = generation
        const read = yield* expand(sql, assistantId, missing)
        if (readAt === generation) {
          if (entries.size > 10_000) entries.clear()
          missing.forEach((word, i) => {
            const terms = read[i]
            if (terms !== undefined) entries.set(keyOf(assistantId, word), { terms, at: now, generation })
          })
        }
        let next = 0
        return cached.map((terms) => terms ?? read[next++] ?? new Map<string, TermMatch>())
      })
  }
}

/** Every term the expansion can match, for the candidates' `search_terms && $terms` lookup. */
export const expandedTerms = (expansion: Expansion): ReadonlyArray<string> => [
  ...new Set(expansion.flatMap((map) => [...map.keys()]))
]

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
    if (i > start && firsts.has(text.charCodeAt(start))) {
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

/** A query word's best hit in a document, and in how many fields it occurs (a word in title and category says more). */
const bestHits = (
  hits: ReadonlyArray<WordHit> | undefined
): { readonly best: WordHit; readonly fields: number } | null => {
  if (hits === undefined) return null
  let best: WordHit | null = null
  let inFields = 0
  let lastField = -1
  for (const hit of hits) {
    if (hit.field !== lastField) {
      inFields++
      lastField = hit.field
    }
    if (
      best === null || hit.typos < best.typos ||
      (hit.typos === best.typos && (hit.field < best.field || (hit.field === best.field && hit.exact && !best.exact)))
    ) best = hit
  }
  return best === null ? null : { best, fields: inFields }
}

/** Compares two bucket keys on their first `depth` rules (all by default). */
const compareKeys = (a: ReadonlyArray<number>, b: ReadonlyArray<number>, depth = Infinity): number => {
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
      weight += idf[w] ?? 0
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
    return [{ id: document.id, key, matched, index }]
  })
  return ranked.sort((a, b) => compareKeys(a.key, b.key) || a.index - b.index).map(({ id, key, matched }) => ({
    id,
    key,
    matched
  }))
}

/** How long a collection's size (idf's document count) is fresh: a weight needs no exact count. */
const sizeTtlMs = 10_000

/**
 * Collection sizes per assistant. A stale size is answered at once and
 * counted again in the background (a count over 100k rows is tens of ms a
 * search should not wait for); only the first search of an assistant waits.
 */
export const sizeCache = <E, R>(load: (assistantId: string) => Effect.Effect<number, E, R>) => {
  const sizes = new Map<string, { readonly size: number; readonly at: number }>()
  const refreshing = new Set<string>()
  const loadAndKeep = (assistantId: string) =>
    load(assistantId).pipe(Effect.tap((size) =>
      Effect.sync(() => {
        if (sizes.size > 10_000) sizes.clear()
        sizes.set(assistantId, { size, at: Date.now() })
      })
    ))
  return {
    get: (assistantId: string) => {
      const cached = sizes.get(assistantId)
      if (cached === undefined) return loadAndKeep(assistantId)
      if (Date.now() - cached.at < sizeTtlMs || refreshing.has(assistantId)) return Effect.succeed(cached.size)
      refreshing.add(assistantId)
      return loadAndKeep(assistantId).pipe(
        Effect.ignore,
        Effect.ensuring(Effect.sync(() => refreshing.delete(assistantId))),
        Effect.forkDaemon,
        Effect.as(cached.size)
      )
    }
  }
}

/** Reciprocal rank fusion's constant: higher flattens the advantage of the first ranks. */
export const rrfK = 60

/**
 * Meaning-only results (no query word matched) are kept only while their
 * similarity is at least this share of the best meaning result's: the long
 * tail of unrelated products (a toaster for "kettle") does not pad results.
 * Keyword matches are never cut.
 */
export const meaningCutoff = 0.85

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
  keywordSimilarity?: ReadonlyMap<string, number>
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
  meaning.forEach((result, i) => {
    if (ratio === 0) return
    const score = ratio / (rrfK + i + 1)
    const entry = entries.get(result.id)
    if (entry !== undefined) {
      if (keywordSimilarity === undefined) entry.score += score
    } else if (ratio === 1 || result.similarity >= best * meaningCutoff) {
      entries.set(result.id, { score, bucket: ratio === 1 ? 0 : Number.POSITIVE_INFINITY, order: keyword.length + i })
    }
  })
  const bestScore = 1 / (rrfK + 1)
  return [...entries.entries()]
    .sort((a, b) => a[1].bucket - b[1].bucket || b[1].score - a[1].score || a[1].order - b[1].order)
    .map(([id, { score }]) => ({ id, score: score / bestScore }))
}
