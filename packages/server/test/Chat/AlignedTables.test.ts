/**
 * A plain-text table aligned with spaces is read as a table: each row a line carrying its column headers, and a
 * title in capitals with a note in brackets heads the rows under it.
 */
import { describe, expect, it } from "vitest"
import { linesOf } from "../../src/Chat/PassageLines"
import { answerText } from "./support/Compose"

const framing = [
  "FRAMING (prices per piece)",
  "Item                              Price      Ready in",
  "Small print, up to A4             £12        2 working days",
  "Poster, up to A1                  £38        4 working days",
  "Canvas stretching                 £55        6 working days",
  "",
  "Every frame is cut by hand in our workshop."
].join("\n")

describe("a table aligned with spaces", () => {
  it("reads each row as a line with its column headers", () => {
    const lines = linesOf(framing)
    expect(lines.map((line) => line.text)).toContain("Item: Poster, up to A1 — Price: £38; Ready in: 4 working days.")
  })

  it("reads a title in capitals with a note in brackets as a label over its rows", () => {
    const [title, row] = linesOf(framing)
    expect(title?.label).toBe(true)
    expect(row?.context).toBe("FRAMING (prices per piece)")
  })

  it("keeps a first row stating values as a row: an aligned table may have no header", () => {
    const lines = linesOf("Weekdays          9 to 17\nSundays           closed").map((line) => line.text)
    expect(lines).toEqual(["Weekdays — 9 to 17.", "Sundays — closed."])
  })

  it("answers the price of one row's item from that row", () => {
    const answer = answerText("how much to frame a poster", [{ path: "prices.txt", text: `Prices\n\n${framing}` }])
    expect(answer).toContain("£38")
    expect(answer).not.toContain("£55")
  })

  it("reads a Persian aligned table, its digits Persian", () => {
    const text = "نوع خدمت          قیمت           زمان\nشستن فرش          ۹۰ هزار تومان    ۳ روز\nرفو               ۲۰۰ هزار تومان   ۷ روز"
    expect(linesOf(text).map((line) => line.text)).toContain("نوع خدمت: رفو — قیمت: ۲۰۰ هزار تومان; زمان: ۷ روز.")
  })
})
