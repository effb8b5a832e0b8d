/**
 * Shops take turns at indexing (Products/ProductIndexer.ts, Queue/Queue.ts): a
 * small shop's few products are indexed while a big shop queued earlier still
 * has most of its catalog pending. The work is queued by an instance with
 * search off, so both shops' wake-ups wait in the queue, the big one's first;
 * a second instance with a slow embedder then runs them. Work whose wake-up
 * was lost is queued by the sweeper, and so takes the same turns.
 */
import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as IndexQueue from "../../src/Products/IndexQueue"
import { tableName } from "../../src/Queue/Queue"
import { sharedDatabase } from "../../src/Testing"
import { fakeEmbeddings } from "../support/FakeEmbeddings"
import { pick, setupAccount, TestApp } from "../support/TestApp"
import { productCall, type Shop } from "./support"

const withApp = <A, E, R>(env: Record<string, string>, program: Effect.Effect<A, E, R>) =>
  Effect.scoped(Effect.flatMap(Layer.build(TestApp(env)), (context) => Effect.provide(program, context)))

const bigCatalog = 6_000
const perImport = 1_000

const hasPending = (shop: Shop) =>
  Effect.map(productCall(shop, "GET", "?state=pending&limit=1"), (reply) => {
    const list = pick(reply.json, "data", "list")
    return Array.isArray(list) && list.length > 0
  })

/**
 * Queues the big shop's catalog, then the small shop's three products, on an instance with search off (so
 * nothing is indexed yet); with `dropWakeUps`, their queue elements are then lost, as a given-up element or
 * products marked pending by a change of embedder leave them: only the sweeper can find that work.
 */
const queueBoth = (settings: Record<string, string>, dropWakeUps: boolean) =>
  withApp(
    { ...settings, DASTYAR_SEARCH_ENABLED: "false" },
    Effect.gen(function*() {
      const big = yield* setupAccount()
      const small = yield* setupAccount()
      for (let start = 0; start < bigCatalog; start += perImport) {
        const products = Array.from({ length: perImport }, (_, i) => ({
          externalId: `b-${start + i}`,
          title: `Walnut tray ${start + i}`
        }))
        expect((yield* productCall(big, "POST", "/import", { products })).status).toBeLessThan(300)
      }
      const products = [1, 2, 3].map((i) => ({ externalId: `s-${i}`, title: `Clay mug ${i}` }))
      expect((yield* productCall(small, "POST", "/import", { products })).status).toBeLessThan(300)
      if (dropWakeUps) {
        const sql = yield* SqlClient.SqlClient
        yield* sql`DELETE FROM ${sql(tableName)} WHERE queue_name = ${IndexQueue.queueName}`
      }
      return { big, small }
    })
  )

/** Runs the indexer with an embedder slow enough to see the order; true when the small shop was done first. */
const smallDoneFirst = (settings: Record<string, string>, shops: { readonly big: Shop; readonly small: Shop }) =>
  Effect.gen(function*() {
    const fake = yield* fakeEmbeddings({ dimensions: 64, delayMs: 300 })
    return yield* withApp(
      {
        ...settings,
        DASTYAR_EMBEDDINGS_BASE_URL: fake.baseUrl,
        DASTYAR_EMBEDDINGS_API_KEY: "emb-key",
        DASTYAR_EMBEDDINGS_MODEL: "fake-embed",
        DASTYAR_EMBEDDINGS_DIMENSIONS: "64"
      },
      Effect.gen(function*() {
        for (let attempt = 0; attempt < 1200 && (yield* hasPending(shops.small)); attempt++) {
          yield* Effect.sleep("25 millis")
        }
        expect(yield* hasPending(shops.small)).toBe(false)
        return yield* hasPending(shops.big)
      })
    )
  })

it.scopedLive(
  "a small shop's products are indexed while a big shop queued before it is still pending",
  () =>
    Effect.gen(function*() {
      const database = yield* sharedDatabase
      const settings = { ...database, DASTYAR_RATE_LIMIT_PER_MINUTE: "100000" }
      const shops = yield* queueBoth(settings, false)
      expect(yield* smallDoneFirst(settings, shops)).toBe(true)
    }),
  300_000
)

it.scopedLive(
  "work only the sweeper finds takes turns between shops too: the small shop is not left behind the big backlog",
  () =>
    Effect.gen(function*() {
      const database = yield* sharedDatabase
      const settings = { ...database, DASTYAR_RATE_LIMIT_PER_MINUTE: "100000" }
      const shops = yield* queueBoth(settings, true)
      expect(yield* smallDoneFirst(settings, shops)).toBe(true)
    }),
  300_000
)
