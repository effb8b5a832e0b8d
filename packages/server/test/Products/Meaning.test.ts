/**
 * Meaning without an embeddings provider: a query finds a product by a word
 * WordNet relates to its title, below every product holding the word itself.
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
  { externalId: "m-5", title: "White mug" }
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
})
