import { describe, expect, it } from "vitest"
import { mentions } from "../../src/Chat/QuestionAnalysis"
import { broaderOf } from "../../src/Search/Lexicon"
import { stem } from "../../src/Search/Stemmer"
import { normalizeText } from "../../src/Search/TextNormalization"
import { broaderWords } from "../../src/Search/WordNet"
import { answerText } from "./support/Compose"

const root = (word: string) => stem(normalizeText(word))
const declines = /^I don't know/

describe("what an English noun names in other words (WordNet)", () => {
  it("brings its synonyms and the kinds within two steps above its sense as a thing a shop sells", () => {
    expect(broaderWords("sandals")).toContain("shoe")
    expect(broaderWords("duvet")).toContain("bedding")
    expect(broaderWords("duvet")).toContain("quilt")
    expect(broaderWords("parka")).toContain("coat")
    expect(broaderWords("cardigan")).toContain("sweater")
    expect(broaderWords("armchair")).toContain("chair")
  })

  it("leaves out kinds too general to say what a thing is, however close", () => {
    for (const word of ["sandals", "sneakers", "parka", "cardigan", "duvet", "armchair", "blender"]) {
      for (const general of ["product", "item", "thing", "goods", "clothing", "footwear", "device", "container"]) {
        expect(broaderWords(word)).not.toContain(general)
      }
    }
  })

  it("reads a word in its commonest sense only, and no proper name spelt like it", () => {
    // A box is a container first, not a theatre's seats; a trainer is a person first, not a simulator.
    expect(broaderWords("box")).not.toContain("room")
    expect(broaderWords("trainer")).toEqual([])
    // A lemma that means something else first ("dress" among the lemmas of apparel) is left out.
    expect(broaderWords("jeans")).not.toContain("dress")
  })

  it("brings nothing for an adjective, an abstract noun, a word WordNet lacks", () => {
    expect(broaderWords("white")).toEqual([])
    expect(broaderWords("discount")).toEqual([])
    expect(broaderWords("kitchenor")).toEqual([])
  })
})

describe("a question naming a thing matches a passage naming its kind", () => {
  it("matches the kind or a synonym, in either language through the shop vocabulary", () => {
    expect(mentions([root("shoes")], root("sandals"))).toBe(true)
    expect(mentions([root("کفش")], root("sandals"))).toBe(true)
    expect(mentions([root("bedding")], root("duvets"))).toBe(true)
    expect(mentions([root("coats")], root("parka"))).toBe(true)
  })

  it("does not match the other way round, a general word, or a word the kind only begins", () => {
    // A rule about sandals says nothing of every shoe.
    expect(mentions([root("sandals")], root("shoes"))).toBe(false)
    expect(mentions([root("products"), root("items")], root("duvet"))).toBe(false)
    expect(mentions([root("store")], root("warehouse"))).toBe(false)
    expect(broaderOf(root("کفش"))).toEqual([])
  })

  const exchanges = (rule: string) => [
    { path: "exchanges.md", text: `Exchanges\n\n${rule} Bring the receipt to any branch.` },
    { path: "delivery.md", text: "Delivery\n\nWe deliver within three working days." }
  ]

  it("answers from the rule about the thing's kind", () => {
    expect(answerText("Can I swap my sandals?", exchanges("Shoes can be swapped within 30 days.")))
      .toContain("Shoes can be swapped")
    expect(answerText("Can I swap a duvet?", exchanges("Bedding can be swapped only if unopened.")))
      .toContain("Bedding can be swapped")
  })

  it("declines when the passage names a kind too general, or a narrower thing", () => {
    expect(answerText("Can I swap a parka?", exchanges("Products can be swapped within 30 days."))).toMatch(declines)
    expect(answerText("Can I swap a parka?", exchanges("Footwear can be swapped within 30 days."))).toMatch(declines)
    expect(answerText("Can I swap shoes?", exchanges("Sandals can be swapped within 30 days."))).toMatch(declines)
  })

  it("still declines a kind of goods the passages name only by a broader word", () => {
    // A kettle is a pot, but a card for "this pot" is about one pot, not every kettle.
    const card = [{ path: "card.txt", text: "Guarantee card\n\nThis cookware is guaranteed for two years." }]
    expect(answerText("What guarantee comes with my kettle?", card)).toMatch(declines)
  })
})
