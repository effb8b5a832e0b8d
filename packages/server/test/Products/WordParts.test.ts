/**
 * Meaning from the parts of compound words, without a provider: a query
 * word finds a product whose title word is a compound holding it, below
 * every product holding the word itself, and a query word no title answers
 * is read again with its parts and colloquial bases, beside a word some
 * title does answer too.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { TestApp } from "../support/TestApp"
import { searchHits, sharedShop } from "./support"

const catalog = [
  { externalId: "p-1", title: "نمکدان سرامیکی" },
  { externalId: "p-2", title: "نمک دریایی یک کیلویی" },
  { externalId: "p-3", title: "اسپری ضدزنگ ۴۰۰ میل" },
  { externalId: "p-4", title: "کیف‌پول چرمی مردانه" },
  { externalId: "p-5", title: "کتاب آشپزی ایرانی" },
  { externalId: "p-6", title: "Steel Lunchbox, 2 tiers" },
  { externalId: "p-7", title: "Picnic blanket" },
  { externalId: "p-8", title: "Carpet runner, grey" },
  { externalId: "p-9", title: "کفش چرم مردانه" },
  { externalId: "p-10", title: "کیف دستی زنانه" }
]

layer(TestApp(), { excludeTestServices: true })("search by the parts of compound words", (it) => {
  const shop = sharedShop(catalog)
  const search = searchHits(shop, { semanticRatio: 0 })
  const hybrid = searchHits(shop)

  it.effect("a word finds a compound that holds it, joined or written with a half-space", () =>
    Effect.gen(function*() {
      expect(yield* search("زنگ")).toEqual(["p-3"])
      expect(yield* search("پول")).toEqual(["p-4"])
      expect(yield* search("lunch")).toEqual(["p-6"])
    }))

  it.effect("a product holding the word itself ranks above one whose compound holds it", () =>
    Effect.gen(function*() {
      expect(yield* search("نمک")).toEqual(["p-2", "p-1"])
    }))

  it.effect("an English word WordNet knows is not read as two words", () =>
    Effect.gen(function*() {
      expect(yield* search("pet")).toEqual([])
    }))

  it.effect("a query no title answers is read again with its words' parts and colloquial bases", () =>
    Effect.gen(function*() {
      expect(yield* hybrid("کتابچه")).toContain("p-5")
      expect(yield* hybrid("کیفم")).toContain("p-4")
      expect(yield* search("کتابچه")).toEqual([])
    }))

  it.effect("a word no title answers is read with its own forms beside a word a title answers", () =>
    Effect.gen(function*() {
      const found = yield* hybrid("کیفم مردانه")
      expect(found).toContain("p-9")
      expect(found).toContain("p-10")
      expect(yield* search("کیفم مردانه")).not.toContain("p-10")
    }))
})
