/**
 * Wordings a question and a document use for the same thing: a table row keyed by its first column's header,
 * a city's districts in the Arabic plural, and everyday paraphrases of the lexicon.
 */
import { describe, expect, it } from "vitest"
import { answerText } from "./support/Compose"

const declinesEn = /^I don't know/

describe("a table row is keyed by its first column's header", () => {
  const rates = [{
    path: "rates.md",
    text: "Shipping › Charges\n\n| Basket size | Standard | Express |\n|---|---|---|\n| Up to £40 | £4.50 | £8 |\n" +
      "| £40 and more | free | £5 |"
  }]

  it("quotes the row with the header it is keyed by", () => {
    expect(answerText("What is the standard charge for a small basket size?", rates)).toContain(
      "Basket size: Up to £40 — Standard: £4.50; Express: £8."
    )
  })
})

describe("a city's districts in the Arabic plural are districts", () => {
  const courier = [{
    path: "courier.md",
    text: "هزینه پیک\n\n| منطقه | هزینه |\n|---|---|\n| مناطق ۱ تا ۸ | ۸۰ هزار تومان |\n| مناطق ۹ تا ۲۲ | ۱۴۰ هزار تومان |"
  }]

  it("answers a follow-up naming another district from the row whose range holds it", () => {
    const reply = answerText("منطقه دوازده چی؟", courier, {
      language: "fa",
      previousQuestion: "هزینه پیک برای منطقه ۳ چقدره؟"
    })
    expect(reply.split("\n")[1]).toContain("۱۴۰ هزار تومان")
  })
})

describe("everyday paraphrases", () => {
  const club = [
    { path: "club.md", text: "Club › Joining\n\nNew members pay a registration fee of £15." },
    { path: "club.md", text: "Club › Breaks\n\nYou can suspend your membership for up to two months; it costs £3 a month." }
  ]

  it("reads 'sign up' as joining or registering", () => {
    expect(answerText("Do I pay anything to sign up?", club)).toContain("registration fee of £15")
  })

  it("reads 'put on hold' as pausing or suspending", () => {
    expect(answerText("Can I put my membership on hold?", club)).toContain("suspend your membership")
  })

  it("reads a payment that bounces as one that fails", () => {
    const payments = [
      { path: "club.md", text: "Club › Payments\n\nCard payments are taken on the 1st of each month." },
      { path: "club.md", text: "Club › Payments\n\nWhen a card payment fails, we charge a £7 handling fee." }
    ]
    expect(answerText("What happens if my payment bounces?", payments)).toContain("£7 handling fee")
  })

  it("reads relocating as moving", () => {
    const plans = [
      { path: "club.md", text: "Club › Plans\n\nThe yearly plan renews on its own." },
      { path: "club.md", text: "Club › Leaving\n\nYou may end a plan early only if you move more than 20 miles away." }
    ]
    expect(answerText("I'm relocating. Can I get out early?", plans)).toContain("move more than 20 miles")
  })

  it("still declines what no passage speaks of", () => {
    expect(answerText("Do you have a sauna?", club)).toMatch(declinesEn)
  })
})
