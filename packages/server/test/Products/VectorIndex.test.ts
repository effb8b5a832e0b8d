/**
 * The meaning side's two paths, pinned on a small catalog with a low size
 * threshold: a large assistant's own HNSW index (iterative scans, filters)
 * returns what the exact scan returns, a small assistant gets no index, and
 * an index goes when its assistant shrinks.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { VectorIndexes } from "../../src/Products/VectorIndexes"
import { vectorLiteral } from "../../src/Search/Embedder"
import { embedOne } from "../../src/Search/OfflineEmbedder"
import { setupAccount, TestApp } from "../support/TestApp"
import { hitIds, productCall, type Shop, waitUntilSynced } from "./support"

const threshold = 24

const kinds = ["kettle", "teapot", "blender", "toaster", "lamp", "scarf", "hoodie", "keyboard"]
const colours = ["red", "blue", "green", "black", "white"]
const products = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => ({
    externalId: `${prefix}-${i}`,
    title: `${colours[i % colours.length]} ${kinds[i % kinds.length]} model ${i}`,
    category: i % 2 === 0 ? "Kitchen" : "Home",
    price: 10 + i
  }))

const queries = ["red kettle", "teapot", "blue blendr", "warm hoodie", "desk lamp", "black keyboard model"]

layer(TestApp({ DASTYAR_VECTOR_INDEX_MIN_PRODUCTS: String(threshold) }), { excludeTestServices: true })(
  "products: per-assistant vector index",
  (it) => {
    /** Names of the vector indexes whose predicate names the assistant. */
    const indexesOf = (assistantId: string) =>
      Effect.flatMap(SqlClient.SqlClient, (sql) =>
        sql<{ readonly name: string }>`
          SELECT c.relname AS name FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
          WHERE i.indrelid = 'products'::regclass AND i.indisvalid AND starts_with(c.relname, 'products_hnsw_')
            AND strpos(pg_get_expr(i.indpred, i.indrelid), ${assistantId}) > 0`).pipe(
          Effect.map((rows) => rows.map((row) => row.name))
        )

    const waitForIndex = (assistantId: string) =>
      Effect.gen(function*() {
        for (let attempt = 0; attempt < 400; attempt++) {
          if ((yield* indexesOf(assistantId)).length > 0) return
          yield* Effect.sleep("50 millis")
        }
        return yield* Effect.die(new Error("the vector index was never built"))
      })

    const distance = (query: string) =>
      Effect.map(SqlClient.SqlClient, (sql) => sql`embedding <=> ${vectorLiteral(embedOne(query))}::halfvec`)

    /** The distances of the exact top k, index scans off. */
    const exactTop = (assistantId: string, query: string, k: number, category?: string) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const rows = yield* sql.withTransaction(
          sql`SET LOCAL enable_indexscan = off`.pipe(
            Effect.zipRight(sql<{ readonly distance: number }>`
              SELECT ${yield* distance(query)} AS distance FROM products
              WHERE assistant_id = ${assistantId}
                ${category === undefined ? sql`` : sql`AND category_key = ${category.toLowerCase()}`}
              ORDER BY 1 LIMIT ${k}`)
          )
        )
        return rows.map((row) => Number(row.distance).toFixed(5))
      })

    /** The distances of the products the service found, in its order (products of equal distance are alike). */
    const meaningOnly = (shop: Shop, body: { readonly query: string; readonly category?: string }) =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const ids = hitIds(yield* productCall(shop, "POST", "/search", { semanticRatio: 1, limit: 10, ...body }))
        const rows = yield* sql<{ readonly externalId: string; readonly distance: number }>`
          SELECT external_id, ${yield* distance(body.query)} AS distance FROM products
          WHERE assistant_id = ${shop.assistantId} AND external_id IN ${sql.in(ids)}`
        const byId = new Map(rows.map((row) => [row.externalId, Number(row.distance).toFixed(5)]))
        return ids.map((id) => byId.get(id) ?? "missing")
      })

    const shops = Effect.gen(function*() {
      const large = yield* setupAccount()
      const small = yield* setupAccount()
      yield* productCall(large, "POST", "/import", { products: products("l", threshold * 2) })
      yield* productCall(small, "POST", "/import", { products: products("s", threshold - 4) })
      yield* waitUntilSynced(large)
      yield* waitUntilSynced(small)
      yield* waitForIndex(large.assistantId)
      return { large, small }
    }).pipe(Effect.cached, Effect.runSync)

    it.effect("a large assistant gets its own index, which the meaning side uses, with the exact scan's results", () =>
      Effect.gen(function*() {
        const { large } = yield* shops
        const sql = yield* SqlClient.SqlClient
        const [name] = yield* indexesOf(large.assistantId)
        const plan = yield* sql.withTransaction(
          sql`SELECT set_config('hnsw.iterative_scan', 'relaxed_order', true)`.pipe(
            Effect.zipRight(sql<{ readonly "QUERY PLAN": string }>`
              EXPLAIN SELECT id FROM products
              WHERE assistant_id = ${large.assistantId} AND embedding_model = 'offline-hash-v2:512'
              ORDER BY embedding::halfvec(512) <=> ${vectorLiteral(embedOne("kettle"))}::halfvec(512) LIMIT 100`)
          )
        )
        expect(plan.map((row) => Object.values(row).join(" ")).join("\n")).toContain(`Index Scan using ${name}`)
        for (const query of queries) {
          expect(yield* meaningOnly(large, { query })).toEqual(yield* exactTop(large.assistantId, query, 10))
        }
      }))

    it.effect("filters apply on the index path: iterative scans fill the page", () =>
      Effect.gen(function*() {
        const { large } = yield* shops
        for (const query of queries) {
          const found = yield* meaningOnly(large, { query, category: "Home" })
          expect(found).toHaveLength(10)
          expect(found).toEqual(yield* exactTop(large.assistantId, query, 10, "Home"))
        }
      }))

    it.effect("a small assistant has no index and is scanned exactly", () =>
      Effect.gen(function*() {
        const { small } = yield* shops
        expect(yield* indexesOf(small.assistantId)).toEqual([])
        for (const query of queries) {
          expect(yield* meaningOnly(small, { query })).toEqual(yield* exactTop(small.assistantId, query, 10))
        }
      }))

    it.effect("the index goes when its assistant shrinks below half the threshold", () =>
      Effect.gen(function*() {
        const { large } = yield* shops
        const externalIds = products("l", threshold * 2).map((product) => product.externalId).slice(threshold / 2 - 1)
        const deleted = yield* productCall(large, "POST", "/delete", { externalIds })
        expect(deleted.status).toBe(200)
        yield* Effect.flatMap(VectorIndexes, (indexes) => indexes.reconcile(null))
        expect(yield* indexesOf(large.assistantId)).toEqual([])
        const [query = ""] = queries
        expect(yield* meaningOnly(large, { query })).toEqual(yield* exactTop(large.assistantId, query, 10))
      }))
  }
)
