/**
 * How the offline answer is composed from the sentences it quotes, and which English word forms it reads as
 * one word. Examples are invented for these rules.
 */
import { describe, expect, it } from "vitest"
import { sameWord } from "../../src/Chat/SameWord"
import { answerText } from "./support/Compose"

describe("a quote carries the rest of its paragraph", () => {
  const lockers = [{
    path: "lockers.md",
    text: "Lockers\n\nDay lockers are rented at the front desk of the pool. A lost key costs £12 to replace.\n\n" +
      "Towels are handed out at the changing rooms."
  }]

  it("quotes the sentence after the best one in the same paragraph, where its figure is", () => {
    expect(answerText("How are the day lockers rented?", lockers)).toContain("A lost key costs £12")
  })

  it("does not quote the next paragraph with it", () => {
    expect(answerText("How are the day lockers rented?", lockers)).not.toContain("Towels")
  })

  it("keeps the best sentence first: the sentences before it in its paragraph stay out", () => {
    const parking = [{
      path: "parking.md",
      text: "Parking\n\nVisitors park free for the first hour. Residents park on the north deck with a permit."
    }]
    const [first] = answerText("Where do residents park?", parking).split("\n").filter((line) => line.startsWith("- "))
    expect(first).toContain("north deck")
    expect(first).not.toContain("first hour")
  })

  it("stops before a sentence that would make the quote too long", () => {
    const long = "x".repeat(30)
    const notice = [{
      path: "notice.md",
      text: `Notice\n\nMembers give notice in writing at the front desk. ${
        Array.from({ length: 8 }, (_, i) => `Clause ${i + 1} says more ${long}.`).join(" ")
      }`
    }]
    const answer = answerText("How do members give notice?", notice)
    expect(answer).toContain("Clause 1")
    expect(answer).not.toContain("Clause 8")
  })
})

describe("an English verb and its noun read as one word", () => {
  it("matches stems that differ only in their last letters", () => {
    expect(sameWord("prescrib", "prescription")).toBe(true)
    expect(sameWord("describ", "description")).toBe(true)
    expect(sameWord("pregnant", "pregnanc")).toBe(true)
  })

  it("does not match words that only share a beginning", () => {
    expect(sameWord("transfer", "transport")).toBe(false)
    expect(sameWord("contain", "contact")).toBe(false)
    expect(sameWord("station", "statistic")).toBe(false)
    expect(sameWord("sensor", "sensitive")).toBe(false)
  })

  it("answers a question worded with the verb from a sentence worded with the noun", () => {
    const pharmacy = [{ path: "pharmacy.md", text: "Pharmacy\n\nEvery prescription is filled within two hours." }]
    expect(answerText("How long does it take to fill what I was prescribed?", pharmacy)).toContain("two hours")
  })
})

describe("the length of a text is counted in characters, words, lines or pages", () => {
  const reviews = [{
    path: "reviews.md",
    text: "Reviews\n\nA review may run to 500 characters and may include photos."
  }]

  it("answers 'how long can … be' of a text with its count of characters", () => {
    expect(answerText("How long can a review be?", reviews)).toContain("500 characters")
  })

  it("does not take a bare number for a length", () => {
    const cables = [{ path: "cables.md", text: "Cables\n\nEach cable ships in 2 boxes." }]
    expect(answerText("How long is the cable?", cables)).toMatch(/^I don't know/)
  })
})
