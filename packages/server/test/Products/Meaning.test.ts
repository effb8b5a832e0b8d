/**
 * Meaning without an embeddings provider: a query finds a product by a word
 * WordNet relates to its title, below every product holding the word itself;
 * a query no title answers is read again with what its words stand for, in
 * the shop's own words.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { isPartOf } from "../../src/Search/TermDictionary"
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

const partsCatalog = [
  { externalId: "w-1", title: "پارو برف پلاستیکی" },
  { externalId: "w-2", title: "Window Latch, Brass" },
  { externalId: "w-3", title: "Car Wax 500 ml" },
  { externalId: "w-4", title: "جوراب پشمی ساقدار" },
  { externalId: "w-5", title: "دستکش چرمی" }
]

layer(TestApp(), { excludeTestServices: true })("the second look's parts of words", (it) => {
  const shop = sharedShop(partsCatalog)
  const hybrid = searchHits(shop)
  const keyword = searchHits(shop, { semanticRatio: 0 })

  it.effect("a word no title names finds a term it begins, 2 letters or more left", () =>
    Effect.gen(function*() {
      expect((yield* hybrid("برفروبی"))[0]).toBe("w-1")
      expect(yield* keyword("برفروبی")).toEqual([])
    }))

  it.effect("a word no title names finds a term that begins with it, at most 4 letters longer", () =>
    Effect.gen(function*() {
      // Not the last word, which finds the words it begins as anyone typing does.
      expect((yield* hybrid("پشم گوسفند"))[0]).toBe("w-4")
      expect(yield* keyword("پشم گوسفند")).toEqual([])
    }))
})

describe("isPartOf", () => {
  it("a part has 3 letters at least in Persian and 4 in other scripts, where 3 begin too many other words", () => {
    expect(isPartOf("برف", "برفی")).toBe(true)
    expect(isPartOf("cartons", "car")).toBe(false)
    expect(isPartOf("doorstop", "door")).toBe(true)
  })

  it("a longer term gains 4 letters at most, a shorter one leaves 2 at least; stop words and numbers are no parts", () => {
    expect(isPartOf("mill", "millstone")).toBe(false)
    expect(isPartOf("paints", "paint")).toBe(false)
    expect(isPartOf("without", "with")).toBe(false)
    expect(isPartOf("x100", "x1000")).toBe(false)
  })
})
