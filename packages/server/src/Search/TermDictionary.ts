/**
 * Expands query words against the assistant's term dictionary
 * (`search_terms`): the word itself, words of its stem, words within its
 * typo budget and, for the last word, the words it begins.
 */
import type { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import { prepared } from "../Database/Database"
import { matchTerm, type QueryWord, takesShortWordTypo, type TermMatch } from "./Query"
import { stem } from "./Stemmer"
import { typoBudget } from "./Typos"

/** Expansions kept per query word, closest first. */
const maxExpansions = 64

/** The range of dictionary terms a query word can expand to: those sharing its first letters. */
const anchorOf = (query: QueryWord): string => {
  const letters = [...query.word]
  if (typoBudget(query.word) > 0 || takesShortWordTypo(query.word)) return letters[0] ?? ""
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
