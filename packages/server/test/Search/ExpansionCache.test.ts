/**
 * The expansion cache (Search/ExpansionCache.ts) on a real, migrated
 * database: terms committed for one shop forget that shop's cached
 * expansions and no other's, so one shop's import does not send every
 * other shop's searches back to the dictionary.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { makeExpansionCache, parseQuery } from "../../src/Search/SearchEngine"
import { setupAccount, TestApp } from "../support/TestApp"

/** The dictionary terms the cache gives for `query`'s words in the assistant's catalog. */
const termsOf = (
  cache: Effect.Effect.Success<typeof makeExpansionCache>,
  assistantId: string,
  query: string
) =>
  Effect.map(
    cache.expand(assistantId, parseQuery(query)),
    (expansion) => expansion.flatMap((terms) => [...terms.keys()]).sort()
  )

layer(TestApp(), { excludeTestServices: true })("the expansion cache", (it) => {
  it.effect("one shop's new terms forget that shop's expansions and keep every other shop's", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const cache = yield* makeExpansionCache
      const indexed = yield* setupAccount()
      const other = yield* setupAccount()
      yield* sql`INSERT INTO search_terms (assistant_id, term) VALUES (${indexed.assistantId}, 'kettle'),
        (${other.assistantId}, 'kettle')`
      expect(yield* termsOf(cache, other.assistantId, "kettle")).toEqual(["kettle"])
      expect(yield* termsOf(cache, indexed.assistantId, "kettle")).toEqual(["kettle"])

      // Both dictionaries gain a term the cached expansions lack; only the first shop's are forgotten.
      yield* sql`INSERT INTO search_terms (assistant_id, term) VALUES (${indexed.assistantId}, 'kettles'),
        (${other.assistantId}, 'kettles')`
      yield* cache.invalidate([indexed.assistantId])
      expect(yield* termsOf(cache, indexed.assistantId, "kettle")).toEqual(["kettle", "kettles"])
      expect(yield* termsOf(cache, other.assistantId, "kettle")).toEqual(["kettle"])

      yield* cache.invalidate([other.assistantId])
      expect(yield* termsOf(cache, other.assistantId, "kettle")).toEqual(["kettle", "kettles"])
    }))
})
