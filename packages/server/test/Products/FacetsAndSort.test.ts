import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { pick, setupAccount, TestApp } from "../support/TestApp"
import { hitIds, invalidProperties, productCall, waitUntilSynced } from "./support"

const catalog = [
  { externalId: "k-1", title: "Steel kettle", category: "Kitchen", attributes: { color: "Red" }, price: 30 },
  { externalId: "k-2", title: "Glass kettle", category: "kitchen", attributes: { color: "blue" }, price: 10 },
  { externalId: "k-3", title: "Travel kettle", category: "Outdoor", attributes: { color: "red" } },
  { externalId: "k-4", title: "Red kettle 1.7 l", category: "Kitchen", attributes: { color: "red" }, price: 50 },
  { externalId: "k-5", title: "Kettle descaler", category: "Cleaning", price: 5 },
  { externalId: "b-1", title: "Red blender", category: "Kitchen", attributes: { color: "red" }, price: 1 }
]

layer(TestApp(), { excludeTestServices: true })("search facets and sort", (it) => {
  const shop = Effect.gen(function*() {
    const s = yield* setupAccount()
    // One at a time, so that catalog order is creation order ("newest").
    for (const product of catalog) yield* productCall(s, "POST", "", product)
    yield* waitUntilSynced(s)
    return s
  }).pipe(Effect.cached, Effect.runSync)

  const search = (body: Record<string, unknown>) =>
    Effect.flatMap(shop, (s) => productCall(s, "POST", "/search", { semanticRatio: 0, ...body }))

  it.effect("facets count every match of the query and filters, not the page; values as written, by key", () =>
    Effect.gen(function*() {
      const reply = yield* search({ query: "kettle", limit: 1, facets: ["category", "color", "size"] })
      expect(reply.status).toBe(200)
      expect(hitIds(reply)).toHaveLength(1)
      expect(pick(reply.json, "data", "facetDistribution")).toEqual({
        category: { Kitchen: 3, Outdoor: 1, Cleaning: 1 },
        color: { red: 3, blue: 1 },
        size: {}
      })
      const filtered = yield* search({ query: "kettle", facets: ["category"], maxPrice: 40 })
      expect(pick(filtered.json, "data", "facetDistribution")).toEqual({ category: { Kitchen: 2, Cleaning: 1 } })
      // Without `facets` the answer is as before.
      expect(pick((yield* search({ query: "kettle" })).json, "data", "facetDistribution")).toBe(undefined)
    }))

  it.effect("a query's facets count the products matching all its words when there are some", () =>
    Effect.gen(function*() {
      // "red" in the title or in an attribute value: k-1, k-3, k-4, not the red blender.
      const reply = yield* search({ query: "red kettle", facets: ["category"] })
      expect(pick(reply.json, "data", "facetDistribution")).toEqual({ category: { Kitchen: 2, Outdoor: 1 } })
    }))

  it.effect("sort orders the relevant matches by price (none last) or newest; relevance decides what matches", () =>
    Effect.gen(function*() {
      expect(hitIds(yield* search({ query: "kettle", sort: "price:asc" }))).toEqual(["k-5", "k-2", "k-1", "k-4", "k-3"])
      expect(hitIds(yield* search({ query: "kettle", sort: "price:desc" }))).toEqual([
        "k-4",
        "k-1",
        "k-2",
        "k-5",
        "k-3"
      ])
      expect(hitIds(yield* search({ query: "kettle", sort: "newest" }))).toEqual(["k-5", "k-4", "k-3", "k-2", "k-1"])
      // Both words first, sorted among themselves (whatever field matched), then one of them.
      expect(hitIds(yield* search({ query: "red kettle", sort: "price:asc" }))).toEqual([
        "k-1",
        "k-4",
        "k-3",
        "b-1",
        "k-5",
        "k-2"
      ])
      // Pages of a sorted search follow each other.
      const second = hitIds(yield* search({ query: "kettle", sort: "price:asc", limit: 2, offset: 2 }))
      expect(second).toEqual(["k-1", "k-4"])
    }))

  it.effect("an unknown sort or too many facets is a 400 naming the field", () =>
    Effect.gen(function*() {
      expect(invalidProperties(yield* search({ query: "kettle", sort: "cheapest" }))).toEqual(["sort"])
      const many = Array.from({ length: 11 }, (_, i) => `f${i}`)
      expect(invalidProperties(yield* search({ query: "kettle", facets: many }))).toEqual(["facets"])
    }))
})
