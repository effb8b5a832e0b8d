/**
 * Everyday wordings a question and a document use for one thing: phrasal verbs and their plain words, a
 * percentage "off" as a discount, costing more, a deposit in Persian, taking a time as booking, making a thing
 * right as repairing, the two Persian forms of an adjective in "انه", and leftovers of contractions.
 */
import { describe, expect, it } from "vitest"
import { mentions, rootsOf } from "../../src/Chat/QuestionAnalysis"
import { answerText } from "./support/Compose"

const declinesEn = /^I don't know/
const root = (text: string) => rootsOf(text)[0] ?? ""

describe("phrasal verbs and their plain words", () => {
  it("reads leaving a thing with the shop in either phrasal verb as one", () => {
    expect(mentions(rootsOf("keys handed in at the desk"), root("dropped off"))).toBe(true)
  })

  it("reads taking to pieces and putting back together as dismantling and reassembly", () => {
    const terms = [
      { path: "fitting.md", text: "Fitting\n\nDisassembly and reassembly of shelving is free with every fitting." },
      { path: "hours.md", text: "Hours\n\nWe fit on weekdays only." }
    ]
    expect(answerText("will you take the shelves apart and put them together again?", terms))
      .toContain("Disassembly and reassembly")
  })

  it("still declines what no passage speaks of", () => {
    const terms = [{ path: "fitting.md", text: "Fitting\n\nDisassembly of shelving is free with every fitting." }]
    expect(answerText("do you paint the shelves?", terms)).toMatch(declinesEn)
  })
})

describe("prices said otherwise", () => {
  it("reads a percentage off as a discount", () => {
    const offers = [
      { path: "offers.md", text: "Offers\n\nPensioners get 20 percent off every repair." },
      { path: "hours.md", text: "Hours\n\nWe are open on weekdays." }
    ]
    expect(answerText("do pensioners get a discount?", offers)).toContain("20 percent off")
  })

  it("reads costing more as being pricier", () => {
    const rates = [
      { path: "rates.md", text: "Rates\n\nEvening sessions cost a third more. Morning sessions are £30." }
    ]
    expect(answerText("are evening sessions pricier?", rates)).toContain("cost a third more")
  })
})

describe("Persian wordings", () => {
  it("reads a deposit by its colloquial word and taking a time as booking one", () => {
    expect(mentions(rootsOf("پیش‌پرداخت سفارش"), root("بیعانه"))).toBe(true)
    expect(rootsOf("باید وقت بگیریم؟")).toContain(root("نوبت"))
  })

  it("reads making a thing right as repairing it", () => {
    expect(rootsOf("کیفمو درستش میکنید؟")).toContain(root("تعمیر"))
  })

  it("reads the two forms of an adjective in 'انه' as one word", () => {
    expect(mentions(rootsOf("بیمه سالانه"), root("سالیانه"))).toBe(true)
  })

  it("reads the colloquial 'you are' as no subject word", () => {
    expect(rootsOf("شنبه ها هستین")).not.toContain("هستین")
  })
})

describe("leftovers of contractions typed without an apostrophe", () => {
  it("are no subject words", () => {
    expect(rootsOf("I've got one")).not.toContain("ve")
  })
})
