/**
 * Expands query words against the assistant's term dictionary
 * (`search_terms`): the word itself, words of its stem, words within its
 * typo budget and, for the last word, the words it begins.
 */
import type { SqlClient, Statement } from "@effect/sql"
import * as Effect from "effect/Effect"
import { prepared } from "../Database/Database"
import { matchTerm, type QueryWord, takesShortWordTypo, type TermMatch } from "./Query"
import { stem } from "./Stemmer"
import { stopWords } from "./StopWords"
import { persianSameSound, slipsOf, typoBudget, typoCost, typoDistance } from "./Typos"

/** Expansions kept per query word, closest first. */
const maxExpansions = 64

/** The range of dictionary terms a query word can expand to: those sharing its first letters. */
const anchorOf = (query: QueryWord): string =>
  typoBudget(query.word) > 0 || takesShortWordTypo(query.word) ? [...query.word][0] ?? "" : stemAnchorOf(query.word)

/** What every word of a word's stem starts with: stems only drop endings, so the stem without its last letter. */
const stemAnchorOf = (word: string): string => {
  const root = [...stem(word)]
  return root.slice(0, Math.max(1, Math.min(root.length - 1, [...word].length - 1))).join("")
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

/** A dictionary read for one word: terms from `anchor` on, within `budget` typos, or of its `root`. */
interface TermRead {
  readonly word: string
  readonly anchor: string
  readonly root: string
  readonly budget: number
}

const readOf = (query: QueryWord, budget = typoBudget(query.word)): TermRead => ({
  word: query.word,
  anchor: anchorOf(query),
  root: rootOf(query),
  budget
})

/**
 * What a statement that reads more of an assistant's state brings beside the dictionary's first read in `expand`
 * (one round trip for both): `value`, one JSON value, read in the same statement and handed to `found`.
 */
export interface Besides {
  readonly value: Statement.Fragment
  readonly found: (value: unknown) => Effect.Effect<void>
}

/**
 * The dictionary's terms near each read's word (one round trip), as (read index from 1, term); with `besides`,
 * its value comes first, in a row of index 0 with no term.
 */
const readTerms = (
  sql: SqlClient.SqlClient,
  assistantId: string,
  reads: ReadonlyArray<TermRead>,
  besides?: Besides
) => {
  // Edit distance of term and query word, at most `limit` + 1; a word too long for levenshtein counts as far.
  // CASE, not AND: only CASE fixes the order in which Postgres evaluates the two.
  const distance = (limit: number) =>
    sql.literal(
      `(CASE WHEN length(s.term) <= ${maxLevenshteinChars} AND length(q.word) <= ${maxLevenshteinChars} ` +
        `THEN levenshtein_less_equal(s.term, q.word, ${limit}) ELSE ${limit + 1} END)`
    )
  const terms = sql<{ readonly i: number; readonly term: string }>`
      SELECT q.i::int AS i, t.term
      FROM unnest(${reads.map((r) => r.word)}::text[], ${reads.map((r) => r.anchor)}::text[],
                  ${reads.map((r) => r.root)}::text[], ${reads.map((r) => r.budget)}::int[])
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
  if (besides === undefined) return prepared(sql, terms)
  return prepared(
    sql,
    sql<{ readonly i: number; readonly term: string | null; readonly besides: unknown }>`
      SELECT 0 AS i, NULL::text AS term, ${besides.value} AS besides
      UNION ALL
      SELECT t.i, t.term, NULL::json FROM (${terms}) t`
  ).pipe(
    Effect.tap((rows) => besides.found(rows[0]?.i === 0 ? rows[0].besides : undefined)),
    Effect.map((rows) => rows.flatMap(({ i, term }) => i > 0 && term !== null ? [{ i, term }] : []))
  )
}

/**
 * Letters typed for one another at the start of a word, where the typo
 * budget never looks: by sound in English ("kamera", "fone") and in Persian
 * ("صاعت"), each set's letters for one another.
 */
const firstLetterSounds: ReadonlyArray<readonly [string, ReadonlyArray<string>]> = [
  ["c", ["k", "s"]],
  ["k", ["c", "q"]],
  ["q", ["k"]],
  ["s", ["c"]],
  ["f", ["ph"]],
  ["g", ["j"]],
  ["j", ["g"]],
  ["v", ["w"]],
  ["w", ["v"]],
  ["y", ["i"]],
  ["i", ["e", "y"]],
  ["e", ["i"]],
  ...persianSameSound.flatMap((set) =>
    [...set].map((letter): readonly [string, ReadonlyArray<string>] => [letter, [...set].filter((o) => o !== letter)])
  )
]

/**
 * The words a query word may have been meant as when it matches no term:
 * its first two letters swapped, its first letter dropped or typed by
 * sound, each then matched with its own typo budget, as one typo more.
 */
export const firstLetterVariants = (word: string): ReadonlyArray<string> => {
  const letters = [...word]
  const [first = "", second = ""] = letters
  const rest = letters.slice(1).join("")
  const variants = [`${second}${first}${letters.slice(2).join("")}`, rest]
  if (word.startsWith("ph")) variants.push(`f${letters.slice(2).join("")}`)
  for (const [letter, others] of firstLetterSounds) {
    if (letter === first) { for (const other of others) variants.push(`${other}${rest}`) }
  }
  return [...new Set(variants)].filter((variant) => variant !== word && [...variant].length >= 3)
}

/**
 * The words a query word may have been meant as with its first letter
 * slipped: a keyboard neighbour (`keysApart`, "oiano" for "piano") or, in
 * Persian, the letter of the same shape with other dots ("بتو" for "پتو").
 * Each must then be a term itself or of its stem, so the few that are keep
 * the candidate set small.
 */
export const firstLetterSlips = (word: string): ReadonlyArray<string> => {
  const [first = "", ...rest] = [...word]
  return slipsOf(first).map((letter) => `${letter}${rest.join("")}`)
}

/** Whether a word that matched nothing gets a second look (not a number, not a word of one or two letters). */
const looksAgain = (word: string) => [...word].length >= 3 && !/\p{N}/u.test(word)

/** The shortest word whose first-letter variants may carry a typo of their own; shorter ones must be terms. */
const minVariantLetters = 4

/** The shortest word the looser look gives a second typo (Typesense allows two from 7 letters). */
const minLooserLetters = 7

/**
 * Typos of the looser look: two in a word of 7 or 8 letters. Shorter words keep theirs: a second typo in
 * 5 or 6 letters, or any wrong consonant in 4 ("cast" for "case"), finds other words rather than the one meant.
 */
const looserBudget = 2

/**
 * Typos a first-letter variant may carry besides its first letter: one in a word with two to spare, else one
 * near letter (`typoCost`: a keyboard neighbour, a dot, a sound).
 */
const variantBudget = (word: string) => typoBudget(word) >= 2 ? 1 : 0.5

/**
 * Expands each query word against the assistant's term dictionary (one round trip; two when a word finds none),
 * its first read bringing `besides` along.
 */
export const expand = (
  sql: SqlClient.SqlClient,
  assistantId: string,
  words: ReadonlyArray<QueryWord>,
  besides?: Besides
) =>
  Effect.gen(function*() {
    if (words.length === 0) return []
    const rows = yield* readTerms(sql, assistantId, words.map((query) => readOf(query)), besides)
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
    yield* looserLook(sql, assistantId, words, expansion)
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

/**
 * A second look for the words that matched no term, as a naive trigram
 * ranking would still find them: a typo more than the budget
 * (`looserBudget`), a typo in the first letter (`firstLetterVariants`,
 * each matched as itself or its stem, or with one near letter more, or one
 * typo more in a word of 9 letters or more), and a first letter slipped
 * (`firstLetterSlips`, only as itself or its stem, as every variant of a
 * word of 3 letters). What it finds counts at least one typo, so it ranks
 * below every closer match. Words that matched anything never take it, nor
 * alternatives nobody typed (a query's two words joined, which most often
 * match nothing), and a search of known words never pays its round trip.
 */
const looserLook = (
  sql: SqlClient.SqlClient,
  assistantId: string,
  words: ReadonlyArray<QueryWord>,
  expansion: ReadonlyArray<Map<string, TermMatch>>
) =>
  Effect.gen(function*() {
    const missed = words.flatMap((query, i) =>
      expansion[i]?.size === 0 && query.alternative !== true && looksAgain(query.word) ? [i] : []
    )
    if (missed.length === 0) return
    // The looser look's reads: a second typo for the longer words, the first letter's typos for all.
    type Read = { readonly group: number; readonly query: QueryWord; readonly kind: "looser" | "variant" | "term" }
    const reads: Array<Read> = []
    for (const i of missed) {
      const query = words[i]
      if (query === undefined) continue
      const letters = [...query.word].length
      if (letters >= minLooserLetters && typoBudget(query.word) < 2) reads.push({ group: i, query, kind: "looser" })
      const seen = new Set<string>()
      const add = (variant: string, kind: Read["kind"]) => {
        if (seen.has(variant)) return
        seen.add(variant)
        reads.push({ group: i, query: { ...query, word: variant, prefix: false }, kind })
      }
      for (const variant of firstLetterVariants(query.word)) add(variant, letters >= minVariantLetters ? "variant" : "term")
      for (const variant of firstLetterSlips(query.word)) add(variant, "term")
    }
    const rows = yield* readTerms(
      sql,
      assistantId,
      reads.map(({ group, kind, query }) =>
        kind === "looser"
          ? readOf(query, looserBudget)
          : kind === "variant"
          ? readOf(query, Math.ceil(variantBudget(words[group]?.word ?? "")))
          // Only the variant itself or a word of its stem: the narrow range of its stem's first letters.
          : { word: query.word, anchor: stemAnchorOf(query.word), root: query.word, budget: 0 }
      )
    )
    for (const row of rows) {
      const read = reads[row.i - 1]
      const original = read === undefined ? undefined : words[read.group]
      const map = read === undefined ? undefined : expansion[read.group]
      if (read === undefined || original === undefined || map === undefined) continue
      if (map.size >= maxExpansions || map.has(row.term)) continue
      const term = [...row.term]
      if (read.kind === "looser") {
        const budget = looserBudget
        const typos = term[0] === [...read.query.word][0] ? typoDistance(row.term, read.query.word, budget) : budget + 1
        if (typos <= budget) map.set(row.term, { typos: Math.max(typos, 1), exact: false })
      } else if (row.term === read.query.word || stem(row.term) === stem(read.query.word)) {
        map.set(row.term, { typos: 1, exact: false })
      } else if (read.kind === "variant" && term[0] === [...read.query.word][0]) {
        if (typoCost(row.term, read.query.word, 1) <= variantBudget(original.word)) {
          map.set(row.term, { typos: 2, exact: false })
        }
      }
    }
  })

/**
 * The dictionary's terms that are each word itself or of its stem (no typo,
 * no prefix), per word, in one round trip: for words the query did not type,
 * which stand for nothing else.
 */
export const termsOfStems = (
  sql: SqlClient.SqlClient,
  assistantId: string,
  words: ReadonlyArray<string>,
  partsOf: ReadonlyArray<string> = []
) =>
  Effect.gen(function*() {
    const found = [...words, ...partsOf].map(() => new Set<string>())
    if (found.length === 0) return found
    const reads = [
      ...words.map((word) => ({ word, anchor: stemAnchorOf(word), root: word, budget: 0 })),
      // Every term from the word's first letters on: those it begins and those that begin it.
      ...partsOf.map((word) => ({
        word,
        anchor: [...word].slice(0, minPartLetters(word)).join(""),
        root: word,
        budget: 0
      }))
    ]
    for (const row of yield* readTerms(sql, assistantId, reads)) {
      const i = row.i - 1
      const word = i < words.length ? words[i] : partsOf[i - words.length]
      if (word === undefined) continue
      const kept = i < words.length ? row.term === word || stem(row.term) === stem(word) : isPartOf(word, row.term)
      if (kept) found[i]?.add(row.term)
    }
    return found
  })

/**
 * The fewest letters a word part has: 3 in Persian, whose words leave short vowels unwritten, 4 in other scripts
 * (an English word of 3 letters begins too many others: "ant", "antique").
 */
const minPartLetters = (word: string) => /^[\u0600-\u06FF]+$/u.test(word) ? 3 : 4

/** Letters a word may gain and still be the query word's part: an ending that makes a tool or a quality of it. */
const maxGainedLetters = 4

/**
 * Whether a dictionary term is part of a query word or the query word part of it, where neither is a form of the
 * other by the stemmer: the word begins the term, which is at most 4 letters longer (a tool named after what it
 * does, "blow" in "blower", or a quality of a thing, "پشم" in "پشمی"), or the term begins the word and 2 letters or
 * more are left (a verb or compound made of it: "برف" in "برفروبی", "door" in "doorstep"). Both have at least 3
 * letters in Persian and 4 in other scripts, and no digit.
 */
export const isPartOf = (word: string, term: string): boolean => {
  if (term === word || stopWords.has(term) || /\p{N}/u.test(word) || /\p{N}/u.test(term)) return false
  const w = [...word].length
  const t = [...term].length
  const least = minPartLetters(word)
  if (w < least || t < least) return false
  if (term.startsWith(word)) return t <= w + maxGainedLetters
  return word.startsWith(term) && w - t >= 2
}
