import { describe, expect, it } from "vitest"
import { rankSentences } from "../../src/Chat/PassageSelection"
import { analyzeQuestion } from "../../src/Chat/QuestionAnalysis"
import { answerText } from "./support/Compose"

const ask = (question: string, passages: Parameters<typeof answerText>[1], previousQuestion?: string) =>
  answerText(question, passages, { previousQuestion })
const declines = /^I don't know/

describe("declining is the exception: only when nothing retrieved bears on the question", () => {
  const studio = [
    { path: "studio.md", text: "Studio › Classes\n\nEvening classes start at seven and cost £20." },
    { path: "studio.md", text: "Studio › Vouchers\n\nGift vouchers never expire." },
    { path: "studio.md", text: "Studio › Parking\n\nParking is free after six." },
    { path: "studio.md", text: "Studio › Booking\n\nBooking is required for workshops." },
    {
      path: "wheel.md",
      text: "Wheel classes\n\nEvening wheel classes welcome children from eight. Members show their membership card " +
        "at the front desk. Bowls are glazed by our staff. Collect them 10 days later."
    },
    {
      path: "pottery.md",
      text: "Pottery studio › Visiting\n\nChildren under twelve join a class with an adult. Aprons and clay are " +
        "provided at every session. Glazed pieces are fired and ready a week later."
    },
    { path: "pottery.md", text: "Pottery studio › Parking\n\nThe car park behind the studio is free after six." },
    {
      path: "pottery.md",
      text: "Pottery studio › Prices\n\nA class costs £30 for an adult and £15 for a child. Gift vouchers are " +
        "sold at the desk."
    }
  ]

  it("answers from the best passage when no sentence covers much of a question spread over several things", () => {
    const reply = ask("How much is parking for evening classes, gift vouchers and workshop booking?", studio)
    expect(reply).not.toMatch(declines)
    expect(reply).toMatch(/£20|£30|free after six/)
  })

  it("declines a question whose key word no passage holds", () => {
    expect(ask("Do you run glassblowing workshops for children?", studio)).toMatch(declines)
  })

  it("answers a follow-up on the same path as a first question, read with the question before it", () => {
    const shop = [
      { path: "shop.md", text: "Shop › Opening hours\n\nOur showroom opens on Sundays from ten." },
      { path: "shop.md", text: "Shop › Delivery\n\nWe deliver sofas and beds across the county." }
    ]
    expect(ask("And beds?", shop, "Do you deliver sofas?")).toContain("We deliver sofas and beds")
  })
})

describe("a follow-up is judged by its own words", () => {
  const gutters = [
    { path: "gutters.md", text: "Gutters\n\nWe charge £40 per house for gutter clearing; allow about two hours." },
    { path: "gutters.md", text: "Booking\n\nBookings take a day to confirm." }
  ]
  const passages = gutters.map((passage, i) => ({ ...passage, n: i + 1 }))

  it("counts no word it inherits from the question before it as missing from the passages", () => {
    const asked = analyzeQuestion("and how long will it take?", "How much to unblock my clogged, overflowing gutters?")
    expect(rankSentences(asked, passages).missingLargest).toBe(0)
    expect(ask("and how long will it take?", gutters, "How much to unblock my clogged, overflowing gutters?"))
      .toContain("about two hours")
  })

  it("still counts its own words, and declines one whose own word is in no passage", () => {
    const asked = analyzeQuestion("and for a conservatory roof?", "How much is gutter clearing?")
    expect(rankSentences(asked, passages).missingLargest).toBeGreaterThan(0)
    expect(ask("and for a conservatory roof?", gutters, "How much is gutter clearing?")).toMatch(declines)
  })
})

describe("a name the question writes must be in a passage", () => {
  const payments = [
    { path: "pay.md", text: "Payment\n\nWe accept Visa, Mastercard and bank transfer." },
    { path: "pay.md", text: "Delivery\n\nWe deliver to every city in the country within three days." }
  ]

  it("declines a question about a payment service no passage names", () => {
    expect(ask("Can I pay with Venmo?", payments)).toMatch(declines)
  })

  it("answers when a passage names it", () => {
    expect(ask("Can I pay with Mastercard?", payments)).toContain("Mastercard")
  })

  it("does not take a place or a day for a name", () => {
    expect(ask("Do you deliver to Carlisle?", payments)).toContain("every city")
    expect(analyzeQuestion("Do you deliver on Saturday with DHL?").names).toEqual(["dhl"])
  })
})

describe("a word naming no particular thing is no word the passages lack", () => {
  const tailor = [
    { path: "tailor.md", text: "خیاطی ماهور\n\nشنبه تا پنجشنبه از ۹ صبح تا ۸ شب باز هستیم." },
    { path: "tailor.md", text: "کوتاه کردن شلوار\n\nکوتاه کردن هر شلوار ۸۰ هزار تومان است و دو روزه آماده می‌شود." }
  ]

  it("answers a question whose only word in no passage is a vague one", () => {
    expect(answerText("دوشنبه ها کار میکنین؟", tailor, { language: "fa" })).toContain("۹ صبح تا ۸ شب")
  })

  it("still declines when a word naming a thing is in no passage", () => {
    expect(answerText("کت و شلوار دامادی کار میکنین؟", tailor, { language: "fa" })).toMatch(/^نمی‌دانم/)
  })
})
