import { describe, expect, it } from "vitest"
import { chunkText } from "../../src/Documents/Chunker"
import { layoutText, type PdfTextItem } from "../../src/Documents/Extraction/PdfLayout"

/** One text item per line, top to bottom, `size` points, `gap` points between baselines. */
const page = (lines: ReadonlyArray<readonly [string, number] | readonly [string, number, number]>): Array<PdfTextItem> => {
  let y = 800
  return lines.map(([str, size, gap]) => {
    y -= gap ?? size * 1.2
    return { str, transform: [size, 0, 0, size, 50, y], hasEOL: true }
  })
}

const body = (text: string) => [text, 10] as const

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
    const text = layoutText([page([["Chapter 1. Getting started The Right", 16], ["Way", 16], body("Text under it, long enough to be the body.")])])
    expect(text.split("\n")[0]).toBe("# Chapter 1. Getting started The Right Way")
  })

  it("starts a paragraph at a wider gap, and keeps a '#' line of the document from reading as a heading", () => {
    const text = layoutText([page([body("First paragraph line."), body("Second paragraph line.", ), ["# comment in a listing", 10, 30]])])
    expect(text).toBe("First paragraph line.\nSecond paragraph line.\n\n # comment in a listing")
    expect(chunkText(text).map((chunk) => chunk.headingPath)).toEqual([""])
  })

  it("separates pages with form feeds, so running headers and footers can be dropped", () => {
    const pages = ["Returns take thirty days.", "Shipping is free above fifty.", "Gift cards never expire."].map((line, i) =>
      page([body("Acme Handbook"), body(line), body("More text on this page follows here."), body(`Page ${i + 1}`)])
    )
    const text = layoutText(pages)
    expect(text.split("\f")).toHaveLength(3)
    const chunked = chunkText(text).map((chunk) => chunk.text).join("\n")
    expect(chunked).not.toContain("Acme Handbook")
    expect(chunked).not.toContain("Page 2")
    expect(chunked).toContain("Shipping is free above fifty.")
  })
})
