import { describe, expect, it } from "@effect/vitest"
import { relatedField, relatedTerm } from "../../src/Search/RelatedTerms"
import { halfSpaceParts, wordParts } from "../../src/Search/WordParts"

describe("the parts of a compound word", () => {
  it("a Persian word ending in a part that forms compounds holds the word before it", () => {
    expect(wordParts("نمکدان")).toEqual(["نمک"])
    expect(wordParts("کتابچه")).toEqual(["کتاب"])
  })

  it("a Persian word beginning with a part that forms compounds holds the word after it", () => {
    expect(wordParts("ضدزنگ")).toEqual(["زنگ"])
  })

  it("a Persian word without such a part, or with too little left, has none", () => {
    expect(wordParts("صندلی")).toEqual([])
    expect(wordParts("بچه")).toEqual([])
  })

  it("an English word WordNet does not know that is two nouns it knows holds both", () => {
    expect(wordParts("lunchbox")).toEqual(["lunch", "box"])
    expect(wordParts("snowboots")).toEqual(["snow", "boot"])
  })

  it("an English word WordNet knows is not split, though two nouns could spell it", () => {
    expect(wordParts("carpet")).toEqual([])
    expect(wordParts("season")).toEqual([])
  })

  it("a word with a digit has no parts", () => {
    expect(wordParts("x200")).toEqual([])
  })

  it("a half-space splits a title's compound into its words, never into an ending", () => {
    expect(halfSpaceParts("کیف‌پول چرمی")).toEqual(["کیف", "پول"])
    expect(halfSpaceParts("کتاب‌ها")).toEqual([])
  })

  it("the hidden field holds the parts of the title's compounds as related terms", () => {
    const field = relatedField(["نمکدان", "سرامیکی"], ["نمکدان", "سرامیکی"])
    expect(field).toContain(relatedTerm("نمک"))
    expect(relatedField(["wallet"], ["wallet"], ["کیف"])).toContain(relatedTerm("کیف"))
  })
})
