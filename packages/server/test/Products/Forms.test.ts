import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { TestApp } from "../support/TestApp"
import { searchHits, sharedShop } from "./support"

const catalog = [
  { externalId: "f-1", title: "پاوربانک شیائومی ۱۰۰۰۰" },
  { externalId: "f-2", title: "کارت بانک" },
  { externalId: "f-3", title: "Hooded Sweatshirt" },
  { externalId: "f-4", title: "Whitening toothpaste" },
  { externalId: "f-5", title: "کفش‌های ورزشی" },
  { externalId: "f-6", title: "Power bank 20000 mAh" },
  { externalId: "f-7", title: "Hood cleaner spray" },
  { externalId: "f-8", title: "Batter mix" },
  { externalId: "f-9", title: "آبمیوه گیری فیلیپس" },
  { externalId: "f-10", title: "میوه خشک" },
  { externalId: "f-11", title: "Quilted bedspread" },
  { externalId: "f-12", title: "عروسک ببر" },
  { externalId: "f-13", title: "چراغ خواب ستاره" },
  { externalId: "f-14", title: "پوستر ستارگان سینما" }
]

layer(TestApp(), { excludeTestServices: true })("search of word forms", (it) => {
  const shop = sharedShop(catalog)

  // Keyword side only: these are rules of the words, not of the offline meaning side.
  const search = searchHits(shop, { semanticRatio: 0 })

  it.effect("a compound written with a space finds it written joined, above a match of one of its words", () =>
    Effect.gen(function*() {
      const ids = yield* search("پاور بانک")
      expect(ids[0]).toBe("f-1")
      expect(ids.indexOf("f-1")).toBeLessThan(ids.indexOf("f-2"))
      expect((yield* search("power bank"))[0]).toBe("f-6")
      expect(yield* search("powerbank")).not.toContain("f-2")
      const juicer = yield* search("آب میوه گیری")
      expect(juicer[0]).toBe("f-9")
      expect(juicer.indexOf("f-9")).toBeLessThan(juicer.indexOf("f-10"))
    }))

  it.effect("a half-space, a space and none are one plural form", () =>
    Effect.gen(function*() {
      for (const query of ["کفش‌ها", "کفش ها", "کفشها", "کفش"]) expect((yield* search(query))[0]).toBe("f-5")
    }))

  it.effect("an English plural finds its family's other forms, after the word's own; never an unrelated word", () =>
    Effect.gen(function*() {
      const hoodies = yield* search("hoodies")
      expect(hoodies).toContain("f-3")
      expect(hoodies).not.toContain("f-4")
      expect(yield* search("quilts")).toContain("f-11")
      // "hood" is a word of its own: found as itself, before the family.
      expect((yield* search("hood"))[0]).toBe("f-7")
      expect(yield* search("toothbrushes")).not.toContain("f-3")
    }))

  it.effect("a plural finds its word when the word alone would also read as a verb", () =>
    Effect.gen(function*() {
      expect((yield* search("ببرها"))[0]).toBe("f-12")
      expect((yield* search("ببر"))[0]).toBe("f-12")
    }))

  it.effect("a Persian plural in -گان finds its word in ه, and the word finds the plural", () =>
    Effect.gen(function*() {
      expect((yield* search("ستارگان")).slice(0, 2).sort()).toEqual(["f-13", "f-14"])
      expect((yield* search("ستاره")).slice(0, 2).sort()).toEqual(["f-13", "f-14"])
    }))
})
