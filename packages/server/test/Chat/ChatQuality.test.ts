import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { TestApp } from "../support/TestApp"
import { runChatQuality } from "./support/ChatQuality"

// The evaluation of scripts/eval/chat-quality.ts, as a floor the offline model must not fall below.
layer(TestApp({ DASTYAR_RATE_LIMIT_PER_MINUTE: "100000" }), { excludeTestServices: true })("chat quality", (it) => {
  it.effect(
    "the offline model finds and quotes the answer to English and Persian questions, and admits what it does not know",
    () =>
      Effect.gen(function*() {
        const figures = yield* runChatQuality({ floor: 0.35, latencyRounds: 1 })
        expect(figures.byLanguage.all.hitAt5).toBeGreaterThanOrEqual(0.95)
        expect(figures.byLanguage.en.factInAnswer).toBeGreaterThanOrEqual(0.9)
        expect(figures.byLanguage.fa.factInAnswer).toBeGreaterThanOrEqual(0.9)
        expect(figures.byLanguage.heldOut.factInAnswer).toBeGreaterThanOrEqual(0.8)
        expect(figures.byLanguage.all.citesDocument).toBeGreaterThanOrEqual(0.95)
        expect(figures.honest).toBe(figures.unanswerable)
      }),
    { timeout: 120_000 }
  )
})
