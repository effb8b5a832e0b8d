import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"
import { invalidProperties, listOf, nextCursorOf, productCall, type Shop, waitUntilSynced } from "./support"

const teapot = {
  externalId: "sku-1042",
  title: "Ceramic teapot, 1 l",
  category: "Kitchen",
  subcategory: "Tea",
  attributes: { color: "blue", capacityMl: 1000, dishwasherSafe: true },
  description: "Hand glazed.",
  imageUrl: "https://shop.example.com/img/1042.jpg",
  url: "https://shop.example.com/p/1042",
  price: 890000,
  currency: "IRR"
}

layer(TestApp(), { excludeTestServices: true })("products: writes and reads", (it) => {
  // Each test makes its own shop, so tests stay independent.
  const shop = setupAccount()

  it.effect("POST creates (201) with defaults; a second POST is 409; GET reads it; unknown is 404", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const created = yield* productCall(s, "POST", "", teapot)
      expect(created.status).toBe(201)
      expect(created.json).toMatchObject({
        data: { ...teapot, inStock: true, indexState: "pending", indexedAt: null },
        response: { status: "success" }
      })
      // Numbers and booleans keep their type.
      expect(pick(created.json, "data", "attributes", "capacityMl")).toBe(1000)
      expect(pick(created.json, "data", "attributes", "dishwasherSafe")).toBe(true)
      const again = yield* productCall(s, "POST", "", teapot)
      expect(again.status).toBe(409)
      expect(again.json).toMatchObject({
        data: null,
        response: { status: "conflict", code: "products.external_id_taken" }
      })
      const read = yield* productCall(s, "GET", "/sku-1042")
      expect(read.status).toBe(200)
      expect(pick(read.json, "data", "title")).toBe(teapot.title)
      const missing = yield* productCall(s, "GET", "/nope")
      expect(missing.status).toBe(404)
      expect(missing.json).toMatchObject({ data: null, response: { status: "not_found", code: "products.not_found" } })
    }))

  it.effect("the indexer syncs a written product and sets indexedAt", () =>
    Effect.gen(function*() {
      const s = yield* shop
      yield* productCall(s, "PUT", "/sync-1", { title: "Green kettle" })
      yield* waitUntilSynced(s)
      const read = yield* productCall(s, "GET", "/sync-1")
      expect(pick(read.json, "data", "indexState")).toBe("synced")
      expect(typeof pick(read.json, "data", "indexedAt")).toBe("string")
    }))

  it.effect("PUT replaces fully (a field not sent is cleared); sending the same twice changes nothing", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const first = yield* productCall(s, "PUT", "/put-1", { ...teapot, externalId: undefined, inStock: false })
      expect(first.status).toBe(200)
      const replaced = yield* productCall(s, "PUT", "/put-1", { title: "Plain teapot" })
      expect(replaced.json).toMatchObject({
        data: {
          externalId: "put-1",
          title: "Plain teapot",
          category: null,
          subcategory: null,
          attributes: {},
          description: null,
          imageUrl: null,
          url: null,
          price: null,
          currency: null,
          inStock: true
        }
      })
      yield* waitUntilSynced(s)
      const before = yield* productCall(s, "GET", "/put-1")
      const same = yield* productCall(s, "PUT", "/put-1", { title: "Plain teapot" })
      expect(pick(same.json, "data", "updatedAt")).toBe(pick(before.json, "data", "updatedAt"))
      expect(pick(same.json, "data", "indexState")).toBe("synced")
    }))

  it.effect("PATCH changes only sent fields, null clears, attributes replaced whole; display-only changes keep the index", () =>
    Effect.gen(function*() {
      const s = yield* shop
      yield* productCall(s, "PUT", "/patch-1", { ...teapot, externalId: undefined })
      yield* waitUntilSynced(s)
      const display = yield* productCall(s, "PATCH", "/patch-1", {
        description: null,
        imageUrl: "https://shop.example.com/new.jpg",
        url: null,
        currency: "USD"
      })
      expect(display.status).toBe(200)
      expect(display.json).toMatchObject({
        data: {
          description: null,
          imageUrl: "https://shop.example.com/new.jpg",
          url: null,
          currency: "USD",
          indexState: "synced"
        }
      })
      const searchable = yield* productCall(s, "PATCH", "/patch-1", { attributes: { color: "red" }, price: null })
      expect(searchable.json).toMatchObject({
        data: {
          title: teapot.title,
          category: "Kitchen",
          attributes: { color: "red" },
          price: null,
          indexState: "pending"
        }
      })
      const missing = yield* productCall(s, "PATCH", "/nope", { title: "x" })
      expect(missing.status).toBe(404)
    }))

  it.effect("DELETE removes at once (404 after); bulk delete counts deleted and notFound", () =>
    Effect.gen(function*() {
      const s = yield* shop
      yield* productCall(s, "PUT", "/del-1", { title: "One" })
      yield* productCall(s, "PUT", "/del-2", { title: "Two" })
      const deleted = yield* productCall(s, "DELETE", "/del-1")
      expect(deleted.status).toBe(200)
      expect(deleted.json).toMatchObject({ data: null, response: { status: "success" } })
      expect((yield* productCall(s, "GET", "/del-1")).status).toBe(404)
      expect((yield* productCall(s, "DELETE", "/del-1")).status).toBe(404)
      const bulk = yield* productCall(s, "POST", "/delete", { externalIds: ["del-2", "del-1", "never"] })
      expect(bulk.json).toMatchObject({ data: { deleted: 1, notFound: 2 } })
    }))

  it.effect("every field rule is a per-field validation error", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const reply = yield* productCall(s, "POST", "", {
        externalId: "has space/slash",
        title: "",
        category: "c".repeat(501),
        attributes: { price: 1, color: "x".repeat(501) },
        description: "d".repeat(10001),
        imageUrl: "ftp://example.com/a.jpg",
        url: `https://example.com/${"a".repeat(2048)}`,
        price: -1,
        currency: "TOOLONGCUR",
        inStock: "yes"
      })
      expect(reply.status).toBe(400)
      expect(reply.json).toMatchObject({ data: null, response: { status: "bad_request" } })
      const properties = invalidProperties(reply)
      for (
        const property of [
          "externalId",
          "title",
          "category",
          "description",
          "imageUrl",
          "url",
          "price",
          "currency",
          "inStock"
        ]
      ) {
        expect(properties).toContain(property)
      }
      expect(properties.some((p) => p.startsWith("attributes"))).toBe(true)
      const reserved = yield* productCall(s, "PUT", "/r-1", { title: "x", attributes: { in_stock: true } })
      expect(reserved.status).toBe(400)
      const tooMany = yield* productCall(s, "PUT", "/r-2", {
        title: "x",
        attributes: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]))
      })
      expect(tooMany.status).toBe(400)
      const longKey = yield* productCall(s, "PUT", "/r-3", { title: "x", attributes: { ["k".repeat(201)]: 1 } })
      expect(longKey.status).toBe(400)
      expect(invalidProperties(longKey).some((p) => p.startsWith("attributes"))).toBe(true)
      expect((yield* productCall(s, "PUT", "/r-4", { title: "x", attributes: { ["k".repeat(200)]: 1 } })).status).toBe(
        200
      )
      expect((yield* productCall(s, "GET", "/r-1")).status).toBe(404)
      expect((yield* productCall(s, "GET", "/r-3")).status).toBe(404)
    }))

  it.effect("a body over 3 MB is refused before parsing with 413 in the envelope", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const products = Array.from(
        { length: 400 },
        (_, i) => ({ externalId: `big-${i}`, title: "t", description: "d".repeat(9000) })
      )
      const reply = yield* productCall(s, "POST", "/import", { products })
      expect(reply.status).toBe(413)
      expect(reply.json).toMatchObject({ data: null, response: { code: "request.payload_too_large" } })
      expect((yield* productCall(s, "GET", "/big-0")).status).toBe(404)
    }))

  it.effect("another account's assistant is 404 assistants.not_found on every product route", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const other = yield* setupAccount()
      const foreign: Shop = { key: other.key, assistantId: s.assistantId }
      for (
        const [method, rest, body] of [
          ["GET", "", undefined],
          ["GET", "/sku-1042", undefined],
          ["PUT", "/x", { title: "x" }],
          ["POST", "/search", { query: "teapot" }]
        ] as const
      ) {
        const reply = yield* productCall(foreign, method, rest, body)
        expect(reply.status).toBe(404)
        expect(pick(reply.json, "response", "code")).toBe("assistants.not_found")
      }
    }))
})

layer(TestApp(), { excludeTestServices: true })("products: import", (it) => {
  const shop = setupAccount()
  const feed = Array.from({ length: 5 }, (_, i) => ({ externalId: `imp-${i}`, title: `Item ${i}`, price: i }))

  it.effect("import creates, then counts identical products as unchanged without touching them", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const first = yield* productCall(s, "POST", "/import", { products: feed })
      expect(first.json).toMatchObject({ data: { created: 5, updated: 0, unchanged: 0 } })
      yield* waitUntilSynced(s)
      const before = yield* productCall(s, "GET", "/imp-0")
      const changed = feed.map((p, i) => i === 1 ? { ...p, title: "Renamed" } : p)
      const second = yield* productCall(s, "POST", "/import", { products: changed })
      expect(second.json).toMatchObject({ data: { created: 0, updated: 1, unchanged: 4 } })
      const after = yield* productCall(s, "GET", "/imp-0")
      expect(pick(after.json, "data", "updatedAt")).toBe(pick(before.json, "data", "updatedAt"))
      expect(pick(after.json, "data", "indexedAt")).toBe(pick(before.json, "data", "indexedAt"))
      expect(pick(after.json, "data", "indexState")).toBe("synced")
      // The changed product was written and indexed again (the indexer may already have caught up).
      const before1 = yield* productCall(s, "GET", "/imp-0")
      yield* waitUntilSynced(s)
      const renamed = yield* productCall(s, "GET", "/imp-1")
      expect(pick(renamed.json, "data", "title")).toBe("Renamed")
      expect(String(pick(renamed.json, "data", "indexedAt")) > String(pick(before1.json, "data", "indexedAt"))).toBe(
        true
      )
    }))

  it.effect("import is all-or-nothing: one invalid element stores none; a repeated externalId is 400", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const bad = yield* productCall(s, "POST", "/import", {
        products: [{ externalId: "aon-1", title: "Fine" }, { externalId: "aon-2", title: "" }]
      })
      expect(bad.status).toBe(400)
      expect(JSON.stringify(pick(bad.json, "fields"))).toContain("products")
      expect((yield* productCall(s, "GET", "/aon-1")).status).toBe(404)
      const duplicate = yield* productCall(s, "POST", "/import", {
        products: [{ externalId: "dup-1", title: "A" }, { externalId: "dup-1", title: "B" }]
      })
      expect(duplicate.status).toBe(400)
      expect(duplicate.json).toMatchObject({ data: null, response: { code: "products.duplicate_external_id" } })
      expect((yield* productCall(s, "GET", "/dup-1")).status).toBe(404)
      const tooMany = yield* productCall(s, "POST", "/import", {
        products: Array.from({ length: 1001 }, (_, i) => ({ externalId: `m-${i}`, title: "t" }))
      })
      expect(tooMany.status).toBe(400)
    }))

  it.effect("an import's invalid products are named by their place in the whole list, however long it is", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const products = Array.from({ length: 300 }, (_, i) => ({ externalId: `long-${i}`, title: `Item ${i}` }))
      const reply = yield* productCall(s, "POST", "/import", {
        products: products.map((product, i) => (i === 7 || i === 250 ? { ...product, title: "", price: -1 } : product))
      })
      expect(reply.status).toBe(400)
      expect(invalidProperties(reply)).toEqual([
        "products.7.title",
        "products.7.price",
        "products.250.title",
        "products.250.price"
      ])
      expect((yield* productCall(s, "GET", "/long-0")).status).toBe(404)
      const fine = yield* productCall(s, "POST", "/import", { products })
      expect(fine.json).toMatchObject({ data: { created: 300, updated: 0, unchanged: 0 } })
      expect((yield* productCall(s, "POST", "/import", { products: "none" })).status).toBe(400)
      // A body that is not JSON, or holds a NUL, is answered as on every other route.
      for (const text of ["{\"products\": [", "{\"products\": [{\"externalId\": \"n\", \"title\": \"a\\u0000b\"}]}"]) {
        const raw = { contentType: "application/json", text }
        const [imported, created] = [
          yield* call("POST", `/v1/assistants/${s.assistantId}/products/import`, { token: s.key, rawBody: raw }),
          yield* call("POST", `/v1/assistants/${s.assistantId}/products`, { token: s.key, rawBody: raw })
        ]
        expect(imported.status).toBe(400)
        expect(pick(imported.json, "response", "code")).toBe(pick(created.json, "response", "code"))
      }
    }))
})

layer(TestApp(), { excludeTestServices: true })("products: list", (it) => {
  const shop = setupAccount()

  it.effect("pages in order of first creation with an opaque cursor; null on the last page; no count", () =>
    Effect.gen(function*() {
      const s = yield* shop
      // More than ten, so positions gain a digit (an order by text would put 10 before 9).
      const products = Array.from({ length: 14 }, (_, i) => ({ externalId: `l-${i}`, title: `List item ${i}` }))
      yield* productCall(s, "POST", "/import", { products })
      // Replacing a product keeps its place.
      yield* productCall(s, "PUT", "/l-0", { title: "List item zero" })
      const seen: Array<string> = []
      let cursor: string | null = null
      let pages = 0
      do {
        const reply = yield* productCall(s, "GET", `?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`)
        expect(reply.status).toBe(200)
        expect(pick(reply.json, "data", "count")).toBeUndefined()
        seen.push(...listOf(reply).map((p) => p.externalId))
        cursor = nextCursorOf(reply)
        pages++
      } while (cursor !== null)
      expect(pages).toBe(3)
      expect(seen).toEqual(products.map((p) => p.externalId))
      const one = yield* productCall(s, "POST", "/import", {
        products: [products[12], products[9], { externalId: "l-new", title: "New" }]
      })
      expect(one.json).toMatchObject({ data: { created: 1, unchanged: 2 } })
    }))

  it.effect("a tampered or foreign cursor is a 400, not a 500; limit is checked", () =>
    Effect.gen(function*() {
      const s = yield* shop
      yield* productCall(s, "POST", "/import", {
        products: ["c-1", "c-2", "c-3"].map((externalId) => ({ externalId, title: externalId }))
      })
      const first = yield* productCall(s, "GET", "?limit=2")
      const cursor = pickString(first.json, "data", "nextCursor")
      const [payload, signature] = cursor.split(".")
      const forged = Buffer.from(JSON.stringify([s.assistantId, "1"])).toString("base64url")
      for (
        const bad of [`${forged}.${signature}`, `${payload}.AAAA${signature?.slice(4)}`, "garbage", "", `${cursor}.x`]
      ) {
        const reply = yield* productCall(s, "GET", `?cursor=${encodeURIComponent(bad)}`)
        expect(reply.status).toBe(400)
        expect(pick(reply.json, "response", "code")).toBe("products.invalid_cursor")
      }
      const other = yield* setupAccount()
      const foreign = yield* productCall(
        { key: other.key, assistantId: other.assistantId },
        "GET",
        `?cursor=${encodeURIComponent(cursor)}`
      )
      expect(foreign.status).toBe(400)
      for (const limit of ["0", "201", "abc"]) {
        expect((yield* productCall(s, "GET", `?limit=${limit}`)).status).toBe(400)
      }
    }))

  it.effect("q matches part of the title or externalId ignoring case and Arabic/Persian letter forms; category is exact", () =>
    Effect.gen(function*() {
      const s = yield* shop
      yield* productCall(s, "POST", "/import", {
        products: [
          { externalId: "fa-1", title: "کتاب‌های کودک", category: "كتاب" },
          { externalId: "fa-2", title: "Blue TEAPOT", category: "Kitchen" },
          { externalId: "SKU-Z9", title: "Something", category: "Kitchen Tools" }
        ]
      })
      const ids = (reply: { readonly json: unknown }) => listOf(reply).map((p) => p.externalId)
      expect(ids(yield* productCall(s, "GET", `?q=${encodeURIComponent("كتابهاي")}`))).toEqual(["fa-1"])
      expect(ids(yield* productCall(s, "GET", "?q=teapot"))).toEqual(["fa-2"])
      expect(ids(yield* productCall(s, "GET", "?q=sku-z"))).toEqual(["SKU-Z9"])
      expect(ids(yield* productCall(s, "GET", "?q=100%25"))).toEqual([])
      expect(ids(yield* productCall(s, "GET", "?category=kitchen"))).toEqual(["fa-2"])
      expect(ids(yield* productCall(s, "GET", `?category=${encodeURIComponent("کتاب")}`))).toEqual(["fa-1"])
      expect((yield* productCall(s, "GET", "?state=bogus")).status).toBe(400)
    }))
})

layer(TestApp(), { excludeTestServices: true })("products: unauthenticated", (it) => {
  it.effect("a missing key is the standard 401", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v1/assistants/ast_x/products")
      expect(reply.status).toBe(401)
    }))
})
