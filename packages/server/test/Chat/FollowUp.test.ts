import { describe, expect, it } from "vitest"
import { isFollowUp, resolveFollowUp } from "../../src/Chat/FollowUp"
import { compose } from "../../src/Chat/OfflineModel"

const user = (content: string) => ({ role: "user" as const, content, tokens: 10 })
const bot = (content: string) => ({ role: "assistant" as const, content, tokens: 10 })

describe("follow-up questions", () => {
  it("are told by an opening that continues, a pronoun, or too few words of their own", () => {
    const previous = "How long does delivery inside the city take?"
    for (
      const question of ["And to another province?", "what about refunds?", "و برای شهرهای دیگر؟", "How much is it?"]
    ) {
      expect(isFollowUp(question, previous), question).toBe(true)
    }
    expect(isFollowUp("Which payment cards do you accept at checkout?", previous)).toBe(false)
  })

  it("are told by a colloquial Persian opening or a closing that asks again ('X چی؟', 'too?')", () => {
    const previous = "ارسال به شهرهای دیگه چند روز طول میکشه؟"
    for (
      const question of [
        "واسه کالاهای سنگین و بزرگ باربری چند روزه؟",
        "در اون صورت هزینه بسته‌بندی و پیک با کیه؟",
        "کالاهای حجیم مثل یخچال و لباسشویی چی؟",
        "Can I pay for the large fridges by card too?",
        "In that case, who pays for the courier and packaging?"
      ]
    ) {
      expect(isFollowUp(question, previous), question).toBe(true)
    }
    expect(isFollowUp("کارت‌های بانکی عضو شتاب رو برای پرداخت قبول میکنین؟", previous)).toBe(false)
    expect(isFollowUp("اگه کالای سنگین خراب برسه هزینه برگشت با کیه؟", previous)).toBe(false)
    expect(isFollowUp("Which payment cards do you accept for large fridges at checkout?", previous)).toBe(false)
  })

  it("are searched together with the user's previous question; a new question alone", () => {
    const history = [user("How long does delivery inside the city take?"), bot("One day.")]
    expect(resolveFollowUp("And to another province?", history)).toEqual({
      query: "How long does delivery inside the city take?\nAnd to another province?",
      previousQuestion: "How long does delivery inside the city take?"
    })
    expect(resolveFollowUp("Which payment cards do you accept at checkout?", history).previousQuestion).toBeUndefined()
    expect(resolveFollowUp("And to another province?", []).previousQuestion).toBeUndefined()
  })

  const answer = (question: string, previousQuestion: string, text: string, language: "en" | "fa" = "en") =>
    compose({
      messages: [],
      tools: [],
      maxOutputTokens: 1024,
      reasoning: "none",
      grounding: {
        question,
        previousQuestion,
        language,
        passages: [{ n: 1, path: "delivery.md", text }],
        assistantName: "Shop",
        imagesAttached: 0
      }
    }, []).text

  it("are answered with the previous question's kind of value and subject, for their own detail", () => {
    const note = "Delivery\n\nWe post every parcel with a tracking code. Delivery inside the capital takes one day; " +
      "other provinces take two to six days."
    const text = answer("And to other provinces?", "How fast is delivery inside the capital?", note)
    expect(text).toContain("two to six days")
    const persian = "ارسال\n\nارسال درون پایتخت یک روز طول می‌کشد. ارسال به استان‌های دیگر دو تا شش روز طول می‌کشد."
    expect(answer("و به استانهای دیگه؟", "ارسال درون پایتخت چند روز طول میکشه؟", persian, "fa")).toContain(
      "دو تا شش روز"
    )
  })

  it("switch subject when they name a new one", () => {
    const note = "Policies\n\nDelivery takes two days. Refunds reach your card within 9 days."
    expect(answer("what about refunds?", "How many days does delivery take?", note)).toContain("9 days")
  })
})
