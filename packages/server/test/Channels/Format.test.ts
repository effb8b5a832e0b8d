import { describe, expect, it } from "@effect/vitest"
import { escapeHtml, messageLimit, productCaption, splitMessage } from "../../src/Channels/Telegram/Format"

const unescape = (html: string) => html.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&")

describe("Telegram formatting", () => {
  it("escapes what would be read as HTML", () => {
    expect(splitMessage("1 < 2 & <b>bold</b>")).toEqual(["1 &lt; 2 &amp; &lt;b&gt;bold&lt;/b&gt;"])
  })

  it("splits long answers under 4,096 characters at paragraph, line or word boundaries, losing nothing", () => {
    const paragraph = "word ".repeat(300).trim()
    const text = Array.from({ length: 12 }, (_, i) => `${i}: ${paragraph}`).join("\n\n")
    const parts = splitMessage(text)
    expect(parts.length).toBeGreaterThan(1)
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(messageLimit)
    expect(parts.map(unescape).join("\n\n")).toBe(text)
    // Entities are never cut: each part unescapes and re-escapes to itself.
    const dense = "<&>".repeat(5000)
    const denseParts = splitMessage(dense)
    for (const part of denseParts) {
      expect(part.length).toBeLessThanOrEqual(messageLimit)
      expect(escapeHtml(unescape(part))).toBe(part)
    }
    expect(denseParts.map(unescape).join("")).toBe(dense)
    // Without any space, a hard cut that keeps emoji whole.
    const emoji = "😀".repeat(3000)
    const emojiParts = splitMessage(emoji)
    expect(emojiParts.join("")).toBe(emoji)
    for (const part of emojiParts) expect(/^(?:\uD83D\uDE00)+$/.test(part)).toBe(true)
  })

  it("a product caption: bold title, price, link; at most 1,024 characters", () => {
    expect(
      productCaption(
        { title: "Tea & cups", price: 12.5, currency: "EUR", url: "https://s.example/p?a=1&b=\"2\"" },
        "View"
      )
    )
      .toBe("<b>Tea &amp; cups</b>\n12.5 EUR\n<a href=\"https://s.example/p?a=1&amp;b=&quot;2&quot;\">View</a>")
    expect(productCaption({ title: "Free", price: null, currency: null, url: null }, "View")).toBe("<b>Free</b>")
    const long = productCaption(
      { title: "<".repeat(2000), price: 1, currency: null, url: "https://s.example/p" },
      "View"
    )
    expect(long.length).toBeLessThanOrEqual(1024)
    expect(long).toContain("…</b>\n1\n<a href=")
  })
})

describe("plain-text formatting (Bale, WhatsApp)", () => {
  it("leaves the text as written and splits it under the given limit", () => {
    expect(splitMessage("1 < 2 & <b>", 4000, "plain")).toEqual(["1 < 2 & <b>"])
    const text = Array.from({ length: 8 }, (_, i) => `${i}: ${"<&> ".repeat(400).trim()}`).join("\n\n")
    const parts = splitMessage(text, 4000, "plain")
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(4000)
    expect(parts.join("\n\n")).toBe(text)
  })

  it("shows a product as its title, price and the link's label with the bare URL", () => {
    const caption = productCaption(
      { title: "Tea <green>", price: 120000, currency: "IRR", url: "https://shop.example.com/p?a=1&b=2" },
      "View product",
      "plain"
    )
    expect(caption).toBe("Tea <green>\n120,000 IRR\nView product: https://shop.example.com/p?a=1&b=2")
  })
})
