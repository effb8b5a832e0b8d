import { describe, expect, it } from "@effect/vitest"
import {
  associations,
  byAssociations,
  describedField,
  describedTerm,
  describedTermsOf
} from "../../src/Search/CatalogAssociations"
import { parseQuery } from "../../src/Search/Query"
import { wordsOf } from "../../src/Search/TextNormalization"

/** A product's fields as the keyword read brings them: title, classification, attributes, id, related, described. */
const product = (title: string, classification: string, description: string) => ({
  fields: [
    wordsOf(title).join(" "),
    wordsOf(classification).join(" "),
    "",
    "",
    "",
    describedField(wordsOf(description), wordsOf(title)).join(" ")
  ].join("\n")
})

const predicted = (query: string, candidates: ReadonlyArray<{ readonly fields: string }>) =>
  associations(parseQuery(query), candidates)?.map((terms) => [...terms.keys()]) ?? null

describe("catalog associations", () => {
  it("a description keeps its telling words by stem, without stop words, numbers or the title's words", () => {
    expect(describedField(wordsOf("Warms the 2 gloves of a rider"), wordsOf("Heated gloves"))).toEqual(
      ["warm", "rider"].map(describedTerm)
    )
    // A light verb every description uses says nothing of the product.
    expect(describedField(wordsOf("کف را نرم می‌کند"), [])).toEqual(["کف", "نرم"].map(describedTerm))
  })

  it("a Persian word is also kept without an ending the stemmer keeps on short words, and read without a spoken one", () => {
    expect(describedField(wordsOf("لکه سیاهی"), [])).toContain(describedTerm("سیاه"))
    expect(describedTermsOf("کیفام")).toContain(describedTerm("کیف"))
    expect(describedTermsOf("lamps")).toEqual([describedTerm("lamp")])
  })

  it("a described word predicts the classification of its product", () => {
    const candidates = [product("Lumo glove warmer", "Winter gear", "warms frozen fingers")]
    expect(predicted("frozen fingers", candidates)).toEqual([["winter", "gear"], ["winter", "gear"]])
  })

  it("a title word predicts only when two described products share it", () => {
    const one = [product("Lumo glove warmer", "", "for frozen fingers")]
    expect(predicted("frozen", one)).toBeNull()
    const two = [...one, product("Tarn glove liner", "", "under mittens for frozen fingers")]
    expect(predicted("frozen", two)).toEqual([["glove"]])
  })

  it("only what at least half the described products share is predicted", () => {
    const spread = [
      product("Lumo glove warmer", "Winter gear", "against the cold"),
      product("Kiln flask", "Bottles", "keeps soup hot in the cold"),
      product("Yurt tent", "Shelter", "sleeps four in the cold")
    ]
    expect(predicted("cold", spread)).toBeNull()
  })

  it("products holding more of the predicted words come first", () => {
    const fieldsOf = new Map([["a", "kiln flask\nbottles"], ["b", "lumo warmer\nwinter gear"]])
    const found = byAssociations([{ id: "a" }, { id: "b" }], fieldsOf, [
      new Map([["winter", { typos: 2, exact: false }], ["gear", { typos: 2, exact: false }], ["bottles", {
        typos: 2,
        exact: false
      }]])
    ])
    expect(found.map(({ id }) => id)).toEqual(["b", "a"])
  })
})
