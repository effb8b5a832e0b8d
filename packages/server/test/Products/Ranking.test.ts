/**
 * Each ranking rule of the search engine pinned by a small catalog, through
 * `POST /products/search` with its default settings. In every case the
 * product that should lose is written first, so catalog order cannot explain
 * the result.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { setupAccount, TestApp } from "../support/TestApp"
import { hitIds, productCall, waitUntilSynced } from "./support"

const catalog = [
  // words matched, weighted by rarity
  { externalId: "w-1", title: "Walnut bowl" },
  { externalId: "w-2", title: "Bamboo cutting board" },
  { externalId: "w-3", title: "Walnut cutting board" },
  { externalId: "k-1", title: "Kitchenor laptop 14 inch" },
  { externalId: "k-2", title: "Kitchenor cookbook" },
  { externalId: "k-3", title: "Kitchenor toaster" },
  { externalId: "k-4", title: "Kitchenor kettle" },
  { externalId: "b-1", title: "Acme blender" },
  { externalId: "b-2", title: "Zest blender 600 W" },
  { externalId: "b-3", title: "Kitchenor blender" },
  // a product type (title and category) outweighs a rarer brand (title and attribute)
  { externalId: "z-1", title: "Zorbo grill", attributes: { brand: "Zorbo" } },
  { externalId: "z-2", title: "Zorbo fan", attributes: { brand: "Zorbo" } },
  { externalId: "z-3", title: "Glass teapot", category: "Teapots" },
  { externalId: "z-4", title: "Clay teapot", category: "Teapots" },
  { externalId: "z-5", title: "Porcelain teapot", category: "Teapots" },
  // a brand in the title and an attribute weighs as an attribute; a type in the title alone outweighs it
  { externalId: "q-1", title: "Quorra compass", attributes: { brand: "Quorra" } },
  { externalId: "q-2", title: "Brass lantern" },
  { externalId: "q-3", title: "Quorra lantern", attributes: { brand: "Quorra" } },
  // a particle counts as a word only when the query has nothing else
  { externalId: "u-1", title: "Pop-Up Crate" },
  { externalId: "u-2", title: "Crate Lift Trolley" },
  // typos
  { externalId: "t-1", title: "Marlbe tray" },
  { externalId: "t-2", title: "Marble coaster" },
  // proximity
  { externalId: "p-1", title: "Coffee mug and pepper grinder" },
  { externalId: "p-2", title: "Electric coffee grinder" },
  // field
  { externalId: "teak-9", title: "Shelf" },
  { externalId: "f-1", title: "Side table", attributes: { wood: "teak" } },
  { externalId: "f-2", title: "Garden bench", category: "Teak furniture" },
  { externalId: "f-3", title: "Teak stool" },
  // exactness
  { externalId: "e-1", title: "Panini press" },
  { externalId: "e-2", title: "Frying pan" },
  // typo rules
  { externalId: "r-1", title: "Condenser microphone" },
  { externalId: "r-2", title: "Spiral notebook" },
  { externalId: "r-3", title: "Gaming laptop" },
  { externalId: "r-4", title: "Phone case for iPhone 13" },
  { externalId: "r-5", title: "Rugged case for Galaxy S23" }
]

layer(TestApp(), { excludeTestServices: true })("search ranking rules", (it) => {
  const shop = Effect.gen(function*() {
    const s = yield* setupAccount()
    yield* productCall(s, "POST", "/import", { products: catalog })
    yield* waitUntilSynced(s)
    return s
  }).pipe(Effect.cached, Effect.runSync)

  const search = (query: string, extra: Record<string, unknown> = {}) =>
    Effect.flatMap(shop, (s) => productCall(s, "POST", "/search", { query, ...extra })).pipe(Effect.map(hitIds))

  it.effect("words: more query words matched first", () =>
    Effect.gen(function*() {
      const ids = yield* search("walnut cutting board")
      expect(ids.slice(0, 3)).toEqual(["w-3", "w-2", "w-1"])
    }))

  it.effect("words: a rare word outweighs a common one (every blender before the brand's other products)", () =>
    Effect.gen(function*() {
      const ids = yield* search("Kitchenor blender")
      expect(ids[0]).toBe("b-3")
      expect(ids.slice(1, 3).sort()).toEqual(["b-1", "b-2"])
      expect(ids.slice(3, 7).sort()).toEqual(["k-1", "k-2", "k-3", "k-4"])
    }))

  it.effect("words: a word in the title and the category, the product's type, outweighs a rarer brand", () =>
    Effect.gen(function*() {
      const ids = yield* search("Zorbo teapot")
      expect(ids.slice(0, 3).sort()).toEqual(["z-3", "z-4", "z-5"])
      expect(ids.slice(3, 5).sort()).toEqual(["z-1", "z-2"])
    }))

  it.effect("words: a brand the title and an attribute hold weighs as an attribute, below a type in the title", () =>
    Effect.gen(function*() {
      const ids = yield* search("Quorra lantern")
      expect(ids.slice(0, 3)).toEqual(["q-3", "q-2", "q-1"])
    }))

  it.effect("words: a particle counts only when the query has nothing else, as a stop word", () =>
    Effect.gen(function*() {
      // "up" is no word of the need: the trolley holds two of its words, the crate one and the particle.
      expect((yield* search("lift up crate")).slice(0, 2)).toEqual(["u-2", "u-1"])
      expect((yield* search("up"))[0]).toBe("u-1")
    }))

  it.effect("typos: fewer typos first", () =>
    Effect.gen(function*() {
      expect((yield* search("marble")).slice(0, 2)).toEqual(["t-2", "t-1"])
    }))

  it.effect("proximity: words closer together first", () =>
    Effect.gen(function*() {
      expect((yield* search("coffee grinder")).slice(0, 2)).toEqual(["p-2", "p-1"])
    }))

  it.effect("field: title, then classification, then attribute values, then externalId", () =>
    Effect.gen(function*() {
      expect((yield* search("teak")).slice(0, 4)).toEqual(["f-3", "f-2", "f-1", "teak-9"])
    }))

  it.effect("exactness: a whole word beats a prefix", () =>
    Effect.gen(function*() {
      expect((yield* search("pan")).slice(0, 2)).toEqual(["e-2", "e-1"])
    }))

  it.effect("typo budget: none under 5 letters, 1 from 5, 2 from 9; a transposition is one typo", () =>
    Effect.gen(function*() {
      const keywordOnly = { semanticRatio: 0 }
      // 9 letters: two typos ("ph" → "f" and a dropped "e").
      expect(yield* search("microfone condenser", keywordOnly)).toContain("r-1")
      expect((yield* search("micrphoen", keywordOnly))[0]).toBe("r-1")
      // 7 letters: one typo, not two.
      expect((yield* search("notebok", keywordOnly))[0]).toBe("r-2")
      expect(yield* search("notbok", keywordOnly)).not.toContain("r-2")
      // 4 letters: none ("cast" is not "case").
      expect(yield* search("cast", keywordOnly)).toEqual([])
      // Transposition counts once: within the 1 typo of a 6-letter word.
      expect((yield* search("latpop", keywordOnly))[0]).toBe("r-3")
    }))

  it.effect("no typos on numbers: 14 is not 13, s24 is not s23", () =>
    Effect.gen(function*() {
      const keywordOnly = { semanticRatio: 0 }
      expect(yield* search("13", keywordOnly)).toEqual(["r-4"])
      expect(yield* search("12", keywordOnly)).toEqual([])
      expect(yield* search("s24", keywordOnly)).toEqual([])
      expect(yield* search("s23", keywordOnly)).toEqual(["r-5"])
    }))

  it.effect("the last word also matches as a prefix (search as you type), earlier words do not", () =>
    Effect.gen(function*() {
      const keywordOnly = { semanticRatio: 0 }
      expect((yield* search("spiral note", keywordOnly))[0]).toBe("r-2")
      expect(yield* search("micro", keywordOnly)).toEqual(["r-1"])
      expect(yield* search("micro spiral", keywordOnly)).toEqual(["r-2"])
    }))
})
