import { describe, expect, it } from "@effect/vitest"
import { parseQuery } from "../../src/Search/Query"
import { alternativesOf, compileRules } from "../../src/Search/SynonymRules"

const words = (rules: Parameters<typeof compileRules>[0], query: string) =>
  alternativesOf(parseQuery(query), compileRules(rules)).map(({ group, word }) => `${group}:${word}`)

describe("synonym rules", () => {
  const phones = [{ root: null, synonyms: ["گوشی", "موبایل", "تلفن همراه", "Phone"] }]

  it("a multi-way term finds every other, normalised (case, Arabic letters, inflections)", () => {
    expect(words(phones, "گوشي")).toEqual(["0:موبایل", "0:تلفن", "0:همراه", "0:phone"])
    expect(words(phones, "phones")).toEqual(["0:گوشی", "0:موبایل", "0:تلفن", "0:همراه"])
  })

  it("a phrase term applies only when its words follow each other in the query", () => {
    expect(words(phones, "تلفن همراه سامسونگ")).toEqual(
      expect.arrayContaining(["0:گوشی", "1:گوشی", "0:phone", "1:phone"])
    )
    expect(words(phones, "همراه تلفن")).toEqual([])
    expect(words(phones, "همراه")).toEqual([])
  })

  it("a one-way rule works from its root only", () => {
    const rule = [{ root: "iPhone", synonyms: ["phone"] }]
    expect(words(rule, "iphone case")).toEqual(["0:phone"])
    expect(words(rule, "phone case")).toEqual([])
  })
})
