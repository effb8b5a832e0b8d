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
 * shop sells adds nothing. What it finds counts as one typo, below every
 * match of the query's own words.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import * as Cache from "effect/Cache"
import * as Effect from "effect/Effect"
import { expansionTtl } from "./ExpansionCache"
import type { Expansion, QueryWord, TermMatch } from "./Query"
import { relatedTerm } from "./RelatedTerms"
import { stopWords } from "./StopWords"
import type { Alternative } from "./SynonymRules"
import { termsOfStems } from "./TermDictionary"
import { isLemma, meaningsOf } from "./WordNet"

/** Alternative words added to one query at most: each is a read of the dictionary. */
const maxMeanings = 48

/** How a word found through what a query word may stand for matches: as one typo, never as the word. */
const meaningMatch: TermMatch = { typos: 1, exact: false }

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
  const content = (word: QueryWord | undefined): word is QueryWord =>
    word !== undefined && word.counts && !stopWords.has(word.word)
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

/** Alternatives' terms kept at most, over all assistants, each list for `expansionTtl` as query words' are. */
const capacity = 1_000

/** What a cached read depends on: the assistant and the alternative words, in order. */
const keyOf = (assistantId: string, words: ReadonlyArray<string>) => [assistantId, ...words].join("\u0000")

/**
 * The second look: `expansion` with the words the query's words may stand
 * for that the assistant's dictionary holds, and their related terms, or
 * null when WordNet offers none. A query looked at again within the TTL
 * reuses the dictionary's answer.
 */
export const makeMeaningLook = (sql: SqlClient.SqlClient) =>
  Effect.map(
    Cache.make({
      capacity,
      timeToLive: expansionTtl,
      lookup: (key: string) => {
        const [assistantId = "", ...words] = key.split("\u0000")
        return termsOfStems(sql, assistantId, words)
      }
    }),
    (stems) =>
    (
      assistantId: string,
      words: ReadonlyArray<QueryWord>,
      expansion: Expansion
    ): Effect.Effect<Expansion | null, SqlError.SqlError> => {
      const alternatives = meaningAlternatives(words)
      if (alternatives.length === 0) return Effect.succeed(null)
      const key = keyOf(assistantId, alternatives.map(({ word }) => word))
      // A failed read is not kept: the next search reads again.
      const read = stems.get(key).pipe(Effect.tapError(() => stems.invalidate(key)))
      return Effect.map(read, (found) => {
        const merged = expansion.map((terms) => new Map<string, TermMatch>(terms))
        alternatives.forEach(({ group, word }, i) => {
          const target = merged[group]
          if (target === undefined) return
          for (const term of [...(found[i] ?? []), relatedTerm(word)]) {
            if (!target.has(term)) target.set(term, meaningMatch)
          }
        })
        return merged
      })
    }
  )
