/**
 * Meaning without an embeddings provider: a query finds a product by a word
 * WordNet relates to its title, below every product holding the word itself;
 * a query no title answers is read again with what its words stand for, in
 * the shop's own words.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { TestApp } from "../support/TestApp"
import { searchHits, sharedShop } from "./support"

const catalog = [
  { externalId: "m-1", title: "Velvet sofa" },
  { externalId: "m-2", title: "Hiking backpack" },
  { externalId: "m-3", title: "Sneaker Max", attributes: { color: "white" } },
  { externalId: "m-4", title: "Couch cover" },
  { externalId: "m-5", title: "White mug" },
  { externalId: "m-6", title: "Canvas tote bag" },
  { externalId: "m-7", title: "Cotton canvas wool steel wire basket" }
]

layer(TestApp(), { excludeTestServices: true })("search by related words", (it) => {
  const shop = sharedShop(catalog)

  const search = searchHits(shop, { semanticRatio: 0 })

  it.effect("a synonym or a kind of the title's thing finds it", () =>
    Effect.gen(function*() {
      expect((yield* search("rucksack"))[0]).toBe("m-2")
      expect((yield* search("footwear"))[0]).toBe("m-3")
    }))

  it.effect("a product holding the word itself ranks above one found by a related word", () =>
    Effect.gen(function*() {
      expect((yield* search("couch")).slice(0, 2)).toEqual(["m-4", "m-1"])
    }))

  it.effect("a colour relates to nothing: only products holding it are found", () =>
    Effect.gen(function*() {
      expect((yield* search("white")).sort()).toEqual(["m-3", "m-5"])
    }))

  it.effect("each title word brings its closest related words, however many words come before it", () =>
    Effect.gen(function*() {
      expect(yield* search("handbasket")).toContain("m-7")
    }))

  // The second look is the meaning side's: keyword search alone (`semanticRatio: 0`) never takes it.
  const hybrid = searchHits(shop)

  it.effect("a query no title answers finds what its words stand for, in the shop's own words", () =>
    Effect.gen(function*() {
      expect(yield* hybrid("knapsack")).toContain("m-6")
      expect(yield* search("knapsack")).not.toContain("m-6")
    }))

  it.effect("a query a title answers is not read again; a word no sense of which the shop sells finds nothing", () =>
    Effect.gen(function*() {
      expect(yield* hybrid("backpack")).not.toContain("m-6")
      expect(yield* hybrid("violins")).toEqual([])
    }))
})
