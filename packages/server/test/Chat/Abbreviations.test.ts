/** Abbreviations a document defines stand for their words. Examples are invented for these rules. */
import { describe, expect, it } from "vitest"
import { abbreviationsIn, spelledOut } from "../../src/Chat/Abbreviations"
import { answerText } from "./support/Compose"

describe("abbreviations a document defines", () => {
  it("reads a short form in brackets after the words whose initials spell it", () => {
    const found = abbreviationsIn(["Electric vehicle (EV) charging is offered. Value Added Tax (VAT) is due."])
    expect(found.get("EV")).toBe("Electric vehicle")
    expect(found.get("VAT")).toBe("Value Added Tax")
  })

  it("takes no short form whose letters the words before it do not spell", () => {
    expect(abbreviationsIn(["Park at the car park (NCP) overnight."]).has("NCP")).toBe(false)
  })

  it("spells out a short form a sentence writes, and nothing for one it does not", () => {
    const found = abbreviationsIn(["Electric vehicle (EV) charging is offered."])
    expect(spelledOut("Each EV bay is free.", found)).toBe("Electric vehicle")
    expect(spelledOut("Every bay is free.", found)).toBe("")
  })

  it("answers a question worded with the long form from a sentence writing the short one", () => {
    const parking = [{
      path: "parking.md",
      text: "Parking\n\nElectric vehicle (EV) charging is offered on the north deck, next to the lifts.\n\n" +
        "Each EV bay may be used for up to three hours."
    }]
    expect(answerText("How long may an electric vehicle stay in a bay?", parking)).toContain("three hours")
  })
})
