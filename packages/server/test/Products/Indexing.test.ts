import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { sharedDatabase } from "../../src/Testing"
import { fakeEmbeddings } from "../support/FakeEmbeddings"
import { call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"
import { hitIds, listOf, nextCursorOf, productCall, type Shop, waitUntilSynced } from "./support"

/** Runs `program` against a whole app instance started with `env`, then stops it. */
const withApp = <A, E, R>(env: Record<string, string>, program: Effect.Effect<A, E, R>) =>
  Effect.scoped(Effect.flatMap(Layer.build(TestApp(env)), (context) => Effect.provide(program, context)))

const stateOf = (shop: Shop, externalId: string) =>
  Effect.map(productCall(shop, "GET", `/${externalId}`), (reply) => pick(reply.json, "data", "indexState"))

it.scopedLive(
  "products written while no indexer runs are indexed after a restart (durable work)",
  () =>
    Effect.gen(function*() {
      const database = yield* sharedDatabase
      // First instance: search (and so the indexer) off; writes still succeed and stay pending.
      const shop = yield* withApp(
        { ...database, DASTYAR_SEARCH_ENABLED: "false" },
        Effect.gen(function*() {
          const shop = yield* setupAccount()
          yield* productCall(shop, "POST", "/import", {
            products: Array.from(
              { length: 30 },
              (_, i) => ({ externalId: `d-${i}`, title: `Durable walnut tray ${i}` })
            )
          })
          expect(yield* stateOf(shop, "d-0")).toBe("pending")
          return shop
        })
      )
      // Second instance on the same database picks the queued work up.
      yield* withApp(
        database,
        Effect.gen(function*() {
          yield* waitUntilSynced(shop)
          expect(yield* stateOf(shop, "d-29")).toBe("synced")
          expect(hitIds(yield* productCall(shop, "POST", "/search", { query: "walnut tray" })).length).toBeGreaterThan(
            0
          )
        })
      )
    }),
  120_000
)

it.scopedLive(
  "changing the embedder re-indexes every product and never mixes vectors of two models",
  () =>
    Effect.gen(function*() {
      const database = yield* sharedDatabase
      const fake = yield* fakeEmbeddings({ dimensions: 64 })
      const shop = yield* withApp(
        database,
        Effect.gen(function*() {
          const shop = yield* setupAccount()
          yield* productCall(shop, "POST", "/import", {
            products: [
              { externalId: "e-1", title: "Copper kettle" },
              { externalId: "e-2", title: "Linen apron" }
            ]
          })
          yield* waitUntilSynced(shop)
          // A knowledge-base document too: its chunks must follow the new embedder as well.
          const upload = yield* call("POST", `/v1/assistants/${shop.assistantId}/documents/text`, {
            token: shop.key,
            body: { filename: "care.md", content: "Copper kettles need a soft cloth and lemon juice." }
          })
          const jobId = pickString(upload.json, "data", "list", 0, "id")
          for (let attempt = 0; attempt < 200; attempt++) {
            const job = yield* call("GET", `/v1/assistants/${shop.assistantId}/documents/jobs/${jobId}`, {
              token: shop.key
            })
            if (pick(job.json, "data", "status") === "ready") break
            yield* Effect.sleep("100 millis")
          }
          return shop
        })
      )
      const provider = {
        DASTYAR_EMBEDDINGS_BASE_URL: fake.baseUrl,
        DASTYAR_EMBEDDINGS_API_KEY: "emb-key",
        DASTYAR_EMBEDDINGS_MODEL: "fake-embed",
        DASTYAR_EMBEDDINGS_DIMENSIONS: "64"
      }
      yield* withApp(
        { ...database, ...provider },
        Effect.gen(function*() {
          yield* waitUntilSynced(shop)
          // Both products went through the new provider (and the query too).
          expect(fake.batches.reduce((sum, n) => sum + n, 0)).toBeGreaterThanOrEqual(2)
          const reply = yield* productCall(shop, "POST", "/search", { query: "copper kettle" })
          expect(hitIds(reply)[0]).toBe("e-1")
          const indexedAt = pick((yield* productCall(shop, "GET", "/e-1")).json, "data", "indexedAt")
          expect(typeof indexedAt).toBe("string")
          const sql = yield* SqlClient.SqlClient
          let models: ReadonlyArray<{ readonly modelId: string }> = []
          for (let attempt = 0; attempt < 100; attempt++) {
            models = yield* sql<{ readonly modelId: string }>`SELECT DISTINCT model_id FROM document_chunks`
            if (models.length === 1 && models[0]?.modelId === "openai-compatible:fake-embed:64") break
            yield* Effect.sleep("100 millis")
          }
          expect(models).toEqual([{ modelId: "openai-compatible:fake-embed:64" }])
        })
      )
    }),
  120_000
)

/** A catalog file whose only plan allows 25 products per assistant. */
const tinyPlanConfig = (() => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-plan-")), "catalog.json")
  fs.writeFileSync(
    file,
    JSON.stringify({
      companies: [{ slug: "dastyar", title: "Dastyar" }],
      models: [{ key: "dastyar-local", name: "Dastyar Local", company: "dastyar", provider: { _tag: "local" } }],
      plans: [{ key: "tiny", models: "*", productLimit: 25 }],
      defaultPlan: "tiny",
      defaultModel: "dastyar-local"
    })
  )
  return file
})()

it.live(
  "the plan's cap holds under concurrent imports: never above it, the overflow refused with 403",
  () =>
    withApp(
      { DASTYAR_CONFIG: tinyPlanConfig },
      Effect.gen(function*() {
        const shop = yield* setupAccount()
        const batch = (n: number) =>
          productCall(shop, "POST", "/import", {
            products: Array.from({ length: 6 }, (_, i) => ({ externalId: `cap-${n}-${i}`, title: `Item ${n}.${i}` }))
          })
        const replies = yield* Effect.all(Array.from({ length: 8 }, (_, n) => batch(n)), { concurrency: "unbounded" })
        const accepted = replies.filter((reply) => reply.status === 200).length
        const refused = replies.filter((reply) => reply.status === 403)
        expect(accepted).toBe(4)
        expect(refused).toHaveLength(4)
        // Which batches win the race is not fixed, so the product to replace is one that landed.
        const acceptedBatch = replies.findIndex((reply) => reply.status === 200)
        expect(refused[0]?.json).toMatchObject({
          data: null,
          response: { status: "forbidden", code: "products.limit_reached" }
        })
        let count = 0
        let cursor: string | null = null
        do {
          const page = yield* productCall(
            shop,
            "GET",
            `?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`
          )
          count += listOf(page).length
          cursor = nextCursorOf(page)
        } while (cursor !== null)
        expect(count).toBe(24)
        // Replacing existing products is not growth; one more new product is.
        expect((yield* productCall(shop, "PUT", `/cap-${acceptedBatch}-0`, { title: "Renamed" })).status).toBe(200)
        expect((yield* productCall(shop, "PUT", "/one-more", { title: "x" })).status).toBe(200)
        expect((yield* productCall(shop, "POST", "", { externalId: "too-many", title: "x" })).status).toBe(403)
      })
    ),
  120_000
)
