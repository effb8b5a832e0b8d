/** When a question is served a curated answer: the threshold, tested at its edge, and real rewordings. */
import { describe, expect, it } from "@effect/vitest"
import * as Option from "effect/Option"
import { bestMatch } from "../../src/Curated/CuratedAnswers"
import type { CuratedRow } from "../../src/Curated/CuratedRepo"
import { embedOne } from "../../src/Search/OfflineEmbedder"
import {
  curatedThreshold,
  meaningWeight,
  type QuestionKey,
  questionTerms,
  similarity
} from "../../src/Search/QuestionSimilarity"

const row = (variants: ReadonlyArray<QuestionKey & { readonly question: string }>, language: string | null = null) =>
  ({
    id: "cur_1",
    questions: variants.map((variant) => variant.question),
    answer: "the curated answer",
    language,
    modelId: "test",
    variants,
    hitCount: 0,
    lastHitAt: null,
    createdAt: new Date(),
    updatedAt: new Date()
  }) satisfies CuratedRow

const anyLanguage = () => true

/** A question whose keyword side is exactly one half and whose meaning side makes the score `target`. */
const scoredAt = (target: number) => {
  const cos = (target - (1 - meaningWeight) * 0.5) / meaningWeight
  return {
    stored: { question: "stored", terms: ["alpha", "beta"], vector: [1, 0] },
    asked: { terms: ["alpha", "gamma"], vector: [cos, Math.sqrt(1 - cos * cos)] }
  }
}

const keyOf = (text: string): QuestionKey => ({ terms: questionTerms(text), vector: embedOne(text) })
const variant = (question: string) => ({ question, ...keyOf(question) })

describe("curated matching", () => {
  it("a question scoring just above the threshold is served the curated answer", () => {
    const { asked, stored } = scoredAt(curatedThreshold + 0.005)
    expect(similarity(asked, stored)).toBeCloseTo(curatedThreshold + 0.005, 6)
    expect(Option.isSome(bestMatch([row([stored])], asked, anyLanguage))).toBe(true)
  })

  it("a question scoring just below the threshold is not", () => {
    const { asked, stored } = scoredAt(curatedThreshold - 0.005)
    expect(similarity(asked, stored)).toBeCloseTo(curatedThreshold - 0.005, 6)
    expect(Option.isNone(bestMatch([row([stored])], asked, anyLanguage))).toBe(true)
  })

  it("a rewording that keeps the question's weighty words matches; another city does not", () => {
    const curated = [row([variant("Do you ship to Kish island?"), variant("Can you ship my order to Kish?")])]
    const hit = bestMatch(curated, keyOf("Can you ship to Kish?"), anyLanguage)
    expect(Option.map(hit, (h) => h.id)).toEqual(Option.some("cur_1"))
    expect(Option.isNone(bestMatch(curated, keyOf("Do you ship to Shiraz?"), anyLanguage))).toBe(true)
  })

  it("Persian is normalised like search: letter variants and half-spaces do not matter", () => {
    const curated = [row([variant("آیا به جزیره کیش ارسال می‌کنید؟")])]
    expect(Option.isSome(bestMatch(curated, keyOf("آيا به جزيره كيش ارسال ميكنيد"), anyLanguage))).toBe(true)
    expect(Option.isNone(bestMatch(curated, keyOf("به شیراز ارسال دارید؟"), anyLanguage))).toBe(true)
  })

  it("an answer written for another language is skipped", () => {
    const curated = [row([variant("Do you ship to Kish island?")], "fa")]
    const persianOnly = (language: string | null) => language === null || language === "en"
    expect(Option.isNone(bestMatch(curated, keyOf("Do you ship to Kish island?"), persianOnly))).toBe(true)
  })
})
