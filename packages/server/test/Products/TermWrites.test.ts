/**
 * How an indexed batch writes its terms (migration 0031, Products/ProductIndexer.ts): the keyword index's pending
 * list is merged once a batch is stored, and the dictionary takes the terms of the products whose terms changed.
 */
import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { setupAccount, TestApp } from "../support/TestApp"
import { hitIds, productCall, type Shop, waitUntilSynced } from "./support"

const withApp = <A, E, R>(program: Effect.Effect<A, E, R>) =>
  Effect.scoped(Effect.flatMap(Layer.build(TestApp()), (context) => Effect.provide(program, context)))

const dictionaryHas = (shop: Shop, term: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql`SELECT 1 FROM search_terms WHERE assistant_id = ${shop.assistantId} AND term = ${term}`
    return rows.length > 0
  })

/** Pages of the keyword index's pending list, read without merging them (pgstattuple, in Postgres's contrib). */
const pendingPages = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly pages: number }>`
    SELECT pending_pages::int AS pages FROM pgstatginindex('products_scoped_terms_idx'::regclass)`
  return rows[0]?.pages ?? -1
})

// The embedded build is not given pgstattuple, and only a read that leaves the list alone can tell that the
// indexer merged it.
it.live.skipIf(process.env.DATABASE_URL === undefined)(
  "once a catalog is indexed, no terms are left in the keyword index's pending list",
  () =>
    withApp(
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* sql`CREATE EXTENSION IF NOT EXISTS pgstattuple`
        const shop = yield* setupAccount()
        const products = Array.from({ length: 300 }, (_, i) => ({
          externalId: `t-${i}`,
          title: `Quilted ${["velvet", "cotton", "linen"][i % 3]} cushion ${i}`,
          category: "Cushions"
        }))
        expect((yield* productCall(shop, "POST", "/import", { products })).status).toBe(200)
        yield* waitUntilSynced(shop)
        // The merge follows the statement that marks a batch synced: awaited, not assumed.
        const pages = yield* pendingPages.pipe(
          Effect.repeat({ until: (pages) => pages === 0, schedule: Schedule.spaced("50 millis") }),
          Effect.timeout("30 seconds")
        )
        expect(pages).toBe(0)
        expect(hitIds(yield* productCall(shop, "POST", "/search", { query: "velvet cushion" }))).toContain("t-0")
      })
    ),
  120_000
)

it.live(
  "a word a product gains when written again joins the shop's dictionary: a misspelling of it finds it",
  () =>
    withApp(
      Effect.gen(function*() {
        const shop = yield* setupAccount()
        yield* productCall(shop, "PUT", "/lamp-1", { title: "Brass desk lamp" })
        yield* productCall(shop, "PUT", "/mug-1", { title: "Stoneware mug" })
        yield* waitUntilSynced(shop)
        expect(yield* dictionaryHas(shop, "verdigris")).toBe(false)
        yield* productCall(shop, "PUT", "/lamp-1", { title: "Brass verdigris desk lamp" })
        yield* waitUntilSynced(shop)
        expect(yield* dictionaryHas(shop, "verdigris")).toBe(true)
        expect(hitIds(yield* productCall(shop, "POST", "/search", { query: "verdigrs" }))[0]).toBe("lamp-1")
      })
    ),
  120_000
)

it.live("an update that leaves a product's terms as they were reads none of them into the dictionary", () =>
  withApp(
    Effect.gen(function*() {
      const shop = yield* setupAccount()
      yield* productCall(shop, "PUT", "/kettle-1", { title: "Copper kettle" })
      yield* waitUntilSynced(shop)
      const sql = yield* SqlClient.SqlClient
      // A term taken out of the dictionary by hand shows which statements read the product's terms again.
      yield* sql`DELETE FROM search_terms WHERE assistant_id = ${shop.assistantId} AND term = 'copper'`
      yield* sql`UPDATE products SET index_lease_until = now() WHERE assistant_id = ${shop.assistantId}`
      expect(yield* dictionaryHas(shop, "copper")).toBe(false)
      yield* sql`
        UPDATE products SET search_terms = search_terms || ARRAY['enamel'] WHERE assistant_id = ${shop.assistantId}`
      expect(yield* dictionaryHas(shop, "copper")).toBe(true)
      expect(yield* dictionaryHas(shop, "enamel")).toBe(true)
    })
  ), 120_000)
