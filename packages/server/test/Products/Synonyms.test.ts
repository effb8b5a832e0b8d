import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"
import { hitIds, productCall, type Shop, waitUntilSynced } from "./support"

const catalog = [
  { externalId: "m-1", title: "Samsung موبایل A55" },
  { externalId: "m-2", title: "Apple iPhone 15" },
  { externalId: "m-3", title: "Phone charger 20 W" },
  { externalId: "m-4", title: "تلفن همراه نوکیا" },
  { externalId: "m-5", title: "Leather wallet" },
  { externalId: "m-6", title: "Sofa cover" }
]

const synonymsCall = (shop: Shop, method: "GET" | "POST" | "PUT" | "DELETE", rest = "", body?: unknown) =>
  call(method, `/v1/assistants/${shop.assistantId}/synonyms${rest}`, {
    token: shop.key,
    ...(body === undefined ? {} : { body })
  })

layer(TestApp(), { excludeTestServices: true })("synonyms", (it) => {
  const shop = Effect.gen(function*() {
    const s = yield* setupAccount()
    yield* productCall(s, "POST", "/import", { products: catalog })
    yield* waitUntilSynced(s)
    return s
  }).pipe(Effect.cached, Effect.runSync)

  // Keyword side only: the offline meaning side must not be what finds a synonym.
  const search = (s: Shop, query: string) =>
    productCall(s, "POST", "/search", { query, semanticRatio: 0 }).pipe(Effect.map(hitIds))

  it.effect("a multi-way set: each term finds the others at once, with no re-indexing; deleting it undoes that", () =>
    Effect.gen(function*() {
      const s = yield* shop
      expect(yield* search(s, "گوشی")).toEqual([])
      const added = yield* synonymsCall(s, "POST", "", { synonyms: ["گوشی", "موبایل", "تلفن همراه", "phone"] })
      expect(added.status).toBe(201)
      const id = pickString(added.json, "data", "id")
      expect(pick(added.json, "data", "root")).toBe(null)
      const found = yield* search(s, "گوشی")
      expect(found).toEqual(expect.arrayContaining(["m-1", "m-3", "m-4"]))
      expect(found).not.toContain("m-5")
      expect(yield* search(s, "موبایل")).toEqual(expect.arrayContaining(["m-1", "m-3", "m-4"]))
      expect((yield* synonymsCall(s, "DELETE", `/${id}`)).status).toBe(200)
      expect(yield* search(s, "گوشی")).toEqual([])
      const gone = yield* synonymsCall(s, "DELETE", `/${id}`)
      expect(gone.status).toBe(404)
      expect(pick(gone.json, "response", "code")).toBe("synonyms.not_found")
    }))

  it.effect("a one-way rule: the root finds the synonyms, the synonyms do not find the root", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const replaced = yield* synonymsCall(s, "PUT", "", { synonyms: [{ root: "iphone", synonyms: ["phone"] }] })
      expect(replaced.status).toBe(200)
      expect(pick(replaced.json, "data", "count")).toBe(1)
      const fromRoot = yield* search(s, "iphone")
      // The very word ranks above a synonym.
      expect(fromRoot[0]).toBe("m-2")
      expect(fromRoot).toContain("m-3")
      expect(yield* search(s, "phone")).not.toContain("m-2")
      const listed = yield* synonymsCall(s, "GET")
      expect(pick(listed.json, "data", "list", 0, "root")).toBe("iphone")
      yield* synonymsCall(s, "PUT", "", { synonyms: [] })
      expect(yield* search(s, "iphone")).toEqual(["m-2"])
    }))

  it.effect("a multi-way set needs two terms; a one-way rule one", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const single = yield* synonymsCall(s, "POST", "", { synonyms: ["sofa"] })
      expect(single.status).toBe(400)
      expect(pick(single.json, "fields", 0, "property")).toBe("synonyms")
      expect((yield* synonymsCall(s, "POST", "", { root: "couch", synonyms: ["sofa"] })).status).toBe(201)
      expect(yield* search(s, "couch")).toEqual(["m-6"])
      yield* synonymsCall(s, "PUT", "", { synonyms: [] })
    }))

  it.effect("another account's assistant is 404 on every synonym route, and its sets never apply elsewhere", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const other = yield* setupAccount()
      const foreign: Shop = { key: other.key, assistantId: s.assistantId }
      for (
        const [method, rest, body] of [
          ["GET", "", undefined],
          ["POST", "", { synonyms: ["a", "b"] }],
          ["PUT", "", { synonyms: [] }],
          ["DELETE", "/syn_x", undefined]
        ] as const
      ) {
        const reply = yield* synonymsCall(foreign, method, rest, body)
        expect(reply.status).toBe(404)
        expect(pick(reply.json, "response", "code")).toBe("assistants.not_found")
      }
      // The other account's own set, and its id tried on this shop.
      const theirs = yield* synonymsCall(other, "POST", "", { synonyms: ["wallet", "sofa"] })
      expect(theirs.status).toBe(201)
      const deleted = yield* synonymsCall(s, "DELETE", `/${pickString(theirs.json, "data", "id")}`)
      expect(deleted.status).toBe(404)
      expect(yield* search(s, "wallet")).toEqual(["m-5"])
    }))
})
