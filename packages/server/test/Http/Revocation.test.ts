/**
 * A revoked key, a deleted account and a deleted assistant stop working on every instance at once:
 * each instance remembers key owners and owned assistants for a few seconds, and a revocation on one
 * instance empties every instance's memory (Postgres LISTEN/NOTIFY). A lost listening connection
 * empties it too. A shop's synonyms, which search keeps for minutes, are emptied the same way when changed.
 * Two instances need a shared Postgres database; embedded, one instance is checked.
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { listenerApplicationName } from "../../src/Database/Invalidations"
import { hitIds, productCall, waitUntilSynced } from "../Products/support"
import { admin, call, pickString, setupAccount, TestApp } from "../support/TestApp"

const onPostgres = process.env.DATABASE_URL !== undefined

/** Instance A, and instance B on A's database (its own server, caches and listener). */
const twoInstances = Effect.gen(function*() {
  const first = yield* Layer.build(TestApp())
  const sql = yield* SqlClient.SqlClient.pipe(Effect.provide(first))
  const [database] = yield* sql<{ readonly name: string }>`SELECT current_database() AS name`
  const shared = new URL(process.env.DATABASE_URL ?? "")
  shared.pathname = `/${database?.name ?? ""}`
  const second = yield* Layer.build(TestApp({ DATABASE_URL: shared.toString() }))
  return { first, second, sql }
})

/** Status of a request through an instance. */
const statusOn = <R>(instance: Context.Context<R>, url: string, token: string) =>
  call("GET", url, { token }).pipe(Effect.map((reply) => reply.status), Effect.provide(instance))

/** Waits (without a fixed sleep) until `check` answers `expected`; fails after `withinMs`. */
const becomes = <A>(check: Effect.Effect<A>, expected: A, withinMs: number) =>
  Effect.gen(function*() {
    const start = Date.now()
    while (Date.now() - start < withinMs) {
      if ((yield* check) === expected) return Date.now() - start
      yield* Effect.yieldNow()
    }
    return yield* Effect.die(new Error(`not ${String(expected)} within ${withinMs} ms`))
  })

describe.skipIf(!onPostgres)("revocation across instances", () => {
  it.live("a key revoked on instance A is refused by instance B within 100 ms", () =>
    Effect.gen(function*() {
      const { first, second } = yield* twoInstances
      const owner = yield* setupAccount().pipe(Effect.provide(first))
      // B has the key's owner in its cache.
      expect(yield* statusOn(second, "/v1/assistants", owner.key)).toBe(200)
      expect(yield* statusOn(second, "/v1/assistants", owner.key)).toBe(200)
      yield* admin("DELETE", `/keys/${owner.keyId}`).pipe(Effect.provide(first))
      yield* becomes(statusOn(second, "/v1/assistants", owner.key), 401, 100)
    }).pipe(Effect.scoped), 120_000)

  it.live("an account deleted on A loses its keys and assistants on B at once", () =>
    Effect.gen(function*() {
      const { first, second } = yield* twoInstances
      const owner = yield* setupAccount().pipe(Effect.provide(first))
      const products = `/v1/assistants/${owner.assistantId}/products`
      expect(yield* statusOn(second, products, owner.key)).toBe(200)
      yield* admin("DELETE", `/accounts/${owner.accountId}`).pipe(Effect.provide(first))
      yield* becomes(statusOn(second, products, owner.key), 401, 100)
    }).pipe(Effect.scoped), 120_000)

  it.live("an assistant deleted on A is not found on B at once", () =>
    Effect.gen(function*() {
      const { first, second } = yield* twoInstances
      const owner = yield* setupAccount().pipe(Effect.provide(first))
      const products = `/v1/assistants/${owner.assistantId}/products`
      expect(yield* statusOn(second, products, owner.key)).toBe(200)
      yield* admin("DELETE", `/assistants/${owner.assistantId}`).pipe(Effect.provide(first))
      yield* becomes(statusOn(second, products, owner.key), 404, 100)
    }).pipe(Effect.scoped), 120_000)

  it.live("synonyms replaced on A apply to B's searches within a second, not the cache's minutes", () =>
    Effect.gen(function*() {
      const { first, second } = yield* twoInstances
      const shop = yield* setupAccount().pipe(Effect.provide(first))
      const products = [{ externalId: "h-1", title: "Cast iron skillet" }, { externalId: "h-2", title: "Garden trowel" }]
      yield* productCall(shop, "POST", "/import", { products }).pipe(Effect.provide(first))
      yield* waitUntilSynced(shop).pipe(Effect.provide(first))
      const found = productCall(shop, "POST", "/search", { query: "griddle", semanticRatio: 0 }).pipe(
        Effect.map((reply) => hitIds(reply).join(",")),
        Effect.provide(second)
      )
      // B has the shop's rules (none) in its cache.
      expect(yield* found).toBe("")
      expect(yield* found).toBe("")
      const body = { synonyms: [{ synonyms: ["skillet", "griddle"] }] }
      const put = yield* call("PUT", `/v1/assistants/${shop.assistantId}/synonyms`, { token: shop.key, body }).pipe(
        Effect.provide(first)
      )
      expect(put.status).toBe(200)
      // A search is a whole request: a loaded machine may take a good part of 100 ms for one.
      yield* becomes(found, "h-1", 1_000)
    }).pipe(Effect.scoped), 120_000)

  it.live(
    "a lost listening connection empties the cache, and revocations reach the instance once it is back",
    () =>
      Effect.gen(function*() {
        const { first, second, sql } = yield* twoInstances
        const owner = yield* setupAccount().pipe(Effect.provide(first))
        expect(yield* statusOn(second, "/v1/assistants", owner.key)).toBe(200)
        // Revoked behind the service's back (no notification): B still answers from its cache.
        yield* sql`UPDATE api_keys SET revoked_at = now() WHERE id = ${owner.keyId}`
        expect(yield* statusOn(second, "/v1/assistants", owner.key)).toBe(200)
        // Both instances' listening sessions are cut: neither may answer from what it remembered.
        yield* sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                 WHERE application_name = ${listenerApplicationName} AND datname = current_database()`
        yield* becomes(statusOn(second, "/v1/assistants", owner.key), 401, 1000)

        // Listening again: a revocation on A reaches B at once.
        const other = yield* admin("POST", `/accounts/${owner.accountId}/keys`, { name: "second" }).pipe(
          Effect.provide(first)
        )
        const json = { data: { id: pickString(other.json, "data", "id"), key: pickString(other.json, "data", "key") } }
        yield* becomes(
          sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE application_name = ${listenerApplicationName} AND datname = current_database()`.pipe(
            Effect.map(([row]) => row?.n ?? 0),
            Effect.orDie
          ),
          2,
          10_000
        )
        expect(yield* statusOn(second, "/v1/assistants", json.data.key)).toBe(200)
        expect(yield* statusOn(second, "/v1/assistants", json.data.key)).toBe(200)
        yield* admin("DELETE", `/keys/${json.data.id}`).pipe(Effect.provide(first))
        yield* becomes(statusOn(second, "/v1/assistants", json.data.key), 401, 100)
      }).pipe(Effect.scoped),
    120_000
  )
})

describe("revocation on one instance", () => {
  it.live("a revoked key and a deleted assistant are refused at once", () =>
    Effect.gen(function*() {
      const app = yield* Layer.build(TestApp())
      const owner = yield* setupAccount().pipe(Effect.provide(app))
      const products = `/v1/assistants/${owner.assistantId}/products`
      expect(yield* statusOn(app, products, owner.key)).toBe(200)
      yield* admin("DELETE", `/assistants/${owner.assistantId}`).pipe(Effect.provide(app))
      expect(yield* statusOn(app, products, owner.key)).toBe(404)
      yield* admin("DELETE", `/keys/${owner.keyId}`).pipe(Effect.provide(app))
      expect(yield* statusOn(app, "/v1/assistants", owner.key)).toBe(401)
    }).pipe(Effect.scoped), 120_000)
})
