/**
 * The search engine shared by product search and chunk retrieval, ranking the
 * way Meilisearch and Typesense do, on Postgres:
 *
 * 1. Each query word is expanded against the assistant's term dictionary
 *    (`search_terms`, kept by triggers from what is indexed): the word itself,
 *    words of the same stem ("kettles" → "kettle"), words within its typo
 *    budget (1 typo from 5 letters, 2 from 9, a transposition counts as one,
 *    never on a word with digits, never on the first letter), and for the last
 *    word every word it begins (search as you type).
 * 2. The caller fetches the documents holding any expanded term (GIN over
 *    `search_terms`, filters applied in the same query).
 * 3. `rankDocuments` orders them by bucketed ranking rules, in order: more
 *    query words matched (each word weighted by its inverse document
 *    frequency among the matches, BM25's idf, so a rare word outweighs a
 *    common one), fewer typos, words closer together, the better field
 *    (title, classification, attribute values, externalId), exactness (a
 *    whole word beats a stem or a prefix; fewer unmatched title words), and
 *    finally catalog order.
 * 4. `fuse` merges the keyword ranking with the meaning side's by weighted
 *    reciprocal rank (`semanticRatio`); the meaning side only adds.
 */
import type { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import { stem } from "./Stemmer"
import { wordsOf } from "./TextNormalization"

/** Words that say little on their own: they count for ranking only when the query has nothing else. */
export const stopWords: ReadonlySet<string> = new Set([
  // English
  "a", "an", "and", "are", "as", "at", "be", "but", "by", "can", "do", "does", "for", "from", "has", "have", "how",
  "i", "if", "in", "is", "it", "its", "me", "my", "no", "not", "of", "on", "or", "our", "so", "that", "the", "their",
  "there", "this", "to", "was", "we", "what", "when", "where", "which", "who", "why", "will", "with", "you", "your",
  // Persian (normalised forms)
  "از", "به", "با", "در", "را", "که", "و", "یا", "این", "آن", "اون", "است", "هست", "نیست", "بود", "شد", "می", "من",
  "تو", "ما", "شما", "او", "برای", "چه", "چی", "چرا", "کجا", "کی", "آیا", "هم", "نه", "تا", "اگر", "یک", "ها", "های"
])

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
 * Optimal string alignment distance (Damerau–Levenshtein where an adjacent
 * transposition is one edit), or `max + 1` once it is certainly above `max`.
 */
export const typoDistance = (a: string, b: string, max: number): number => {
  const s = [...a]
  const t = [...b]
  if (Math.abs(s.length - t.length) > max) return max + 1
  let before = new Array<number>(t.length + 1).fill(0)
  let previous = Array.from({ length: t.length + 1 }, (_, j) => j)
  for (let i = 1; i <= s.length; i++) {
    const current = new Array<number>(t.length + 1).fill(0)
    current[0] = i
    let rowMin = i
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1
      let value = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + cost)
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) value = Math.min(value, (before[j - 2] ?? 0) + 1)
      current[j] = value
      rowMin = Math.min(rowMin, value)
    }
    if (rowMin > max) return max + 1
    before = previous
    previous = current
  }
  return Math.min(previous[t.length] ?? max + 1, max + 1)
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

/** Expands each query word against the assistant's term dictionary (one round trip). */
export const expand = (sql: SqlClient.SqlClient, assistantId: string, words: ReadonlyArray<QueryWord>) =>
  Effect.gen(function*() {
    if (words.length === 0) return []
    const rows = yield* sql<{ readonly i: number; readonly term: string }>`
      SELECT q.i::int AS i, t.term
      FROM unnest(${words.map((w) => w.word)}::text[], ${words.map(anchorOf)}::text[], ${words.map(rootOf)}::text[],
                  ${words.map((w) => typoBudget(w.word))}::int[])
        WITH ORDINALITY AS q(word, anchor, root, budget, i)
      CROSS JOIN LATERAL (
        SELECT s.term FROM search_terms s
        WHERE s.assistant_id = ${assistantId}
          AND s.term ~>=~ q.anchor AND s.term ~<~ (q.anchor || ${top})
          AND (q.budget = 0 OR levenshtein_less_equal(s.term, q.word, q.budget + 1) <= q.budget + 1
               OR starts_with(s.term, q.word) OR starts_with(q.word, s.term)
               OR (starts_with(s.term, q.root) AND length(s.term) <= length(q.word) + 4))
        ORDER BY levenshtein_less_equal(s.term, q.word, 8), s.term
        LIMIT ${maxExpansions * 4}
      ) t`
    const expansion = words.map(() => new Map<string, TermMatch>())
    for (const row of rows) {
      const query = words[row.i - 1]
      const map = expansion[row.i - 1]
      if (query === undefined || map === undefined) continue
      if (map.size >= maxExpansions) continue
      const match = matchTerm(query, row.term)
      if (match !== null) map.set(row.term, match)
    }
    // A word the dictionary lacks may still be in a document written since (or a stop word).
    words.forEach((query, i) => {
      if (!expansion[i]?.has(query.word)) expansion[i]?.set(query.word, { typos: 0, exact: true })
    })
    return expansion
  })

/** Every term the expansion can match, for the candidates' `search_terms && $terms` lookup. */
export const expandedTerms = (expansion: Expansion): ReadonlyArray<string> => [
  ...new Set(expansion.flatMap((map) => [...map.keys()]))
]

/** A document as ranked: its words per field, best field first. */
export interface RankInput {
  readonly id: string
  readonly fields: ReadonlyArray<ReadonlyArray<string>>
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

const bestHit = (fields: ReadonlyArray<ReadonlyArray<string>>, terms: ReadonlyMap<string, TermMatch>): WordHit | null => {
  let best: WordHit | null = null
  fields.forEach((words, field) =>
    words.forEach((word, position) => {
      const match = terms.get(word)
      if (match === undefined) return
      const hit = { typos: match.typos, field, position, exact: match.exact }
      if (
        best === null || hit.typos < best.typos ||
        (hit.typos === best.typos && (hit.field < best.field || (hit.field === best.field && hit.exact && !best.exact)))
      ) best = hit
    })
  )
  return best
}

const compareKeys = (a: ReadonlyArray<number>, b: ReadonlyArray<number>): number => {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d !== 0) return d
  }
  return 0
}

/**
 * Orders documents by the ranking rules (see the module comment). Documents
 * matching no query word are dropped; ties keep the input order.
 */
export const rankDocuments = (
  words: ReadonlyArray<QueryWord>,
  expansion: Expansion,
  documents: ReadonlyArray<RankInput>
): ReadonlyArray<Ranked> => {
  const hits = documents.map((document) => expansion.map((terms) => bestHit(document.fields, terms)))
  // BM25's idf within the matched set: a word most matches have weighs little.
  const total = documents.length
  const idf = expansion.map((_, w) => {
    const df = hits.reduce((n, perWord) => n + (perWord[w] === null ? 0 : 1), 0)
    return Math.log(1 + (total - df + 0.5) / (df + 0.5))
  })
  const ranked = documents.flatMap((document, index): Array<Ranked & { readonly index: number }> => {
    const perWord = hits[index] ?? []
    if (perWord.every((hit) => hit === null)) return []
    let matched = 0
    let weight = 0
    let typos = 0
    let field = 0
    let exact = 0
    let proximity = 0
    let previous: WordHit | null = null
    perWord.forEach((hit, w) => {
      if (hit === null) return
      if (words[w]?.counts) matched++
      weight += idf[w] ?? 0
      typos += hit.typos
      field += hit.field
      if (hit.exact) exact++
      if (previous !== null) {
        proximity += previous.field !== hit.field
          ? maxProximity
          : Math.min(maxProximity, Math.abs(hit.position - previous.position) + (hit.position < previous.position ? 1 : 0))
      }
      previous = hit
    })
    const titleWords = document.fields[0] ?? []
    const titleMatched = new Set(perWord.flatMap((hit) => (hit !== null && hit.field === 0 ? [hit.position] : []))).size
    // Weights are rounded so that documents matching the same words tie and the next rule decides.
    const key = [-matched, -Math.round(weight * 1e6), typos, proximity, field, -exact, titleWords.length - titleMatched]
    return [{ id: document.id, key, matched, index }]
  })
  return ranked.sort((a, b) => compareKeys(a.key, b.key) || a.index - b.index).map(({ id, key, matched }) => ({ id, key, matched }))
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

/**
 * Merges the keyword ranking (documents with equal keys share a rank, so the
 * meaning side breaks their ties) with the meaning ranking (best first, with
 * cosine similarity) by weighted reciprocal rank: `ratio` 0 is keyword only,
 * 1 meaning only.
 */
export const fuse = (
  keyword: ReadonlyArray<Ranked>,
  meaning: ReadonlyArray<{ readonly id: string; readonly similarity: number }>,
  ratio: number
): ReadonlyArray<Fused> => {
  const scores = new Map<string, { score: number; order: number }>()
  const add = (id: string, score: number, order: number) => {
    const entry = scores.get(id)
    if (entry === undefined) scores.set(id, { score, order })
    else entry.score += score
  }
  let rank = 0
  keyword.forEach((result, i) => {
    const prior = keyword[i - 1]
    if (prior === undefined || compareKeys(prior.key, result.key) !== 0) rank = i
    add(result.id, (1 - ratio) / (rrfK + rank + 1), i)
  })
  const keywordIds = new Set(keyword.map((result) => result.id))
  const best = meaning[0]?.similarity ?? 0
  meaning.forEach((result, i) => {
    if (ratio === 0) return
    if (!keywordIds.has(result.id) && ratio < 1 && result.similarity < best * meaningCutoff) return
    add(result.id, ratio / (rrfK + i + 1), keyword.length + i)
  })
  const bestScore = 1 / (rrfK + 1)
  return [...scores.entries()]
    .sort((a, b) => b[1].score - a[1].score || a[1].order - b[1].order)
    .map(([id, { score }]) => ({ id, score: score / bestScore }))
}
