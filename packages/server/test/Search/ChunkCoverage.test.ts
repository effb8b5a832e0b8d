/** How much of a question a chunk covers: the word itself first, and a word is no commoner for its synonyms. */
import { describe, expect, it } from "@effect/vitest"
import { coverage, type WordTerms } from "../../src/Documents/ChunkCoverage"

const terms = (
  word: ReadonlyArray<string>,
  related: ReadonlyArray<string> = [],
  paraphrase: ReadonlyArray<string> = []
): WordTerms => ({
  counts: true,
  word: new Set(word),
  form: new Set(),
  related: new Set(related),
  paraphrase: new Set(paraphrase)
})

describe("chunk coverage", () => {
  it("a word held by one chunk earns it a full match though most chunks hold a synonym of it", () => {
    const shares = coverage(
      [terms(["hamper"], ["basket"])],
      [
        { id: "own", searchText: "every hamper is packed by hand" },
        { id: "a", searchText: "a basket of fruit" },
        { id: "b", searchText: "the basket is wicker" },
        { id: "c", searchText: "basket liners are sold apart" }
      ],
      4
    )
    expect(shares.get("own")).toBe(1)
    expect(shares.get("a") ?? 0).toBeLessThan(shares.get("own") ?? 0)
  })

  it("a chunk holding only a synonym most chunks hold earns half of it, however rare the word itself", () => {
    const shares = coverage(
      [terms(["hamper"], ["basket"]), terms(["oslo"])],
      [
        { id: "own", searchText: "every hamper goes to oslo" },
        { id: "a", searchText: "a basket of fruit" },
        { id: "b", searchText: "the basket is wicker" }
      ],
      3
    )
    expect(shares.get("own")).toBe(1)
    expect(shares.get("a")).toBeCloseTo((0.6 * 0.5) / 2)
  })

  it("a paraphrase counts below a related word, and both below the word itself", () => {
    const shares = coverage(
      [terms(["lantern"], ["lamp"], ["light"])],
      [
        { id: "word", searchText: "the lantern is brass" },
        { id: "related", searchText: "the lamp is brass" },
        { id: "paraphrase", searchText: "the light is brass" },
        { id: "none", searchText: "the stand is brass" }
      ],
      4
    )
    const share = (id: string) => shares.get(id) ?? 0
    expect(share("word")).toBeGreaterThan(share("related"))
    expect(share("related")).toBeGreaterThan(share("paraphrase"))
    expect(share("paraphrase")).toBeGreaterThan(share("none"))
  })

  it("a word most chunks hold as itself still earns half", () => {
    const shares = coverage(
      [terms(["lantern"]), terms(["wick"])],
      [
        { id: "a", searchText: "lantern wick trimming" },
        { id: "b", searchText: "lantern glass" },
        { id: "c", searchText: "lantern handle" }
      ],
      3
    )
    expect(shares.get("a")).toBeCloseTo((0.5 + 1) / 2)
    expect(shares.get("b")).toBeCloseTo(0.5 / 2)
  })
})
