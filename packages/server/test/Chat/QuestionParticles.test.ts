/**
 * Rules of how a question's words are read before they are matched: particles, linking words, a number it
 * states and a light verb typed in the present are no words to find; a colloquial Persian word (the
 * colloquial plural under its endings) is the word the passage holds.
 */
import { describe, expect, it } from "vitest"
import { analyzeQuestion } from "../../src/Chat/QuestionAnalysis"
import { answerText } from "./support/Compose"

const declinesEn = /^I don't know/
const declinesFa = /^نمی‌دانم/

describe("particles a question is phrased with are not what it asks about", () => {
  it("reads 'still', 'while', 'already' without their particles", () => {
    const asked = analyzeQuestion("Will you still store my parcel while I am away, if I already paid?")
    expect(asked.subject).toEqual(expect.arrayContaining(["stor", "parcel"]))
    for (const particle of ["still", "while", "already"]) expect(asked.subject).not.toContain(particle)
  })

  it("answers a question whose particles no passage holds", () => {
    const lockers = [{ path: "lockers.md", text: "Lockers\n\nWe store parcels at the front desk for 14 days." }]
    const reply = answerText("Will you still store my parcel while I'm out?", lockers)
    expect(reply).toContain("14 days")
  })

  it("still declines when the thing asked about is in no passage", () => {
    const lockers = [{ path: "lockers.md", text: "Lockers\n\nWe store parcels at the front desk for 14 days." }]
    expect(answerText("Will you still store my bicycle while I'm out?", lockers)).toMatch(declinesEn)
  })
})

describe("a number the question states is a value to compare, not a word to find", () => {
  const fees = [
    { path: "fees.md", text: "Delivery\n\nDelivery is free on orders over £500. Smaller orders pay £40." },
    { path: "fees.md", text: "Assembly\n\nAssembly of a bed frame costs £60." }
  ]

  it("answers though the amount it names is in no passage", () => {
    expect(answerText("£1,350 order: delivery fee?", fees)).toContain("over £500")
  })

  it("declines still when the thing it asks about is in no passage", () => {
    expect(answerText("If my order comes to £1,350, do I get a loyalty card?", fees)).toMatch(declinesEn)
  })
})

describe("a light verb typed in the present is no subject word", () => {
  it("reads 'بیارم', 'بدم', 'کنین', 'نباشه' as no subject", () => {
    const asked = analyzeQuestion("اگه خونه نباشه، شارژرمو بیارم یا به پیک بدم؟ درستش کنین")
    for (const verb of ["بیارم", "بدم", "کنین", "نباشه"]) expect(asked.subject).not.toContain(verb)
    expect(asked.subject).toContain("خونه")
  })
})

describe("a colloquial Persian word is the word the passage holds", () => {
  const repairs = [{
    path: "repairs.md",
    text: "تعمیرات\n\nکیف و کابل دوربین را همراه دستگاه نیاورید. عکس‌ها را پیش از تحویل روی حافظه دیگری ذخیره کنید."
  }]

  it("reads the colloquial plural under an ending ('عکسامو') as the noun", () => {
    expect(answerText("عکسامو کجا ذخیره کنم؟", repairs, { language: "fa" })).toContain("ذخیره کنید")
  })

  it("does not read a word the passage does not hold as one it does", () => {
    expect(answerText("لنزامو هم تمیز میکنین؟", repairs, { language: "fa" })).toMatch(declinesFa)
  })
})

describe("Persian words that only look like verbs or numbers", () => {
  it("keeps 'نام' (name), which reads like 'I don't come'", () => {
    expect(analyzeQuestion("ثبت نام کلاس کی شروع میشه؟").roots).toContain("نام")
  })

  it("reads 'پنج شنبه' typed apart as the day, and 'ساعت چند' as asking a time", () => {
    const hours = [{
      path: "hours.md",
      text: "ساعات کاری\n\nشنبه تا چهارشنبه ۸ تا ۱۷ و پنجشنبه ۸ تا ۱۲ پذیرش داریم. جمعه‌ها تعطیل است."
    }]
    expect(answerText("پنج شنبه تا ساعت چند پذیرش دارید؟", hours, { language: "fa" })).toContain("پنجشنبه ۸ تا ۱۲")
  })
})

describe("particles that carry a phrasal verb's meaning stay", () => {
  it("keeps 'off', 'up' and 'out' ('turn off', 'set up', 'sold out')", () => {
    const roots = analyzeQuestion("How do I turn it off, set it up, and what if it is out?").roots
    for (const particle of ["off", "up", "out"]) expect(roots).toContain(particle)
  })
})
