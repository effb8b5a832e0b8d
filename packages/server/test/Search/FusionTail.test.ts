/**
 * The meaning side's tail after the keyword matches: a product no query word matched is shown only while its
 * similarity is close to the best meaning result's, and keyword matches are never cut.
 */
import { describe, expect, it } from "@effect/vitest"
import { fuse } from "../../src/Search/Fusion"
import type { Ranked } from "../../src/Search/Ranking"

const match = (id: string): Ranked => ({ id, key: [0], matched: 1, named: true, names: 1 })

describe("fusion: the meaning side's tail", () => {
  it("keeps a product no word matched at 0.85 of the best similarity, not below", () => {
    const meaning = [
      { id: "lamp", similarity: 0.8 },
      { id: "shade", similarity: 0.69 },
      { id: "bulb", similarity: 0.67 },
      { id: "rug", similarity: 0.5 }
    ]
    expect(fuse([match("lamp")], meaning, 0.3).map(({ id }) => id)).toEqual(["lamp", "shade"])
  })

  it("never cuts a keyword match, however far its similarity", () => {
    const meaning = [{ id: "lamp", similarity: 0.8 }, { id: "rug", similarity: 0.1 }]
    expect(fuse([match("lamp"), match("rug")], meaning, 0.3).map(({ id }) => id)).toEqual(["lamp", "rug"])
  })

  it("meaning only keeps the whole tail", () => {
    const meaning = [{ id: "lamp", similarity: 0.8 }, { id: "rug", similarity: 0.1 }]
    expect(fuse([], meaning, 1).map(({ id }) => id)).toEqual(["lamp", "rug"])
  })
})
