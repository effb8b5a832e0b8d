import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { TestApp } from "../support/TestApp"
import { searchHits, sharedShop } from "./support"

const catalog = [
  { externalId: "n-1", title: "Bath towel", attributes: { color: "white" } },
  { externalId: "n-2", title: "Beach towel", attributes: { color: "blue" } },
  { externalId: "n-3", title: "Electric kettle", attributes: { color: "black" } },
  { externalId: "n-4", title: "Gooseneck kettle", attributes: { color: "silver" } },
  { externalId: "n-5", title: "Smoothie blender", attributes: { color: "red" } },
  { externalId: "n-6", title: "Red kettle", attributes: { color: "red" } },
  { externalId: "n-7", title: "Kettle", attributes: { color: "red" } },
  { externalId: "n-8", title: "Toaster", attributes: { color: "white" } },
  { externalId: "n-9", title: "Coffee grinder", attributes: { color: "black" } },
  { externalId: "n-10", title: "Tea cups, set of 4", attributes: { color: "white" } },
  { externalId: "n-11", title: "Cutting board", attributes: { material: "walnut" } },
  { externalId: "n-12", title: "Chef knife", attributes: { material: "steel" } },
  { externalId: "n-13", title: "Dish rack", attributes: { material: "bamboo" } },
  { externalId: "n-14", title: "Oven mitts", attributes: { color: "grey" } }
]

layer(TestApp(), { excludeTestServices: true })("search without noise", (it) => {
  const shop = sharedShop(catalog)

  const search = searchHits(shop)

  it.effect("a query no word of the catalog is close to gets a few guesses at most, not the catalog", () =>
    Effect.gen(function*() {
      expect((yield* search("xylophnoe")).length).toBeLessThanOrEqual(3)
      expect((yield* search("qwzrtp vbnmk")).length).toBeLessThanOrEqual(3)
      // The offline embedder's guesses are not kept at all: its vectors only know the words already searched.
      expect(yield* search("qwzrtp vbnmk")).toEqual([])
      // Asked for the meaning side alone, it still answers with its ranking.
      expect((yield* search("xylophnoe", { semanticRatio: 1 })).length).toBeGreaterThan(3)
    }))

  it.effect("a two-word query ranks title matches of both words above a match of one in an attribute", () =>
    Effect.gen(function*() {
      const ids = yield* search("red kettle")
      expect(ids[0]).toBe("n-6")
      expect(ids.indexOf("n-6")).toBeLessThan(ids.indexOf("n-7"))
      expect(ids.indexOf("n-7")).toBeLessThan(ids.indexOf("n-5"))
    }))

  it.effect("a product type in the title outweighs a rarer colour in an attribute", () =>
    Effect.gen(function*() {
      const ids = yield* search("red kettle")
      expect(ids.indexOf("n-3")).toBeLessThan(ids.indexOf("n-5"))
      expect(ids.indexOf("n-4")).toBeLessThan(ids.indexOf("n-5"))
    }))
})
