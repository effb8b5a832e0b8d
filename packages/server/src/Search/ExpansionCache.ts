/**
 * Expansions of query words per assistant, reused for `expansionTtl`. A
 * word's expansion depends on nothing but the word (and whether it is the
 * last one) and the assistant's dictionary, which only grows: a cached
 * expansion lacks only terms added since. Terms this instance adds forget
 * the cache at once (`invalidate`, after the commit; an expansion read
 * before it is not kept); terms another instance adds are reached by typos,
 * prefixes and other forms within the TTL, and by the word itself at once (a
 * query word always matches itself). Saves the dictionary's round trip for
 * words searched again.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { makeExpiringMap } from "../Platform/ExpiringMap"
import type { Expansion, QueryWord, TermMatch } from "./Query"
import { expand } from "./TermDictionary"

/** How long a word's expansion is reused at most. */
export const expansionTtl = Duration.seconds(5)

/** Words kept at most, over all assistants. */
const capacity = 10_000

/** Reuses query words' expansions. */
export interface ExpansionCache {
  /** As `expand`, reading only the words not expanded within the TTL (none: no round trip). */
  readonly expand: (
    assistantId: string,
    words: ReadonlyArray<QueryWord>
  ) => Effect.Effect<Expansion, SqlError.SqlError>
  /** Forgets every expansion; called once this instance has committed new terms. */
  readonly invalidate: Effect.Effect<void>
}

/** What an expansion depends on besides the dictionary. */
const keyOf = (assistantId: string, word: QueryWord) =>
  `${assistantId}\u0000${word.prefix ? 1 : 0}${word.alternative === true ? 1 : 0}\u0000${word.word}`

export const makeExpansionCache: Effect.Effect<ExpansionCache, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Not Effect's `Cache`: expansions are set again after every expiry and `invalidate` (see `ExpiringMap`).
  const cache = makeExpiringMap<ReadonlyMap<string, TermMatch>>(capacity, Duration.toMillis(expansionTtl))
  // Bumped by `invalidate`: a read that began before it is not kept.
  let generation = 0
  return {
    invalidate: Effect.sync(() => {
      generation++
      cache.clear()
    }),
    expand: (assistantId, words) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const cached = words.map((word) => Option.fromNullable(cache.get(keyOf(assistantId, word), now)))
        const missing = words.filter((_, i) => Option.isNone(cached[i] ?? Option.none()))
        if (missing.length === 0) return cached.flatMap((terms) => Option.toArray(terms))
        const readAt = generation
        // One round trip for every missing word, rather than the cache's lookup of one word at a time.
        const read = yield* expand(sql, assistantId, missing)
        if (readAt === generation) {
          missing.forEach((word, i) => {
            const terms = read[i]
            if (terms !== undefined) cache.set(keyOf(assistantId, word), terms, now)
          })
        }
        let next = 0
        return cached.map((terms) => Option.getOrElse(terms, () => read[next++] ?? new Map<string, TermMatch>()))
      })
  }
})
