/**
 * Expansions of query words per assistant, reused for `expansionTtl`. A
 * word's expansion depends on nothing but the word (and whether it is the
 * last one) and the assistant's dictionary, which only grows: a cached
 * expansion lacks only terms added since. Terms this instance adds forget
 * that assistant's expansions at once (`invalidate`, after the commit; an
 * expansion read before it is not kept), and only that assistant's: one
 * shop's import does not empty every other shop's cache batch after batch.
 * Terms another instance adds are reached by typos, prefixes and other forms
 * within the TTL, and by the word itself at once (a query word always
 * matches itself). Saves the dictionary's round trip for words searched again.
 */
import { SqlClient, type SqlError } from "@effect/sql"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { makeExpiringMap } from "../Platform/ExpiringMap"
import type { Expansion, QueryWord, TermMatch } from "./Query"
import { type Besides, expand } from "./TermDictionary"

/** How long a word's expansion is reused at most. */
export const expansionTtl = Duration.seconds(5)

/** Words kept at most, over all assistants. */
const capacity = 10_000

/** Reuses query words' expansions. */
export interface ExpansionCache {
  /**
   * As `expand`, reading only the words not expanded within the TTL (none: no round trip, and `besides` is
   * not read: `found` is not called).
   */
  readonly expand: (
    assistantId: string,
    words: ReadonlyArray<QueryWord>,
    besides?: Besides
  ) => Effect.Effect<Expansion, SqlError.SqlError>
  /** Forgets the assistants' expansions; called once this instance has committed new terms of theirs. */
  readonly invalidate: (assistantIds: ReadonlyArray<string>) => Effect.Effect<void>
}

/** What an expansion depends on besides the dictionary, and the assistant's generation (see `invalidate`). */
const keyOf = (assistantId: string, generation: number, word: QueryWord) =>
  `${assistantId}\u0000${generation}\u0000${word.prefix ? 1 : 0}${word.alternative === true ? 1 : 0}\u0000${word.word}`

export const makeExpansionCache: Effect.Effect<ExpansionCache, never, SqlClient.SqlClient> = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // Not Effect's `Cache`: expansions are set again after every expiry and `invalidate` (see `ExpiringMap`).
  const cache = makeExpiringMap<ReadonlyMap<string, TermMatch>>(capacity, Duration.toMillis(expansionTtl))
  // An assistant's generation, bumped by `invalidate`: its older entries are no longer read (they go when the map
  // starts over or are read as expired), and a read that began before is not kept. Assistants not bumped since the
  // last start-over share `floor`, which is above every generation handed out before it.
  const generations = new Map<string, number>()
  let bumps = 0
  let floor = 0
  const generationOf = (assistantId: string) => generations.get(assistantId) ?? floor
  return {
    invalidate: (assistantIds) =>
      Effect.sync(() => {
        if (generations.size + assistantIds.length > capacity) {
          generations.clear()
          cache.clear()
          floor = ++bumps
        }
        for (const assistantId of assistantIds) generations.set(assistantId, ++bumps)
      }),
    expand: (assistantId, words, besides) =>
      Effect.gen(function*() {
        const now = yield* Clock.currentTimeMillis
        const readAt = generationOf(assistantId)
        const cached = words.map((word) => Option.fromNullable(cache.get(keyOf(assistantId, readAt, word), now)))
        const missing = words.filter((_, i) => Option.isNone(cached[i] ?? Option.none()))
        if (missing.length === 0) return cached.flatMap((terms) => Option.toArray(terms))
        // One round trip for every missing word, rather than the cache's lookup of one word at a time.
        const read = yield* expand(sql, assistantId, missing, besides)
        if (readAt === generationOf(assistantId)) {
          missing.forEach((word, i) => {
            const terms = read[i]
            if (terms !== undefined) cache.set(keyOf(assistantId, readAt, word), terms, now)
          })
        }
        let next = 0
        return cached.map((terms) => Option.getOrElse(terms, () => read[next++] ?? new Map<string, TermMatch>()))
      })
  }
})
