/**
 * A second look for meaning without a provider: a product query none of
 * whose words names a product in its title or classification ("footwear
 * for the gym") is read
 * again with what WordNet says its English words may stand for
 * (`meaningsOf`: synonyms, kinds, derived words, of each word and of two
 * neighbouring words WordNet knows as one). Each is kept only where the
 * shop's own dictionary holds it, by its stem (never a typo or a prefix), or
 * where a product's related terms do (the two words then share a WordNet
 * neighbour): the catalog picks the sense, and a word no sense of which the
 * shop sells adds nothing. Each counted query word also finds the products
 * whose description holds it (CatalogAssociations.ts). What it finds counts
 * as one typo, below every match of the query's own words.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import * as Cache from "effect/Cache"
import * as Effect from "effect/Effect"
import { describedTermsOf } from "./CatalogAssociations"
import { expansionTtl } from "./ExpansionCache"
import { type Expansion, matchTerm, type QueryWord, type TermMatch } from "./Query"
import { relatedTerm } from "./RelatedTerms"
import { stopWords } from "./StopWords"
import type { Alternative } from "./SynonymRules"
import { termsOfStems } from "./TermDictionary"
import { isLemma, meaningsOf } from "./WordNet"

/** Alternative words added to one query at most: each is a read of the dictionary. */
const maxMeanings = 48

/** How a word found through what a query word may stand for matches: as one typo, never as the word. */
const meaningMatch: TermMatch = { typos: 1, exact: false }

/** A word that says what the query is about: counted, and not a stop word. */
const content = (word: QueryWord | undefined): word is QueryWord =>
  word !== undefined && word.counts && !stopWords.has(word.word)

/** What the query's counted words (and pairs of them WordNet knows as one) may stand for, per query word. */
export const meaningAlternatives = (words: ReadonlyArray<QueryWord>): ReadonlyArray<Alternative> => {
  const found: Array<Alternative> = []
  const seen = new Set(words.map(({ word }) => word))
  const add = (group: number, meanings: ReadonlyArray<string>) => {
    for (const word of meanings) {
      if (found.length >= maxMeanings || seen.has(word)) continue
      seen.add(word)
      found.push({ group, word })
    }
  }
  // A pair first: "rocking chair" is one thing, more than "rocking" and "chair".
  words.slice(1).forEach((next, i) => {
    const first = words[i]
    const lemma = `${first?.word ?? ""}_${next.word}`
    if (content(first) && content(next) && isLemma(lemma, true)) add(i, meaningsOf(lemma))
  })
  words.forEach((word, group) => {
    if (content(word)) add(group, meaningsOf(word.word))
  })
  return found
}

/** Per query word: whether no keyword match names it, and whether it looks for descriptions. */
export interface Unnamed {
  readonly unnamed: ReadonlyArray<boolean>
  readonly described: ReadonlyArray<boolean>
}

/**
 * Which query words no keyword match names by its title or classification,
 * and which look for descriptions: those, and a word named only through
 * a typo the second look of the dictionary guessed, no term within its own
 * budget ("crying" named as "drying" when a description says "crying"). A
 * word named through an ordinary typo ("leathr") is what it seems, so a
 * misspelt search of known words never pays the dictionary read.
 */
export const unnamedWords = (
  words: ReadonlyArray<QueryWord>,
  expansion: Expansion,
  ranked: ReadonlyArray<{ readonly names: number; readonly spelt: number }>
): Unnamed => {
  const names = ranked.reduce((bits, match) => bits | match.names, 0)
  const spelt = ranked.reduce((bits, match) => bits | match.spelt, 0)
  const guessed = (w: number) => {
    const query = words[w]
    return query !== undefined &&
      ![...(expansion[w]?.keys() ?? [])].some((term) => term !== query.word && matchTerm(query, term) !== null)
  }
  return {
    unnamed: words.map((_, w) => (names & (1 << w)) === 0),
    described: words.map((_, w) => (names & (1 << w)) === 0 || ((spelt & (1 << w)) === 0 && guessed(w)))
  }
}

/** Alternatives' terms kept at most, over all assistants, each list for `expansionTtl` as query words' are. */
const capacity = 1_000

/** What a cached read depends on: the assistant, the alternative words and the described terms, in order. */
const keyOf = (assistantId: string, words: ReadonlyArray<string>, described: ReadonlyArray<string>) =>
  [assistantId, String(words.length), ...words, ...described].join("\u0000")

/**
 * The second look: `expansion` with the described term of each content
 * word that some product's description holds, and the words the query's
 * words may stand for that the assistant's dictionary holds, with their
 * related terms; or null when it adds nothing. A query looked at again
 * within the TTL reuses the dictionary's answer.
 */
export const makeMeaningLook = (sql: SqlClient.SqlClient) =>
  Effect.map(
    Cache.make({
      capacity,
      timeToLive: expansionTtl,
      lookup: (key: string) => {
        const [assistantId = "", count = "0", ...rest] = key.split("\u0000")
        const n = Number(count)
        return termsOfStems(sql, assistantId, rest.slice(0, n), rest.slice(n))
      }
    }),
    (stems) =>
    (
      assistantId: string,
      words: ReadonlyArray<QueryWord>,
      expansion: Expansion,
      /**
       * Per query word, whether no product names it (by any match), and whether none names it without a typo:
       * only the latter find descriptions.
       */
      named: Unnamed
    ): Effect.Effect<Expansion | null, SqlError.SqlError> => {
      // WordNet's words only when the query names nothing at all: beside a word the shop sells by name, the senses
      // of the others ("make", "white" for "chips") bring more noise than the shop's own descriptions.
      const alternatives = named.unnamed.every((u, w) => u || !content(words[w])) ? meaningAlternatives(words) : []
      const described = words.map((word, w) =>
        content(word) && named.described[w] === true ? describedTermsOf(word.word) : []
      )
      const asked = [...new Set(described.flat())]
      if (alternatives.length === 0 && asked.length === 0) return Effect.succeed(null)
      const key = keyOf(assistantId, alternatives.map(({ word }) => word), asked)
      // A failed read is not kept: the next search reads again.
      const read = stems.get(key).pipe(Effect.tapError(() => stems.invalidate(key)))
      return Effect.map(read, ({ found, held }) => {
        let added = false
        const merged = expansion.map((terms, group) => {
          const wider = new Map<string, TermMatch>(terms)
          for (const term of described[group] ?? []) {
            if (!held.has(term)) continue
            wider.set(term, meaningMatch)
            added = true
          }
          return wider
        })
        alternatives.forEach(({ group, word }, i) => {
          const target = merged[group]
          if (target === undefined) return
          for (const term of [...(found[i] ?? []), relatedTerm(word)]) {
            if (!target.has(term)) target.set(term, meaningMatch)
          }
          added = true
        })
        return added ? merged : null
      })
    }
  )
