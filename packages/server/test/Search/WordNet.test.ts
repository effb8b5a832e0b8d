import { describe, expect, it } from "@effect/vitest"
import { relatedTerm, relatedField } from "../../src/Search/RelatedTerms"
import { relatedWords } from "../../src/Search/WordNet"

describe("WordNet's related words of a title word", () => {
  it("a thing a shop sells brings its synonyms, the kinds it is a kind of and its definition's words", () => {
    const sofa = relatedWords("sofa")
    expect(sofa).toContain("couch")
    expect(sofa).toContain("furniture")
    expect(relatedWords("backpack")).toContain("rucksack")
    expect(relatedWords("sneakers")).toContain("footwear")
  })

  it("a word used more as an adjective, a word WordNet lacks and a number bring nothing", () => {
    expect(relatedWords("white")).toEqual([])
    expect(relatedWords("kitchenor")).toEqual([])
    expect(relatedWords("x200")).toEqual([])
  })

  it("the hidden field holds related terms by stem, none a searched field already holds", () => {
    const field = relatedField(["leather", "sofa"], ["leather", "sofa", "furniture"])
    expect(field).toContain(relatedTerm("couch"))
    expect(field).not.toContain(relatedTerm("furniture"))
    expect(field.every((term) => term.startsWith("~"))).toBe(true)
  })
})
