/**
 * Misspellings a typo budget alone misses, as a naive trigram ranking finds
 * them: a first letter typed wrong, swapped or doubled, and a second typo in
 * a longer word, found only when the word matches nothing closer; a word
 * spelt by ear, the typos short words carry, and the slips of a finger or a
 * dot (keyboard neighbours, Persian letters of one shape).
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { TestApp } from "../support/TestApp"
import { searchHits, sharedShop } from "./support"

const catalog = [
  { externalId: "s-1", title: "Compact camera" },
  { externalId: "s-2", title: "Ceramic vase" },
  { externalId: "s-3", title: "Wireless keyboard" },
  { externalId: "s-4", title: "Desk lamp" },
  { externalId: "s-5", title: "هارد دیسک اکسترنال" },
  { externalId: "s-6", title: "Galaxy A54 case" },
  { externalId: "s-7", title: "دیسک ترمز" },
  { externalId: "s-8", title: "Denim jacket" },
  { externalId: "s-9", title: "Top hat" },
  { externalId: "s-10", title: "میز تحریر" },
  { externalId: "s-11", title: "کمد لباس" },
  { externalId: "s-12", title: "چادر اتاق بازی" },
  { externalId: "s-13", title: "Leather wallet" },
  { externalId: "s-14", title: "توری پنجره" },
  { externalId: "s-15", title: "کیف مدرسه" },
  { externalId: "s-16", title: "فندک جیبی" },
  { externalId: "s-17", title: "Wool scarf" },
  { externalId: "s-18", title: "تیغ اصلاح" },
  { externalId: "s-19", title: "Glass perfume atomizer, 10 ml", category: "Perfume" },
  { externalId: "s-20", title: "Garden pump sprayer 5 l", category: "Garden" },
  { externalId: "s-21", title: "Plastic spray bottle", category: "Cleaning" },
  { externalId: "s-22", title: "Liquid soap dispenser", category: "Bathroom" }
]

layer(TestApp(), { excludeTestServices: true })("search of misspellings and split words", (it) => {
  const shop = sharedShop(catalog)

  const search = searchHits(shop, { semanticRatio: 0 })

  it.effect("a first letter typed by sound, swapped with the second or typed twice", () =>
    Effect.gen(function*() {
      expect(yield* search("kamera")).toEqual(["s-1"])
      expect(yield* search("ecramic")).toEqual(["s-2"])
      expect(yield* search("ddesk")).toEqual(["s-4"])
    }))

  it.effect("a second typo in a word of 7 letters or more, when nothing closer matches", () =>
    Effect.gen(function*() {
      expect(yield* search("kebyaord")).toEqual(["s-3"])
      // A word of 5 or 6 letters keeps its one typo.
      expect(yield* search("lmpa")).toEqual([])
    }))

  it.effect("a compound the title writes apart is found written as one word, and a model number split", () =>
    Effect.gen(function*() {
      expect((yield* search("هارددیسک"))[0]).toBe("s-5")
      expect(yield* search("هارددیسک")).not.toContain("s-7")
      expect((yield* search("a 54"))[0]).toBe("s-6")
    }))

  it.effect("a word spelt by ear: spellings of one sound, and Persian letters of one sound, for one another", () =>
    Effect.gen(function*() {
      expect(yield* search("jaquet")).toEqual(["s-8"])
      expect(yield* search("اطاغ")).toEqual(["s-12"])
    }))

  it.effect("two neighbours swapped in a word of three letters, and no other typo in so short a word", () =>
    Effect.gen(function*() {
      expect(yield* search("tpo")).toEqual(["s-9"])
      expect(yield* search("مزی")).toEqual(["s-10"])
      expect(yield* search("tip")).not.toContain("s-9")
    }))

  it.effect("a Persian vowel letter spelt out in a word of four letters, and no other letter", () =>
    Effect.gen(function*() {
      expect(yield* search("کمود")).toEqual(["s-11"])
      expect(yield* search("کمرد")).toEqual([])
    }))

  it.effect("a keyboard neighbour or a Persian dot is half a typo: two such slips stay within a budget of one", () =>
    Effect.gen(function*() {
      expect(yield* search("walkrt")).toEqual(["s-13"])
      expect(yield* search("پنچزه")).toEqual(["s-14"])
      // Two letters that are neither are two typos.
      expect(yield* search("walmat")).toEqual([])
    }))

  it.effect("a short word forgives a Persian dot in 3 letters, and a keyboard neighbour in 4", () =>
    Effect.gen(function*() {
      expect(yield* search("کیق")).toEqual(["s-15"])
      expect(yield* search("فتدک")).toEqual(["s-16"])
      expect(yield* search("کیم")).toEqual([])
      expect(yield* search("فردک")).toEqual([])
    }))

  it.effect("a first letter slipped to a keyboard neighbour or a letter of other dots, when nothing else matches", () =>
    Effect.gen(function*() {
      expect(yield* search("dcarf")).toEqual(["s-17"])
      expect(yield* search("نیغ")).toEqual(["s-18"])
    }))

  it.effect("a title word matched by a typo names the product though its related words hold the query word", () =>
    Effect.gen(function*() {
      // The title's word, one letter off, beats the words WordNet says the query word may stand for.
      expect((yield* searchHits(shop)("atomiser"))[0]).toBe("s-19")
    }))
})
