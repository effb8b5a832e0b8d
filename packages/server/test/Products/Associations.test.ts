/**
 * Meaning from the shop's own catalog: a query naming nothing the shop sells
 * by name finds the products whose description holds its words, and then
 * the products of the classification those share, in the shop's own words.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { setupAccount, TestApp } from "../support/TestApp"
import { productCall, searchHits, sharedShop, waitUntilSynced } from "./support"

// Persian, which WordNet does not relate: what is found here, the catalog's own words found.
const catalog = [
  { externalId: "c-9", title: "آسیاب دستی", category: "آسیاب" },
  { externalId: "c-2", title: "قیف دم آوری سرامیکی", category: "قهوه ساز" },
  { externalId: "c-4", title: "کاسه چاوان گلی", category: "ابزار ماچا" },
  {
    externalId: "c-1",
    title: "دریپر فلزی کسلر",
    category: "قهوه ساز",
    description: "در چهار دقیقه یک فنجان زلال دم می‌کند."
  },
  {
    externalId: "c-3",
    title: "همزن بامبو",
    category: "ابزار ماچا",
    description: "پودر چای سبز را به کفی نرم و یکدست تبدیل می‌کند."
  },
  { externalId: "c-5", title: "آسیاب برقی", category: "آسیاب", description: "دانه‌ها را یکنواخت خرد می‌کند." },
  { externalId: "c-6", title: "بانکه شیشه‌ای", category: "ظروف نگهداری", description: "دانه‌ها را خشک نگه می‌دارد." },
  { externalId: "c-8", title: "تمپر اسپرسو", category: "ابزار اسپرسو", description: "دانه‌ها را در سبد فشرده می‌کند." },
  { externalId: "c-7", title: "کتری گردن غازی", category: "کتری", description: "آب را آرام روی دریپر می‌ریزد." },
  // A word a typo of which a title holds ("crying", "drying").
  { externalId: "e-1", title: "Drying rack", category: "Laundry" },
  { externalId: "e-2", title: "Plush lamb", category: "Toys", description: "Soothes a crying baby to sleep." }
]

layer(TestApp(), { excludeTestServices: true })("search by the shop's own associations", (it) => {
  const shop = sharedShop(catalog)
  const hybrid = searchHits(shop)
  const keyword = searchHits(shop, { semanticRatio: 0 })

  it.effect("a query naming nothing finds the products whose description holds its words", () =>
    Effect.gen(function*() {
      expect((yield* hybrid("فنجان زلال"))[0]).toBe("c-1")
    }))

  it.effect("then the products of the classification the described ones share, after them", () =>
    Effect.gen(function*() {
      expect((yield* hybrid("فنجان زلال")).slice(0, 2)).toEqual(["c-1", "c-2"])
      // The whole classification ("ابزار ماچا") before a product sharing one of its words ("ابزار اسپرسو").
      expect((yield* hybrid("نرم")).slice(0, 3)).toEqual(["c-3", "c-4", "c-8"])
    }))

  it.effect("a word the descriptions of several classifications share predicts none of them", () =>
    Effect.gen(function*() {
      const found = yield* hybrid("دانه")
      expect(found.slice(0, 3).sort()).toEqual(["c-5", "c-6", "c-8"])
      expect(found).not.toContain("c-9")
    }))

  it.effect("beside a word a title names, a word none names finds the descriptions holding it", () =>
    Effect.gen(function*() {
      expect((yield* hybrid("آسیاب یکنواخت"))[0]).toBe("c-5")
    }))

  it.effect("a word a title names only through a typo still finds a description holding it as typed", () =>
    Effect.gen(function*() {
      expect(yield* hybrid("crying")).toContain("e-2")
    }))

  it.effect("a query a title answers does not read descriptions", () =>
    Effect.gen(function*() {
      expect(yield* hybrid("دریپر")).toEqual(["c-1"])
    }))

  it.effect("keyword search alone never reads descriptions", () =>
    Effect.gen(function*() {
      expect(yield* keyword("کف نرم")).toEqual([])
    }))

  it.effect("another shop's descriptions are not this shop's", () =>
    Effect.gen(function*() {
      const other = yield* setupAccount()
      yield* productCall(other, "POST", "/import", {
        products: [{ externalId: "o-1", title: "لیوان سفری", description: "کف نرم لاته را نگه می‌دارد." }]
      })
      yield* waitUntilSynced(other)
      expect(yield* hybrid("لاته")).toEqual([])
      const theirs = yield* productCall(other, "POST", "/search", { query: "کف نرم" })
      expect(JSON.stringify(theirs.json)).not.toContain("c-3")
    }))

  it.effect("a new description is searched once the product is indexed again", () =>
    Effect.gen(function*() {
      const s = yield* shop
      const changed = yield* productCall(s, "PATCH", "/c-9", { description: "سبک و مناسب کوهنوردی." })
      expect(changed.json).toMatchObject({ data: { indexState: "pending" } })
      yield* waitUntilSynced(s)
      expect((yield* hybrid("کوهنوردی"))[0]).toBe("c-9")
    }))
})
