import { describe, expect, it } from "@effect/vitest"
import { matchTerm, parseQuery, rankDocuments, typoBudget, typoDistance } from "../../src/Search/SearchEngine"

describe("search engine: typo rules", () => {
  it("budget: 0 under 5 letters, 1 from 5, 2 from 9, 0 with digits", () => {
    expect([typoBudget("lamp"), typoBudget("lamps"), typoBudget("notebook"), typoBudget("headphone")]).toEqual([
      0,
      1,
      1,
      2
    ])
    expect([typoBudget("s24ultra"), typoBudget("1000mAh")]).toEqual([0, 0])
    expect(typoBudget("کتابخانه")).toBe(1)
  })

  it("distance: a transposition is one edit", () => {
    expect(typoDistance("laptop", "latpop", 2)).toBe(1)
    expect(typoDistance("laptop", "labtop", 2)).toBe(1)
    expect(typoDistance("microphone", "microfone", 2)).toBe(2)
    expect(typoDistance("microphone", "mikrofone", 2)).toBe(3)
    // An edit inside a transposed pair still makes two, not three (restricted edit distance would say 3).
    expect(typoDistance("ca", "abc", 3)).toBe(2)
  })

  it("a term stands for a query word: exact, stem, prefix of the last word, within budget, never a new first letter", () => {
    const [first, last] = parseQuery("kettles blen")
    if (first === undefined || last === undefined) throw new Error("two words")
    expect(matchTerm(first, "kettles")).toEqual({ typos: 0, exact: true })
    expect(matchTerm(first, "kettle")).toEqual({ typos: 0, exact: false })
    expect(matchTerm(first, "kettels")).toEqual({ typos: 1, exact: false })
    expect(matchTerm(first, "bettles")).toBeNull()
    expect(matchTerm(last, "blender")).toEqual({ typos: 0, exact: false })
    const [numeric] = parseQuery("13")
    if (numeric === undefined) throw new Error("one word")
    expect(matchTerm({ ...numeric, prefix: false }, "14")).toBeNull()
  })

  it("stop words count only when the query has nothing else", () => {
    expect(parseQuery("case for iphone").map((word) => word.counts)).toEqual([true, false, true])
    expect(parseQuery("to be").map((word) => word.counts)).toEqual([true, true])
  })

  it("ranking keys: words matched, then idf, typos, proximity, field, exactness", () => {
    const words = parseQuery("red shoes")
    const expansion = words.map((word) => new Map([[word.word, { typos: 0, exact: true }]]))
    const ranked = rankDocuments(words, expansion, [
      { id: "red-hat", fields: "red hat" },
      { id: "shoes", fields: "running shoes" },
      { id: "red-hat-2", fields: "red cap" },
      { id: "both", fields: "red running shoes" },
      { id: "other", fields: "blue cap" }
    ], 5)
    expect(ranked.map((result) => result.id)).toEqual(["both", "shoes", "red-hat", "red-hat-2"])
  })

  it("reads fields as lines of single-spaced words: positions, empty fields, fields matched, title words", () => {
    const words = parseQuery("red shoes")
    const exact = { typos: 0, exact: true }
    const expansion = [new Map([["red", exact]]), new Map([["shoes", exact], ["shoe", { typos: 0, exact: false }]])]
    const ranked = rankDocuments(words, expansion, [
      // The title "running shoe red", an empty field, then "red shoes"; the title's words are the best hits.
      { id: "lines", fields: "running shoe red\n\nred shoes" },
      // A leading space makes an empty first word, as `split(" ")` does: "red" is the title's second of two words.
      { id: "leading-space", fields: " red" },
      { id: "none", fields: "blue\nhats" }
    ], 10)
    // Keys without the idf weight: words, typos, proximity, field, -fields matched, -exact, position,
    // unmatched title words.
    expect(ranked.map((result) => [result.id, result.key.filter((_, i) => i !== 1)])).toEqual([
      ["lines", [-2, 0, 2, 0, -4, -1, 3, 1]],
      ["leading-space", [-1, 0, 0, 0, -1, -1, 1, 1]]
    ])
  })
})
