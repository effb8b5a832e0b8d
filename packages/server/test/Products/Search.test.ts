import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { pick, setupAccount, TestApp } from "../support/TestApp"
import { hitIds, listOf, productCall, waitUntilSynced } from "./support"

const catalog = [
  {
    externalId: "tea-1",
    title: "Ceramic teapot",
    category: "Kitchen",
    subcategory: "Tea",
    attributes: { color: "blue", capacity: 1 },
    price: 30,
    inStock: true
  },
  {
    externalId: "tea-2",
    title: "Glass teapot with infuser",
    category: "Kitchen",
    subcategory: "Tea",
    attributes: { color: "clear", capacity: 1.5 },
    price: 45,
    inStock: false
  },
  { externalId: "mug-1", title: "Stoneware mug", category: "Kitchen", attributes: { color: "blue" }, price: 12 },
  {
    externalId: "lamp-1",
    title: "Desk lamp",
    category: "Lighting",
    description: "Perfect next to your teapot",
    price: null
  },
  { externalId: "case-1", title: "Phone case", category: "Electronics", attributes: { model: "Pixel 8" } },
  {
    externalId: "fa-1",
    title: "قوری چینی",
    category: "ظروف آشپزخانه",
    subcategory: "چای",
    attributes: { رنگ: "آبی" },
    price: 500000
  },
  { externalId: "fa-2", title: "کتاب‌های آشپزی ایرانی", category: "كتاب", price: 250000 },
  { externalId: "fa-3", title: "ماگ سرامیکی", category: "ظروف  آشپزخانه", attributes: { ظرفیت: 350 }, price: 90000 }
]

layer(TestApp(), { excludeTestServices: true })("products: search", (it) => {
  const shop = Effect.gen(function*() {
    const s = yield* setupAccount()
    const imported = yield* productCall(s, "POST", "/import", { products: catalog })
    expect(imported.json).toMatchObject({ data: { created: catalog.length } })
    yield* waitUntilSynced(s)
    return s
  }).pipe(Effect.cached, Effect.runSync)

  const search = (body: Record<string, unknown>) => Effect.flatMap(shop, (s) => productCall(s, "POST", "/search", body))

  it.effect("keyword and meaning: title first, results best first with rising distance, full products", () =>
    Effect.gen(function*() {
      const reply = yield* search({ query: "teapot" })
      expect(reply.status).toBe(200)
      const ids = hitIds(reply)
      expect(ids.slice(0, 2).sort()).toEqual(["tea-1", "tea-2"])
      // Only the description of the lamp mentions a teapot: description does not affect ranking.
      expect(ids).not.toContain("lamp-1")
      const list = listOf(reply)
      expect(pick(reply.json, "data", "count")).toBe(list.length)
      expect(list[0]?.title).toContain("teapot")
      const distances = list.map((hit) => hit.distance ?? Number.NaN)
      expect(distances).toEqual([...distances].sort((a, b) => a - b))
    }))

  it.effect("every hit is the product as a read of it shows it, plus its distance, whichever read found it", () =>
    Effect.gen(function*() {
      const s = yield* shop
      // Fewer keyword matches than the page holds: the page's fields come with the meaning side's read.
      const reply = yield* search({ query: "teapot", limit: 6 })
      const hits = Schema.decodeUnknownSync(Schema.Array(Schema.Record({ key: Schema.String, value: Schema.Unknown })))(
        pick(reply.json, "data", "list")
      )
      expect(hits.length).toBe(2)
      for (const { distance, ...hit } of hits) {
        const read = yield* productCall(s, "GET", `/${encodeURIComponent(String(hit.externalId))}`)
        expect(hit).toEqual(pick(read.json, "data"))
        expect(typeof distance).toBe("number")
      }
    }))

  it.effect("a misspelt or inflected query still finds what it means", () =>
    Effect.gen(function*() {
      expect(hitIds(yield* search({ query: "teapots" }))[0]).toMatch(/^tea-/)
      expect(hitIds(yield* search({ query: "ceramik teapott" }))[0]).toBe("tea-1")
      expect(hitIds(yield* search({ query: "کتاب آشپزی" }))[0]).toBe("fa-2")
    }))

  it.effect("Persian and Arabic letter forms, ZWNJ and case are one for queries and filters", () =>
    Effect.gen(function*() {
      expect(hitIds(yield* search({ query: "قوري" }))[0]).toBe("fa-1")
      expect(hitIds(yield* search({ query: "كتابهاي" }))[0]).toBe("fa-2")
      const kitchen = yield* search({ query: "ماگ", category: "ظروف آشپزخانه" })
      expect(hitIds(kitchen)).toEqual(["fa-3"])
      expect(hitIds(yield* search({ query: "کتاب", category: "كتاب" }))).toEqual(["fa-2"])
      expect(hitIds(yield* search({ query: "teapot", category: "  KITCHEN " })).length).toBeGreaterThan(0)
      expect(hitIds(yield* search({ query: "teapot", category: "Kitch" }))).toEqual([])
      expect(hitIds(yield* search({ query: "teapot", subcategory: "tea" })).sort()).toEqual(["tea-1", "tea-2"])
    }))

  it.effect("attributes drop a product whose value differs and keep one without it; numbers compare as numbers", () =>
    Effect.gen(function*() {
      const blue = hitIds(yield* search({ query: "teapot mug lamp", attributes: { color: "Blue" } }))
      expect(blue).toContain("tea-1")
      expect(blue).toContain("mug-1")
      expect(blue).toContain("lamp-1")
      expect(blue).not.toContain("tea-2")
      const capacity = hitIds(yield* search({ query: "teapot", attributes: { capacity: 1.0 } }))
      expect(capacity).toContain("tea-1")
      expect(capacity).not.toContain("tea-2")
      expect(hitIds(yield* search({ query: "ماگ", attributes: { ظرفیت: 350 } }))).toContain("fa-3")
      expect(hitIds(yield* search({ query: "ماگ", attributes: { ظرفیت: "350" } }))).not.toContain("fa-3")
    }))

  it.effect("price bounds are inclusive and drop products without a price; inStock true keeps those in stock", () =>
    Effect.gen(function*() {
      const bounded = hitIds(yield* search({ query: "teapot mug lamp", minPrice: 12, maxPrice: 30 }))
      expect(bounded.sort()).toEqual(["mug-1", "tea-1"])
      const any = hitIds(yield* search({ query: "lamp", minPrice: 0 }))
      expect(any).not.toContain("lamp-1")
      const inStock = hitIds(yield* search({ query: "teapot", inStock: true }))
      expect(inStock).toContain("tea-1")
      expect(inStock).not.toContain("tea-2")
    }))

  it.effect("limit and offset page through the same ranking; bounds are validated", () =>
    Effect.gen(function*() {
      const all = hitIds(yield* search({ query: "teapot mug", limit: 100 }))
      const second = hitIds(yield* search({ query: "teapot mug", limit: 1, offset: 1 }))
      expect(second).toEqual(all.slice(1, 2))
      for (
        const bad of [
          { query: "" },
          { query: "x".repeat(1001) },
          { query: "x", limit: 0 },
          { query: "x", limit: 101 },
          { query: "x", offset: 1001 },
          { query: "x", offset: -1 },
          { query: "x", semanticRatio: 1.5 },
          { query: "x", semanticRatio: -0.1 },
          { query: "x", attributes: { ["k".repeat(201)]: 1 } }
        ]
      ) {
        const reply = yield* search(bad)
        expect(reply.status).toBe(400)
        expect(pick(reply.json, "fields")).toBeDefined()
      }
      expect(hitIds(yield* search({ query: "teapot", category: "Nothing here" }))).toEqual([])
    }))

  it.effect("a deleted product is gone from search at once; a changed one is found by its new title once synced", () =>
    Effect.gen(function*() {
      const s = yield* shop
      yield* productCall(s, "PUT", "/tmp-1", { title: "Walnut cutting board" })
      yield* waitUntilSynced(s)
      expect(hitIds(yield* search({ query: "walnut board" }))[0]).toBe("tmp-1")
      yield* productCall(s, "DELETE", "/tmp-1")
      expect(hitIds(yield* search({ query: "walnut board" }))).not.toContain("tmp-1")
    }))

  it.effect("filters with quotes and backslashes reach the meaning side's read intact", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const category = "Kid's \\ corner"
      const attributes = { note: "it's '' \\' done" }
      yield* productCall(s, "PUT", "/quote-1", { title: "Quoted shelf", category, attributes })
      yield* waitUntilSynced(s)
      // Meaning side only: its values are written into the statement as literals (HybridSearch.withVectorSettings).
      expect(hitIds(yield* search({ query: "shelf", category, attributes, semanticRatio: 1 }))).toEqual(["quote-1"])
      expect(hitIds(yield* search({ query: "shelf", category: "Kid's", semanticRatio: 1 }))).toEqual([])
    }))

  it.effect("a typo or prefix of a word new to the catalog finds it once synced, right after the same search found nothing", () =>
    Effect.gen(function*() {
      const s = yield* shop
      // Keyword side only: the expansions of both words are now kept for a few seconds (SearchEngine.expansionCache).
      const query = { query: "obsidain paperwe", semanticRatio: 0 }
      expect(hitIds(yield* search(query))).not.toContain("obs-1")
      yield* productCall(s, "PUT", "/obs-1", { title: "Obsidian paperweight" })
      yield* waitUntilSynced(s)
      // This instance's indexer forgot them when it stored the new terms.
      expect(hitIds(yield* search(query))[0]).toBe("obs-1")
    }))
})

layer(TestApp({ DASTYAR_SEARCH_ENABLED: "false" }), { excludeTestServices: true })(
  "products: search disabled",
  (it) => {
    it.effect("search answers 503 products.search_unavailable while writes and reads work", () =>
      Effect.gen(function*() {
        const s = yield* setupAccount()
        const written = yield* productCall(s, "PUT", "/a", { title: "Teapot" })
        expect(written.status).toBe(200)
        expect((yield* productCall(s, "GET", "/a")).status).toBe(200)
        const reply = yield* productCall(s, "POST", "/search", { query: "teapot" })
        expect(reply.status).toBe(503)
        expect(reply.json).toMatchObject({
          data: null,
          response: { status: "service_unavailable", code: "products.search_unavailable" }
        })
      }))
  }
)

layer(TestApp(), { excludeTestServices: true })("products: search with words too long for edit distance", (it) => {
  it.effect("a 300-letter word in the catalog or the query is searched, not a 500", () =>
    Effect.gen(function*() {
      const s = yield* setupAccount()
      const long = "z".repeat(300)
      const imported = yield* productCall(s, "POST", "/import", {
        products: [{ externalId: "long-1", title: `${long} lamp` }, { externalId: "zebra-1", title: "Zebra lamp" }]
      })
      expect(imported.status).toBe(200)
      yield* waitUntilSynced(s)
      // `zebrq` is within one typo of `zebra` and shares its first letter with the long term.
      expect(hitIds(yield* productCall(s, "POST", "/search", { query: "zebrq lamp" }))[0]).toBe("zebra-1")
      const longQuery = yield* productCall(s, "POST", "/search", { query: `${"z".repeat(299)}y` })
      expect(longQuery.status).toBe(200)
    }))
})

layer(TestApp(), { excludeTestServices: true })(
  "products: search leaving out the commonest word's own products",
  (it) => {
    it.effect("a page the rarer words fill has none of them; a page they do not fill follows with them", () =>
      Effect.gen(function*() {
        const s = yield* setupAccount()
        // Written first, so that catalog order would put them ahead if they were read.
        const shirts = Array.from({ length: 30 }, (_, i) => ({ externalId: `shirt-${i}`, title: `Red shirt ${i}` }))
        const redKettles = Array.from({ length: 3 }, (_, i) => ({ externalId: `red-${i}`, title: `Red kettle ${i}` }))
        const steelKettles = Array.from(
          { length: 5 },
          (_, i) => ({ externalId: `steel-${i}`, title: `Steel kettle ${i}` })
        )
        yield* productCall(s, "POST", "/import", { products: [...shirts, ...redKettles, ...steelKettles] })
        yield* waitUntilSynced(s)
        const search = (body: Record<string, unknown>) =>
          productCall(s, "POST", "/search", { query: "red kettle", ...body }).pipe(Effect.map(hitIds))
        for (const semanticRatio of [0, 0.3]) {
          const short = yield* search({ limit: 5, semanticRatio })
          expect(short.slice(0, 3).sort()).toEqual(["red-0", "red-1", "red-2"])
          expect(short.slice(3).every((id) => id.startsWith("steel-"))).toBe(true)
          expect(short).toHaveLength(5)
          const long = yield* search({ limit: 20, semanticRatio })
          expect(long.slice(0, 3).sort()).toEqual(["red-0", "red-1", "red-2"])
          expect(long.slice(3, 8).sort()).toEqual(steelKettles.map(({ externalId }) => externalId))
          expect(long.slice(8)).toHaveLength(12)
          expect(long.slice(8).every((id) => id.startsWith("shirt-"))).toBe(true)
          // The second page ranks as the first one's continuation.
          const next = yield* search({ limit: 5, offset: 5, semanticRatio })
          expect(next).toEqual(long.slice(5, 10))
        }
      }))
  }
)
