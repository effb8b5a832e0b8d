/**
 * A second look for meaning without a provider: a product query none of
 * whose words names a product in its title or classification ("footwear
 * for the gym") is read again with what its words stand on and are made of
 * (a colloquial word's base, "کیفم" is "کیف"; a compound's parts,
 * `wordParts`: "کتابچه" stands for "کتاب") and with what WordNet says its
 * English words may stand for (`meaningsOf`: synonyms, kinds, derived words,
 * of each word and of two neighbouring words WordNet knows as one), and
 * for the shop's words each is part of or made of (`partialWords`). Beside a
 * word some product names, the words no product names are read with their
 * bases and parts and for those words only. Each is kept only where the shop's own dictionary
 * holds it, by its stem (never a typo or a prefix), or where a product's
 * related terms do (the two words then share a WordNet neighbour): the
 * catalog picks the sense, and a word no sense of which the shop sells adds
 * nothing. What it finds counts as one typo, below every match of the
 * query's own words.
 */
import type { SqlClient, SqlError } from "@effect/sql"
import * as Cache from "effect/Cache"
import * as Effect from "effect/Effect"
import { expansionTtl } from "./ExpansionCache"
import type { Expansion, QueryWord, TermMatch } from "./Query"
import { relatedTerm } from "./RelatedTerms"
import { colloquialBases } from "./Stemmer"
import { stopWords } from "./StopWords"
import type { Alternative } from "./SynonymRules"
import { termsOfStems } from "./TermDictionary"
import { isLemma, meaningsOf } from "./WordNet"
import { wordParts } from "./WordParts"

/** Alternative words added to one query at most: each is a read of the dictionary. */
const maxMeanings = 48

/** How a word found through what a query word may stand for matches: as one typo, never as the word. */
const meaningMatch: TermMatch = { typos: 1, exact: false }

/**
 * What a word is read as before anything else: what a colloquial word stands on ("کیفم" is "کیف"), and the parts
 * of it and of those (WordParts.ts). They say what the word itself says, so they are read even beside a word the
 * shop names.
 */
const formsOf = (word: string): ReadonlyArray<string> => {
  const bases = colloquialBases(word)
  return [...bases, ...[word, ...bases].flatMap(wordParts)]
}

/**
 * What the query's counted words (and pairs of them WordNet knows as one) may stand for, per query word: a word's
 * colloquial bases and own parts first, then WordNet's meanings. With `only`, the bases and parts of the words it
 * marks, nothing of WordNet: beside a word the shop names, the senses of the others bring more noise than meaning.
 */
export const meaningAlternatives = (
  words: ReadonlyArray<QueryWord>,
  only?: ReadonlyArray<boolean>
): ReadonlyArray<Alternative> => {
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
  if (only !== undefined) {
    words.forEach((word, group) => {
      if (content(word) && only[group] === true) add(group, formsOf(word.word))
    })
    return found
  }
  // A pair first: "rocking chair" is one thing, more than "rocking" and "chair".
  words.slice(1).forEach((next, i) => {
    const first = words[i]
    const lemma = `${first?.word ?? ""}_${next.word}`
    if (content(first) && content(next) && isLemma(lemma, true)) add(i, meaningsOf(lemma))
  })
  words.forEach((word, group) => {
    if (content(word)) add(group, [...formsOf(word.word), ...meaningsOf(word.word)])
  })
  return found
}

/**
 * The query words read for the dictionary's terms they are part of or made of (TermDictionary.ts, `isPartOf`:
 * "blow" for "blower", "برفروبی" for "برف"), per query word: the counted words `meaningAlternatives` reads, each
 * once, beside a word the shop names only the words `only` marks.
 */
export const partialWords = (
  words: ReadonlyArray<QueryWord>,
  only?: ReadonlyArray<boolean>
): ReadonlyArray<Alternative> =>
  words.flatMap((word, group) =>
    word.counts && !stopWords.has(word.word) && (only === undefined || only[group] === true)
      ? [{ group, word: word.word }]
      : []
  )

/** Alternatives' terms kept at most, over all assistants, each list for `expansionTtl` as query words' are. */
const capacity = 1_000

/** What a cached read depends on: the assistant, the alternative words and the partial ones, in order. */
const keyOf = (assistantId: string, words: ReadonlyArray<string>, partial: ReadonlyArray<string>) =>
  [assistantId, String(words.length), ...words, ...partial].join("\u0000")

/**
 * The second look: `expansion` with the words the query's words may stand
 * for that the assistant's dictionary holds, and their related terms, or
 * null when there are none (`meaningAlternatives`; with `unnamed`, the words
 * no product names beside some it does). A query looked at again within the
 * TTL reuses the dictionary's answer.
 */
export const makeMeaningLook = (sql: SqlClient.SqlClient) =>
  Effect.map(
    Cache.make({
      capacity,
      timeToLive: expansionTtl,
      lookup: (key: string) => {
        const [assistantId = "", count = "0", ...words] = key.split("\u0000")
        return termsOfStems(sql, assistantId, words.slice(0, Number(count)), words.slice(Number(count)))
      }
    }),
    (stems) =>
    (
      assistantId: string,
      words: ReadonlyArray<QueryWord>,
      expansion: Expansion,
      unnamed?: ReadonlyArray<boolean>
    ): Effect.Effect<Expansion | null, SqlError.SqlError> => {
      const alternatives = meaningAlternatives(words, unnamed)
      const partial = partialWords(words, unnamed)
      if (alternatives.length === 0 && partial.length === 0) return Effect.succeed(null)
      const key = keyOf(assistantId, alternatives.map(({ word }) => word), partial.map(({ word }) => word))
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
        partial.forEach(({ group }, i) => {
          const target = merged[group]
          if (target === undefined) return
          for (const term of found[alternatives.length + i] ?? []) {
            if (!target.has(term)) target.set(term, meaningMatch)
          }
        })
        return merged
      })
    }
  )
