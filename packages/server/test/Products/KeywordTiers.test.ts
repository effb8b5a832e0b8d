/**
 * The keyword read stops at the tier of products that fills the page (every
 * query word, then all words but one, then any word); a page must not depend
 * on where it stopped. Each case compares every short page with the start of
 * a page long enough to need every tier.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { setupAccount, TestApp } from "../support/TestApp"
import { hitIds, productCall, waitUntilSynced } from "./support"

const titled = (prefix: string, titles: ReadonlyArray<string>) =>
  titles.map((title, i) => ({ externalId: `${prefix}-${i + 1}`, title }))

/** Three query words, none held by half the catalog: products missing the commonest word come first in tier 1. */
const powerBanks = [
  // Written first so that catalog order cannot explain a result.
  ...titled("blue", ["Blue scarf", "Blue mug", "Blue shirt", "Blue hat"]),
  ...titled("power", ["Power strip"]),
  ...titled("bank", ["Bank card holder"]),
  ...titled("drill", ["Blue power drill", "Blue power saw"]),
  ...titled("piggy", ["Blue piggy bank"]),
  ...titled("other", ["Black power bank", "Red power bank", "White power bank"]),
  ...titled("both", ["Blue power bank 10000", "Blue power bank slim"]),
  ...titled("filler", ["Desk lamp", "Garden hose", "Coffee grinder", "Yoga mat", "Wall clock", "Tea towel"])
]

/**
 * A brand most products carry: the ranking does not count it, so products matching all words but one do not
 * rank first ("Steel kettle", a rarer word alone, comes before "Acme red toaster").
 */
const brandShop = [
  ...titled("brand", ["Acme plate", "Acme fork", "Acme spoon", "Acme knife", "Acme bowl", "Acme cup", "Acme jar"]),
  ...titled("brand-more", ["Acme tray"]),
  ...titled("red", ["Red scarf", "Red hat", "Red apron", "Red mug", "Red towel", "Red vase"]),
  ...titled("kettle", ["Steel kettle"]),
  ...titled("filler", ["Wooden board"]),
  ...titled("acme-red", ["Acme red toaster"]),
  ...titled("acme-kettle", ["Acme blue kettle"]),
  ...titled("red-kettle", ["Red kettle"]),
  ...titled("all", ["Acme red kettle"])
]

layer(TestApp(), { excludeTestServices: true })("keyword read in tiers", (it) => {
  const shopOf = (products: ReadonlyArray<{ readonly externalId: string; readonly title: string }>) =>
    Effect.gen(function*() {
      const shop = yield* setupAccount()
      yield* productCall(shop, "POST", "/import", { products })
      yield* waitUntilSynced(shop)
      return shop
    })

  const pages = (products: ReadonlyArray<{ readonly externalId: string; readonly title: string }>, query: string) =>
    Effect.gen(function*() {
      const shop = yield* shopOf(products)
      const page = (limit: number) =>
        productCall(shop, "POST", "/search", { query, limit, semanticRatio: 0 }).pipe(Effect.map(hitIds))
      const full = yield* page(50)
      for (let limit = 1; limit <= 10; limit++) expect(yield* page(limit)).toEqual(full.slice(0, limit))
      return full
    })

  it.effect("a page filled by the products matching all words but one is the start of the full ranking", () =>
    Effect.gen(function*() {
      const full = yield* pages(powerBanks, "blue power bank")
      expect(full.slice(0, 2).sort()).toEqual(["both-1", "both-2"])
      // Missing "blue" (the commonest word), then "power", then "bank" (the rarest).
      expect(full.slice(2, 5).sort()).toEqual(["other-1", "other-2", "other-3"])
      expect(full[5]).toBe("piggy-1")
      expect(full.slice(6, 8).sort()).toEqual(["drill-1", "drill-2"])
    }))

  it.effect("with a word most of the catalog holds, pages are the start of the full ranking too", () =>
    Effect.gen(function*() {
      const full = yield* pages(brandShop, "acme red kettle")
      expect(full.slice(0, 4)).toEqual(["all-1", "red-kettle-1", "acme-kettle-1", "kettle-1"])
    }))
})
