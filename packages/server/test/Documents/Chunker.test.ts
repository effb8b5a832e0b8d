import { describe, expect, it } from "vitest"
import { chunkText } from "../../src/Documents/Chunker"

const small = { maxChars: 300, overlapChars: 60 }

describe("Chunker", () => {
  it("keeps a Markdown heading with the paragraphs under it and records the heading path", () => {
    const chunks = chunkText([
      "# Debian archives",
      "",
      "Intro to the archives.",
      "",
      "## Where do these codenames come from?",
      "",
      "So far they have been characters taken from the Toy Story movies.",
      "",
      "## Other",
      "",
      "Something else."
    ].join("\n"))
    expect(chunks.map((chunk) => chunk.headingPath)).toEqual([
      "Debian archives",
      "Debian archives › Where do these codenames come from?",
      "Debian archives › Other"
    ])
    expect(chunks[1].text).toBe(
      "Debian archives › Where do these codenames come from?\n\nSo far they have been characters taken from the Toy Story movies."
    )
  })

  it("reads numbered headings such as 6.2.2 and nests them by their numbers", () => {
    const chunks = chunkText([
      "6. The Debian archives",
      "",
      "6.1 How many Debian distributions are there in the dists directory?",
      "There are three major distributions.",
      "6.2.2 Where do these codenames come from?",
      "So far they have been characters taken from the Toy Story movies."
    ].join("\n"))
    expect(chunks.map((chunk) => chunk.headingPath)).toEqual([
      "6. The Debian archives › 6.1 How many Debian distributions are there in the dists directory?",
      "6. The Debian archives › 6.2.2 Where do these codenames come from?"
    ])
    expect(chunks[1].text).toContain("Toy Story")
  })

  it("keeps a question on a line of its own with the answer under it", () => {
    const chunks = chunkText(
      [
        "Returns",
        "=======",
        "",
        "How long do I have to return an item?",
        "You have 30 days from delivery.",
        "",
        "Who pays for return shipping?",
        "",
        "We do, when the item arrived damaged."
      ].join("\n"),
      small
    )
    expect(chunks.map((chunk) => chunk.headingPath)).toEqual([
      "Returns › How long do I have to return an item?",
      "Returns › Who pays for return shipping?"
    ])
    expect(chunks[0].text).toContain("30 days")
    expect(chunks[1].text).toContain("damaged")
  })

  it("reads Persian questions as headings too", () => {
    const chunks = chunkText("## ارسال\n\nهزینهٔ ارسال چقدر است؟\nارسال بالای یک میلیون تومان رایگان است.")
    expect(chunks[0].headingPath).toBe("ارسال › هزینهٔ ارسال چقدر است؟")
    expect(chunks[0].text).toContain("رایگان")
  })

  it("keeps list items with their lead-in, and repeats the lead-in when a long list is cut", () => {
    const items = Array.from({ length: 12 }, (_, i) => `- Item number ${i + 1} with a few words of text`)
    const chunks = chunkText(["We accept these payment methods:", ...items].join("\n"), small)
    expect(chunks.length).toBeGreaterThan(1)
    for (const chunk of chunks) expect(chunk.text.startsWith("We accept these payment methods:\n- Item")).toBe(true)
    expect(chunks.flatMap((chunk) => chunk.text.split("\n").slice(1))).toEqual(items)
  })

  it("drops running headers, footers and page numbers repeated on every page", () => {
    const bodies = [
      "Returns take thirty days.",
      "Shipping is free above fifty.",
      "Gift cards never expire.",
      "Call us on weekdays."
    ]
    const page = (n: number, body: string) =>
      `Acme Shop Handbook\n${body}\nSee the other chapters.\nConfidential — page ${n}\n${n}`
    const text = bodies.map((body, i) => page(i + 1, body)).join("\f")
    const chunks = chunkText(text)
    const all = chunks.map((chunk) => chunk.text).join("\n")
    expect(all).not.toContain("Acme Shop Handbook")
    expect(all).not.toContain("Confidential")
    for (const body of bodies) expect(all).toContain(body)
  })

  it("keeps a line that only some pages start with", () => {
    const text = [
      "Intro\nFirst page.",
      "Intro\nSecond page.",
      "Other\nThird page.",
      "Other\nFourth page.",
      "Last\nFifth."
    ].join("\f")
    expect(chunkText(text).map((chunk) => chunk.text).join("\n")).toContain("Intro")
  })

  it("joins words hyphenated at a line end and lines wrapped inside a paragraph", () => {
    const chunks = chunkText(
      "The package management system is responsible for the instal-\nlation of software on the machine, and it keeps\ntrack of every file."
    )
    expect(chunks[0].text).toBe(
      "The package management system is responsible for the installation of software on the machine, and it keeps track of every file."
    )
  })

  it("keeps short lines apart (an address, a table)", () => {
    const chunks = chunkText("Phone: 021 1234\nEmail: shop@example.com")
    expect(chunks[0].text).toBe("Phone: 021 1234\nEmail: shop@example.com")
  })

  it("keeps a numbered list as a list under a marked heading", () => {
    const chunks = chunkText("# Steps\n\n1. Open the box\n\n2. Plug it in\n\n3. Press the button")
    expect(chunks).toEqual([{
      headingPath: "Steps",
      text: "Steps\n\n1. Open the box\n2. Plug it in\n3. Press the button"
    }])
  })

  it("keeps headings that have nothing under them as lines, so no text is lost", () => {
    const chunks = chunkText("Read these first.\n\n1. Getting started\n\n7. Reference")
    expect(chunks).toEqual([{ headingPath: "", text: "Read these first.\n\n1. Getting started\n7. Reference" }])
  })

  it("keeps a loose numbered list a list with its lead-in", () => {
    const chunks = chunkText("Steps to follow:\n\n1. Open the box\n\n2. Plug it in\n\n3. Press the button")
    expect(chunks).toEqual([{
      headingPath: "",
      text: "Steps to follow:\n1. Open the box\n2. Plug it in\n3. Press the button"
    }])
  })

  it("reads plain-text chapter headings", () => {
    const chunks = chunkText("Chapter 1. About this document\n\nThis document is part of the policy package.")
    expect(chunks[0].headingPath).toBe("Chapter 1. About this document")
  })

  it("cuts a long section at sentence ends, every piece under its heading path, within the size bound", () => {
    const sentences = Array.from({ length: 30 }, (_, i) => `Sentence number ${i + 1} says something useful.`)
    const chunks = chunkText(`# Long section\n\n${sentences.join(" ")}`, small)
    expect(chunks.length).toBeGreaterThan(3)
    for (const chunk of chunks) {
      expect(chunk.text.length).toBeLessThanOrEqual(small.maxChars)
      expect(chunk.text.startsWith("Long section\n\n")).toBe(true)
      expect(chunk.headingPath).toBe("Long section")
    }
    const text = chunks.map((chunk) => chunk.text).join(" ")
    for (const sentence of sentences) expect(text).toContain(sentence)
  })

  it("repeats the end of the previous chunk with its own line breaks, so a label stays on its line", () => {
    const entries = Array.from(
      { length: 12 },
      (_, i) => `Applications/Section${i}\n\nSoftware of kind ${i}.\n\nTools.\n\nExamples: t${i}.`
    )
    const chunks = chunkText(`# Menu\n\n${entries.join("\n\n")}`, small)
    expect(chunks.length).toBeGreaterThan(2)
    for (const chunk of chunks.slice(1)) {
      const body = chunk.text.slice("Menu\n\n".length)
      // Sentences of the repeated part are not run together onto one line.
      expect(body).not.toMatch(/\. (?:Applications|Examples|Software|Tools)/)
    }
  })

  it("is deterministic and drops nothing but blank text", () => {
    expect(chunkText("   \n\n  ")).toEqual([])
    const text = "# A\n\nOne.\n\n## B\n\nTwo."
    expect(chunkText(text)).toEqual(chunkText(text))
  })
})

describe("tables written with pipes", () => {
  it("keeps each row a line, with or without the rule line", () => {
    const row = "Express delivery with tracking and insurance, signed for | next working day | £9.50"
    const text =
      `Rates\n\nService | Time | Price\n${row}\nEconomy delivery without tracking, left at the door | five days | £2`
    const chunk = chunkText(text)[0]?.text ?? ""
    expect(chunk).toContain(`${row}\nEconomy`)
  })
})

describe("tables aligned with spaces", () => {
  it("keeps each row a line, however long, while wrapped prose is joined", () => {
    const row = "Large mirror, framed, up to 120 cm          £45        five working days"
    const text = `Framing\n\nItem                              Price      Ready in\n${row}\n` +
      `Small print, mounted, up to A4                £12        two working days\n\n` +
      "Every frame is cut by hand in our workshop from timber we buy from\nsustainable sources only."
    const chunk = chunkText(text)[0]?.text ?? ""
    expect(chunk).toContain(`${row}\nSmall print`)
    expect(chunk).toContain("buy from sustainable")
  })
})
