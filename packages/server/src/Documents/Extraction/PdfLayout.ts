/**
 * A PDF's text items (PDF.js `getTextContent`) as text that keeps the
 * structure for the chunker: lines in a font clearly larger than the body's
 * become Markdown `#` headings (level from their numbering such as "6.2.2",
 * else from their size among the heading sizes), a wider gap between lines
 * becomes a blank line (a paragraph), and pages are separated by form feeds
 * so the chunker can drop running headers and footers. Each line's pieces
 * are read in the line's direction (see `PdfReadingOrder`).
 */
import { type Piece, readLines } from "./PdfReadingOrder"

/** What is used of a PDF.js text item. */
export interface PdfTextItem {
  readonly str: string
  /** [scaleX, skewY, skewX, scaleY, x, y] */
  readonly transform: ReadonlyArray<number>
  readonly hasEOL?: boolean | undefined
  /** Advance width in page units. */
  readonly width: number
  /** PDF.js's reading direction of the piece: "ltr", "rtl" or "ttb". */
  readonly dir?: string | undefined
}

interface Line {
  text: string
  readonly pieces: Array<Piece>
  readonly y: number
  size: number
}

/** A heading's font is at least this much larger than the body's. */
const headingScale = 1.15
/** A gap between lines larger than this many font sizes starts a paragraph. */
const paragraphGap = 1.6
const maxHeadingChars = 150
const numbering = /^(\d{1,3}(?:\.\d{1,3})*)\.?\s+\S/

const sizeOf = (item: PdfTextItem) => Math.round(Math.hypot(item.transform[2] ?? 0, item.transform[3] ?? 0) * 2) / 2

const linesOf = (items: ReadonlyArray<PdfTextItem>): Array<Line> => {
  const lines: Array<Line> = []
  let current: Line | undefined
  for (const item of items) {
    const y = item.transform[5] ?? 0
    const size = sizeOf(item)
    if (item.str.length > 0) {
      if (current === undefined || Math.abs(current.y - y) > Math.max(current.size, size) / 2) {
        current = { text: "", pieces: [], y, size: 0 }
        lines.push(current)
      }
      current.pieces.push({ text: item.str, x: item.transform[4] ?? 0, width: item.width, size, dir: item.dir })
      if (item.str.trim().length > 0) current.size = Math.max(current.size, size)
    }
    if (item.hasEOL) current = undefined
  }
  return lines
}

/** Each page's lines with their text read in order; lines without text dropped. */
const readPages = (pages: ReadonlyArray<ReadonlyArray<Line>>): Array<Array<Line>> => {
  const lines = pages.flat()
  readLines(lines.map((line) => line.pieces)).forEach((text, index) => {
    const line = lines[index]
    if (line !== undefined) line.text = text
  })
  return pages.map((page) => page.filter((line) => line.text.trim().length > 0))
}

/** The font size most of the document's characters are set in. */
const bodySizeOf = (pages: ReadonlyArray<ReadonlyArray<Line>>): number => {
  const characters = new Map<number, number>()
  for (const line of pages.flat()) characters.set(line.size, (characters.get(line.size) ?? 0) + line.text.length)
  let body = 0
  let most = -1
  for (const [size, count] of characters) {
    if (count > most) [body, most] = [size, count]
  }
  return body
}

const isHeading = (line: Line, bodySize: number) => {
  const text = line.text.trim()
  return line.size >= bodySize * headingScale && text.length <= maxHeadingChars && /\p{L}/u.test(text) &&
    !/[,;:،]$/u.test(text)
}

/** The pages' text, separated by form feeds; a page without text stays an empty page. */
export const layoutText = (pageItems: ReadonlyArray<ReadonlyArray<PdfTextItem>>): string => {
  const pages = readPages(pageItems.map(linesOf))
  const bodySize = bodySizeOf(pages)
  const headingSizes = [...new Set(pages.flat().filter((line) => isHeading(line, bodySize)).map((line) => line.size))]
    .sort((a, b) => b - a)
  const levelOf = (line: Line) => {
    const numbered = numbering.exec(line.text.trim())
    if (numbered) return Math.min(6, numbered[1].split(".").length)
    return Math.min(6, headingSizes.indexOf(line.size) + 1)
  }
  return pages
    .map((lines) => {
      const out: Array<string> = []
      let previous: Line | undefined
      for (const line of lines) {
        const text = line.text.replace(/\s+/g, " ").trim()
        if (isHeading(line, bodySize)) {
          // A heading set on two lines is one heading; the next numbered one is another.
          const last = out[out.length - 1]
          const continues = previous !== undefined && previous.size === line.size && last?.startsWith("#") &&
            previous.y - line.y < paragraphGap * line.size && !numbering.test(text) &&
            !/^(Chapter|Appendix)\b/.test(text)
          if (continues) out[out.length - 1] = `${last} ${text}`
          else out.push("", `${"#".repeat(levelOf(line))} ${text}`)
        } else {
          const gap = previous === undefined ? 0 : previous.y - line.y
          if (previous !== undefined && (gap > paragraphGap * Math.max(line.size, previous.size) || gap < 0)) {
            out.push("")
          }
          // A line of the document starting with "#" (a comment, a shell prompt) must not read as a heading.
          out.push(text.startsWith("#") ? ` ${text}` : text)
        }
        previous = line
      }
      return out.join("\n").replace(/\n{3,}/g, "\n\n").trim()
    })
    .join("\f")
}
