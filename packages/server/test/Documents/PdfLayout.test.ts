import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { chunkText } from "../../src/Documents/Chunker"
import type { ExtractionBudget } from "../../src/Documents/Extraction/Budget"
import { extractPdf } from "../../src/Documents/Extraction/Pdf"
import { layoutText, type PdfTextItem } from "../../src/Documents/Extraction/PdfLayout"
import { fixture } from "./support"

/** One text item per line, top to bottom, `size` points, `gap` points between baselines. */
const page = (
  lines: ReadonlyArray<readonly [string, number] | readonly [string, number, number]>
): Array<PdfTextItem> => {
  let y = 800
  return lines.map(([str, size, gap]) => {
    y -= gap ?? size * 1.2
    return { str, transform: [size, 0, 0, size, 50, y], width: str.length * size * 0.5, hasEOL: true }
  })
}

const body = (text: string) => [text, 10] as const

const budget: ExtractionBudget = { maxInflatedBytes: 1e8, maxPages: 10, maxTextChars: 1e6, maxPixels: 1e7 }
/** A fixture PDF's text, a paragraph (its wrapped lines joined) or a heading on each line. */
const pdfText = (name: string) =>
  Effect.runPromise(extractPdf(fixture(`rtl/${name}`), budget)).then((text) =>
    text.split(/\n\n|(?<=^#.*)\n/mu).map((paragraph) => paragraph.replace(/\n/g, " ")).join("\n")
  )

describe("PdfLayout", () => {
  it("marks lines in a larger font as headings, leveled by numbering, else by size", () => {
    const text = layoutText([page([
      ["Debian FAQ", 20],
      ["6. The Debian archives", 16],
      body("The archives hold the packages of every release, and mirrors copy them."),
      ["6.2.2 Where do these codenames come from?", 12],
      body("So far they have been characters taken from the Toy Story movies."),
      body("Each release is named after one of them.")
    ])])
    expect(text).toBe([
      "# Debian FAQ",
      "",
      "# 6. The Debian archives",
      "The archives hold the packages of every release, and mirrors copy them.",
      "",
      "### 6.2.2 Where do these codenames come from?",
      "So far they have been characters taken from the Toy Story movies.",
      "Each release is named after one of them."
    ].join("\n"))
    const chunks = chunkText(text)
    expect(chunks.find((chunk) => chunk.text.includes("Toy Story"))?.headingPath)
      .toBe("6. The Debian archives › 6.2.2 Where do these codenames come from?")
  })

  it("joins a heading set on two lines", () => {
    const text = layoutText([
      page([
        ["Chapter 1. Getting started The Right", 16],
        ["Way", 16],
        body("Text under it, long enough to be the body.")
      ])
    ])
    expect(text.split("\n")[0]).toBe("# Chapter 1. Getting started The Right Way")
  })

  it("starts a paragraph at a wider gap, and keeps a '#' line of the document from reading as a heading", () => {
    const text = layoutText([
      page([body("First paragraph line."), body("Second paragraph line."), ["# comment in a listing", 10, 30]])
    ])
    expect(text).toBe("First paragraph line.\nSecond paragraph line.\n\n # comment in a listing")
    expect(chunkText(text).map((chunk) => chunk.headingPath)).toEqual([""])
  })

  it("separates pages with form feeds, so running headers and footers can be dropped", () => {
    const pages = ["Returns take thirty days.", "Shipping is free above fifty.", "Gift cards never expire."].map((
      line,
      i
    ) => page([body("Acme Handbook"), body(line), body("More text on this page follows here."), body(`Page ${i + 1}`)]))
    const text = layoutText(pages)
    expect(text.split("\f")).toHaveLength(3)
    const chunked = chunkText(text).map((chunk) => chunk.text).join("\n")
    expect(chunked).not.toContain("Acme Handbook")
    expect(chunked).not.toContain("Page 2")
    expect(chunked).toContain("Shipping is free above fifty.")
  })
})

/**
 * One line's pieces as a right-to-left printer (Chromium) writes them: left to
 * right across the page, each piece already in reading order inside, joined
 * Persian letters as presentation forms.
 */
const visualLine = (pieces: ReadonlyArray<string>, y = 700, size = 10): Array<PdfTextItem> => {
  let x = 50
  return pieces.map((str) => {
    const width = str.length * size * 0.5
    const item = { str, transform: [size, 0, 0, size, x, y], width, hasEOL: false }
    x += width
    return item
  })
}

describe("PdfLayout, right-to-left text", () => {
  it("reads joined letter shapes (presentation forms) as the base letters", () => {
    // "سفارش" as Chromium prints it, each shape a piece: ﺳ ﻔ ﺎ رش, left to right on the page.
    const text = layoutText([visualLine(["رش", "\uFE8E", "\uFED4", "\uFEB3"])])
    expect(text).toBe("سفارش")
    expect(layoutText([visualLine(["\uFEFB", "\uFB94"])])).toBe("گلا")
  })

  it("reads a right-to-left line from right to left", () => {
    const text = layoutText([visualLine(["رش", "\uFE8E", "\uFED4", "\uFEB3", " ", "ل", "\uFE8E", "\uFEB3", "ار"])])
    expect(text).toBe("ارسال سفارش")
  })

  it("keeps a Latin number or English name inside a Persian line in its place, read left to right", () => {
    const text = layoutText([
      visualLine([".", "است", " ", "رایگان", " ", "تومان", " ", "هزار", " ", "500", " ", "بالای", " ", "ارسال"])
    ])
    expect(text).toBe("ارسال بالای 500 هزار تومان رایگان است.")
    const product = layoutText([visualLine(["دارد", " ", "Samovar", " ", "2000", " ", "سماور"])])
    expect(product).toBe("سماور Samovar 2000 دارد")
    // Numbers apart from each other are separate runs: "from 10 to 20".
    expect(layoutText([visualLine(["20", " ", "تا", " ", "10", " ", "از"])])).toBe("از 10 تا 20")
  })

  it("turns brackets drawn mirrored in a right-to-left line back to the ones written", () => {
    // "(تا ۱۴ روز)": the opening bracket is drawn on the right, shaped ")".
    expect(layoutText([visualLine(["(", "روز", " ", "۱۴", " ", "تا", ")", " ", "مهلت"])])).toBe("مهلت (تا ۱۴ روز)")
    expect(layoutText([visualLine(["است", " ", "(", "Samovar 2000", ")", " ", "مدل"])])).toBe("مدل (Samovar 2000) است")
  })

  it("keeps a Persian name inside an English line in its place", () => {
    const text = layoutText([visualLine(["Sold as", " ", "برقی", " ", "سماور", " ", "in Tehran."])])
    expect(text).toBe("Sold as سماور برقی in Tehran.")
  })

  it("keeps the order of lines and paragraphs, whatever their direction", () => {
    const text = layoutText([[
      ...visualLine(["است", " ", "اول"], 700),
      ...visualLine(["First English line."], 688),
      ...visualLine(["دوم", " ", "خط"], 676),
      ...visualLine(["سوم", " ", "بند"], 640)
    ]])
    expect(text).toBe("اول است\nFirst English line.\nخط دوم\n\nبند سوم")
  })

  it("reads a left-to-right line in the order the PDF gives, as before", () => {
    // Pieces out of x order (a superscript written after its line) stay where the stream puts them.
    const items: Array<PdfTextItem> = [
      { str: "Water boils at 100 ", transform: [10, 0, 0, 10, 50, 700], width: 95 },
      { str: "C", transform: [10, 0, 0, 10, 160, 700], width: 5 },
      { str: "o", transform: [6, 0, 0, 6, 150, 704], width: 3 }
    ]
    expect(layoutText([items])).toBe("Water boils at 100 Co")
  })

  it("reads a Persian page printed by Chromium as it was written", async () => {
    // Chromium does not draw the zero-width non-joiner ("سفارش‌ها"), so the PDF has none.
    expect((await pdfText("shipping-fa.chromium.pdf")).split("\n")).toEqual([
      "# سیاست ارسال و بازگشت",
      "ارسال سفارش های بالای 500 هزار تومان رایگان است.",
      "سماور برقی Samovar 2000 دو سال گارانتی دارد و تا ۱۴ روز پس از خرید قابل بازگشت است.",
      "سفارشها از انبار تهران ظرف دو روز کاری ارسال میشوند و هزینه ارسال به شهرهای دیگر بر اساس وزن بسته محاسبه میشود.",
      "مدل جدید (Samovar 3000) از ۱۴۰۴/۰۷/۰۱ موجود است.",
      "The Samovar 2000 is sold as سماور برقی in our Tehran shop."
    ])
  })

  it("reads the spaces LibreOffice leaves as gaps, and its brackets as written", async () => {
    const text = await pdfText("shipping-fa.libreoffice.pdf")
    expect(text).toContain("مدل جدید (Samovar 3000) از ۱۴۰۴/۰۷/۰۱ موجود است.")
    expect(text).toContain("سماور برقی Samovar 2000 دو سال گارانتی دارد و تا ۱۴ روز پس از خرید قابل بازگشت است.")
    expect(text).toContain(" 500 هزار تومان رایگان است.")
  })
})
