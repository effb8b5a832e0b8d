import { describe, expect, it } from "@effect/vitest"
import { fitReasoning } from "../../src/Chat/ChatModels"
import { boundHistory } from "../../src/Chat/History"
import { configuredLanguage, detectLanguage } from "../../src/Chat/Language"
import { systemPrompt } from "../../src/Chat/SystemPrompt"
import { estimateTokens } from "../../src/Chat/Tokens"

const message = (role: "user" | "assistant", content: string) => ({ role, content, tokens: estimateTokens(content) })

describe("history", () => {
  it("keeps the newest messages that fit the budget and summarises the questions before them", () => {
    const messages = [
      message("user", "Do you ship to Shiraz?"),
      message("assistant", "Yes, in three to five days.".repeat(10)),
      message("user", "And to Tabriz?"),
      message("assistant", "Yes.")
    ]
    const bounded = boundHistory(messages, estimateTokens("And to Tabriz?") + estimateTokens("Yes."))
    expect(bounded.messages.map((m) => m.content)).toEqual(["And to Tabriz?", "Yes."])
    expect(bounded.summary).toBe("Earlier in this conversation the user asked: Do you ship to Shiraz?")
    expect(boundHistory(messages, 100_000)).toEqual({ messages, summary: undefined })
    expect(boundHistory(messages, 0).messages).toEqual([])
  })
})

describe("reasoning level", () => {
  it("is the assistant's when supported, else the nearest level below, else the model's lowest", () => {
    expect(fitReasoning("high", null)).toBe("high")
    expect(fitReasoning("none", ["none"])).toBe("none")
    expect(fitReasoning("none", ["low", "medium", "high"])).toBe("low")
    expect(fitReasoning("high", ["none", "low", "medium"])).toBe("medium")
    expect(fitReasoning("medium", ["none"])).toBe("none")
  })
})

describe("answer language", () => {
  it("is the configured one, else the user's, told apart by script and Persian letters", () => {
    expect(detectLanguage("Do you ship to Shiraz?")).toBe("en")
    expect(detectLanguage("به شیراز ارسال دارید؟")).toBe("fa")
    expect(detectLanguage("هل تشحنون إلى الرياض؟")).toBe("ar")
    // Persian typed with the Arabic keyboard's ي and ك is still Persian.
    expect(detectLanguage("ميشه اين رو عوض كنم؟")).toBe("fa")
    expect(detectLanguage("كم سعر الشحن؟")).toBe("ar")
    expect(detectLanguage("Is the سماور in stock?")).toBe("en")
    expect(configuredLanguage("fa-IR")).toBe("fa")
    expect(configuredLanguage("Persian")).toBe("fa")
    expect(configuredLanguage(null)).toBeUndefined()
  })
})

describe("system prompt", () => {
  it("names the assistant, applies the preset and instruction, fixes the language and lists the passages", () => {
    const prompt = systemPrompt({
      name: "Shop helper",
      instruction: "Never promise delivery dates.",
      personality: "formal",
      language: "fa",
      maxOutputTokens: 300,
      passages: [{ n: 1, path: "shipping.md", text: "We ship to Shiraz." }],
      productSearch: true,
      imagesUnseen: 0,
      historySummary: undefined
    })
    expect(prompt).toContain(`You are "Shop helper"`)
    expect(prompt).toContain("formal, respectful register")
    expect(prompt).toContain("Never promise delivery dates.")
    expect(prompt).toContain("Answer in Persian (Farsi)")
    expect(prompt).toContain("about 300 tokens")
    expect(prompt).toContain("search_products")
    expect(prompt).toContain("[1] (shipping.md)\nWe ship to Shiraz.")
    const custom = systemPrompt({
      name: "X",
      instruction: null,
      personality: "custom",
      language: null,
      maxOutputTokens: 100,
      passages: [],
      productSearch: false,
      imagesUnseen: 1,
      historySummary: "Earlier in this conversation the user asked: hi"
    })
    expect(custom).not.toMatch(/warm|professional|playful|technical|formal/)
    expect(custom).toContain("language of the user's last message")
    expect(custom).toContain("(none matched this question)")
    expect(custom).toContain("image you cannot see")
    expect(custom).not.toContain("search_products")
    expect(custom).toContain("Earlier in this conversation the user asked: hi")
  })
})
