/**
 * What a shop's search costs in statements: its first search reads the shop's own state (the key's owner with
 * the account's assistants; the catalog's size with its synonyms, in the dictionary's statement) in one statement
 * more than a later one, and none is written. A page of keyword matches comes with the keyword read.
 */
import { expect, layer } from "@effect/vitest"
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Telemetry from "../../src/Telemetry"
import { admin, call, pickString, setupAccount, TestApp } from "../support/TestApp"
import { hitIds, productCall, type Shop, waitUntilSynced } from "./support"

const exporter = new InMemorySpanExporter()
const millis = ([seconds, nanos]: ReadableSpan["startTime"]) => seconds * 1e3 + nanos / 1e6
const InMemoryTracing = Telemetry.layerWith(new SimpleSpanProcessor(exporter))

const catalog = ["Walnut bookshelf", "Walnut side table", "Oak bookshelf", "Pine coat rack"].map((title, i) => ({
  externalId: `f-${i}`,
  title
}))

/**
 * The statements a search of `shop` sent while it ran: those of its request's trace, and those a cache's lookup
 * made for it (they start a trace of their own), but not the durable queue's polls.
 */
const statementsOf = (shop: Shop, query: string, limit = 2) =>
  Effect.gen(function*() {
    exporter.reset()
    // Two hits fill a page of two: the meaning side's read is not needed.
    const reply = yield* productCall(shop, "POST", "/search", { query, limit })
    expect(hitIds(reply).length).toBeGreaterThanOrEqual(2)
    for (let attempt = 0; attempt < 100; attempt++) {
      const spans = exporter.getFinishedSpans()
      const server = spans.find((span) => span.kind === 1 && span.attributes["http.route"] !== undefined)
      if (server !== undefined) {
        const within = (span: ReadableSpan) =>
          millis(span.startTime) >= millis(server.startTime) &&
          millis(span.endTime) <= millis(server.endTime)
        return spans
          .filter((span) => span.name.startsWith("sql."))
          .filter((span) =>
            span.spanContext().traceId === server.spanContext().traceId ||
            (span.parentSpanContext === undefined && within(span))
          )
          .map((span) => String(span.attributes["db.query.text"] ?? "").trim())
          .filter((text) => !text.includes("dastyar_queue"))
      }
      yield* Effect.sleep("20 millis")
    }
    return yield* Effect.die(new Error("no server span"))
  })

const newShop = Effect.gen(function*() {
  const shop = yield* setupAccount()
  yield* productCall(shop, "POST", "/import", { products: catalog })
  yield* waitUntilSynced(shop)
  return shop
})

const synonymsOf = (shop: Shop, sets: ReadonlyArray<object>) =>
  call("PUT", `/v1/assistants/${shop.assistantId}/synonyms`, { token: shop.key, body: { synonyms: sets } })

layer(TestApp().pipe(Layer.provide(InMemoryTracing)), { excludeTestServices: true })("a shop's state", (it) => {
  it.effect("a shop's first search reads its state in one statement besides its own, and writes nothing", () =>
    Effect.gen(function*() {
      // Another shop searched first: nothing of it serves this one.
      yield* statementsOf(yield* newShop, "walnut")
      const imported = yield* newShop
      // A key never used: its first use is noted (in the background).
      const fresh = yield* admin("POST", `/accounts/${imported.accountId}/keys`, { name: "search" })
      const shop = { ...imported, key: pickString(fresh.json, "data", "key") }
      // Deleting an account empties every instance's key and ownership caches: the import's are forgotten.
      const other = yield* setupAccount()
      expect((yield* admin("DELETE", `/accounts/${other.accountId}`)).status).toBeLessThan(300)
      const first = yield* statementsOf(shop, "walnut")
      const again = yield* statementsOf(shop, "walnut")
      const next = yield* statementsOf(shop, "bookshelf")
      // A search's own: the dictionary's expansion of its words, the keyword read with the page's fields.
      expect(next).toHaveLength(2)
      // Words searched again within seconds: their expansion is remembered.
      expect(again).toHaveLength(1)
      // The key's owner with its account's assistants; the catalog's size and its synonyms come with the dictionary.
      expect(first).toHaveLength(1 + 2)
      const withState = first.filter((text) => text.includes("search_terms") && text.includes("search_synonyms"))
      expect(withState).toHaveLength(1)
      expect(first.filter((text) => /^(UPDATE|INSERT|DELETE)\b/i.test(text))).toEqual([])
    }))

  it.effect("a page the keyword matches do not fill is read with the meaning side, not on its own", () =>
    Effect.gen(function*() {
      const shop = yield* newShop
      yield* statementsOf(shop, "walnut")
      // Two keyword matches on a page of five: the keyword read, then the nearest products with every row to show.
      const statements = yield* statementsOf(shop, "walnut", 5)
      expect(statements).toHaveLength(2)
      expect(statements[1]).toMatch(/hnsw\.ef_search/)
    }))

  it.effect("a read of more candidates than a page carries brings no fields, and the page is read on its own", () =>
    Effect.gen(function*() {
      const shop = yield* setupAccount()
      const shelves = Array.from({ length: 120 }, (_, i) => ({ externalId: `s-${i}`, title: `Shelf ${i}` }))
      yield* productCall(shop, "POST", "/import", { products: shelves })
      yield* waitUntilSynced(shop)
      yield* statementsOf(shop, "shelf")
      const statements = yield* statementsOf(shop, "shelf")
      // The keyword read of 120 candidates, then the page of two.
      expect(statements).toHaveLength(2)
      expect(statements[1]).toMatch(/WHERE id = ANY/)
    }))

  it.effect("two known words take one dictionary statement, though the word they make joined is unknown", () =>
    Effect.gen(function*() {
      const shop = yield* newShop
      yield* statementsOf(shop, "bookshelf")
      // "walnuttable" is looked up with the query's words and matches nothing: no second, looser look for it.
      expect(yield* statementsOf(shop, "walnut table")).toHaveLength(2)
    }))

  it.effect("synonyms written before a shop's first search apply to it", () =>
    Effect.gen(function*() {
      const shop = yield* newShop
      expect((yield* synonymsOf(shop, [{ synonyms: ["bookcase", "bookshelf"] }])).status).toBe(200)
      const found = yield* productCall(shop, "POST", "/search", { query: "bookcase", semanticRatio: 0 })
      expect(hitIds(found).sort()).toEqual(["f-0", "f-2"])
    }))
})
