/**
 * Splits extracted text into retrieval chunks that follow its structure.
 *
 * Structure it reads (extraction writes every kind in these forms):
 * - headings: Markdown `#` lines (HTML and DOCX headings, PDF lines in a
 *   larger or bold font), Setext underlines (`===`, `---`, `~~~`), numbered
 *   headings such as "6.2.2 Where do these codenames come from?", and a
 *   question on a line of its own ("How do I return an item?") heading the
 *   answer under it;
 * - list items (`-`, `*`, `•`, `1.`, `a)`) and the line leading into them;
 * - pages, separated by form feeds (`\f`): a line repeated at the top or the
 *   bottom of most pages (running header, footer, page number) is dropped
 *   (`RunningLines`).
 *
 * A heading starts a new chunk and its path ("6. Debian archives › 6.2.2
 * Where do these codenames come from?") goes first in every chunk of its
 * section, so a heading is never apart from the text under it. Paragraphs are
 * kept whole when they fit, longer ones are cut at sentence ends, then clause
 * marks, then between words; a list is cut between items, its lead-in repeated.
 * A chunk that continues the previous one inside a section repeats up to
 * `overlapChars` of its last sentences. Lines wrapped inside a paragraph are
 * joined, and so are words hyphenated at a line end. The result depends on
 * the text alone, so chunk numbers 0..n-1 are stable for a document version.
 */
import { withoutRunningLines } from "./RunningLines"

export interface ChunkOptions {
  readonly maxChars: number
  readonly overlapChars: number
}

export const defaultChunkOptions: ChunkOptions = { maxChars: 1200, overlapChars: 200 }

export interface Chunk {
  /** The heading path, a blank line, then the body; what is embedded, searched and quoted. */
  readonly text: string
  /** The headings above the chunk, outermost first, joined by `headingSeparator`; empty before the first heading. */
  readonly headingPath: string
}

export const headingSeparator = " › "

const markdownHeading = /^(#{1,6})\s+(.+)$/
const setextUnderline = /^(={3,}|-{3,}|~{3,})$/
const numberedHeading = /^(\d{1,3}(?:\.\d{1,3})*)\.?\s+(?=[\p{Lu}\p{Lo}])(.+)$/u
const chapterHeading = /^(?:Chapter|Appendix|Part)\s+[\dA-Z]{1,3}\.?\s+\S/u
const listItem = /^(?:[-*+•▪◦·‣]|\(?\d{1,3}[.)]|\(?[a-z][.)])\s+\S/u
const question = /[?؟]$/u

const sentenceEnd = /(?<=[.!?؟؛;…])\s+/u
const clauseEnd = /(?<=[,،:])\s+/u

/** A line at least this long, followed by another in the same paragraph, was wrapped there. */
const wrappedLineChars = 40

/** Longest line taken for a heading: anything longer is prose. */
const maxHeadingChars = 150

// ---------------------------------------------------------------------------
// Blocks: headings, paragraphs, list items

type Block =
  | { readonly _tag: "heading"; readonly level: number | "question"; readonly text: string; readonly number?: string }
  | { readonly _tag: "paragraph"; readonly text: string }
  | { readonly _tag: "item"; readonly text: string }

/**
 * A row of a table written with pipes, with or without its Markdown rule line, or aligned with spaces ("Two-piece
 * suit      £16      3 days"): prose is not wrapped with a run of three spaces or a tab inside a line.
 */
const tableRow = (line: string) => (line.match(/\|/gu) ?? []).length >= 2 || /\S(?: {3,}|\t+)\S/u.test(line)

const endsSentence = (line: string) => /[.!?؟:;؛…)"”»]$/u.test(line)

/** A line that looks like a title: short, no sentence end except a question mark. */
const titleLike = (line: string) => line.length <= maxHeadingChars && !/[.,;:،؛]$/u.test(line)

/**
 * The line's heading, when the text alone shows it is one: numbered ("6.2.2
 * Title", a lone "6. Title" only as a paragraph of its own) or a question
 * opening its paragraph.
 */
const plainHeading = (
  line: string,
  opensParagraph: boolean,
  alone: boolean,
  byNumber: boolean,
  nextBlock: string
): Block | undefined => {
  if (byNumber && opensParagraph && chapterHeading.test(line) && titleLike(line)) {
    return { _tag: "heading", level: 1, text: line }
  }
  const numbered = byNumber ? numberedHeading.exec(line) : null
  // "1. Title" alone is a heading, unless "2." follows: then it is a loose numbered list.
  const listGoesOn = numbered !== null && nextBlock.startsWith(`${Number(numbered[1]) + 1}.`)
  if (numbered && titleLike(line) && (numbered[1].includes(".") ? opensParagraph : alone && !listGoesOn)) {
    return { _tag: "heading", level: Math.min(6, numbered[1].split(".").length), text: line, number: numbered[1] }
  }
  // With marked headings, a numbered question the extraction did not mark is a table of contents line.
  const unmarkedNumber = !byNumber && numberedHeading.test(line)
  if (opensParagraph && !unmarkedNumber && line.length <= maxHeadingChars && question.test(line)) {
    return { _tag: "heading", level: "question", text: line }
  }
  return undefined
}

const blocksOf = (text: string): Array<Block> => {
  const blocks: Array<Block> = []
  // Numbering tells headings apart only in text without marked headings (plain text, PDF without font signals).
  const byNumber = !/^#{1,6}\s+\S/m.test(text)
  const raws = text.split(/\n[ \t]*\n/)
  // The first non-blank block after each, found from the end in one pass (looking ahead from each block was
  // quadratic in the number of blocks).
  const nextBlocks: Array<string> = []
  for (let i = raws.length - 1, following = ""; i >= 0; i--) {
    nextBlocks[i] = following
    const trimmed = (raws[i] ?? "").trim()
    if (trimmed.length > 0) following = trimmed
  }
  for (const [rawIndex, raw] of raws.entries()) {
    const nextBlock = nextBlocks[rawIndex] ?? ""
    const rawLines = raw.split("\n").filter((line) => line.trim().length > 0)
    const lines = rawLines.map((line) => line.trim())
    let paragraph = ""
    let item: string | undefined
    const flush = () => {
      if (item !== undefined) blocks.push({ _tag: "item", text: item })
      else if (paragraph.length > 0) blocks.push({ _tag: "paragraph", text: paragraph })
      paragraph = ""
      item = undefined
    }
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]
      const next = lines[i + 1]
      // A marked heading starts its line; an indented `# ...` is code (a shell prompt), not a heading.
      const markdown = markdownHeading.exec(rawLines[i])
      if (markdown) {
        flush()
        blocks.push({ _tag: "heading", level: markdown[1].length, text: markdown[2].trim() })
        continue
      }
      const underline = next === undefined ? null : setextUnderline.exec(next)
      if (underline && titleLike(line) && paragraph.length === 0 && item === undefined) {
        flush()
        blocks.push({
          _tag: "heading",
          level: underline[1][0] === "=" ? 1 : underline[1][0] === "-" ? 2 : 3,
          text: line
        })
        i++
        continue
      }
      const opensParagraph = item === undefined && (paragraph.length === 0 || endsSentence(paragraph))
      const heading = plainHeading(line, opensParagraph, lines.length === 1, byNumber, nextBlock)
      if (heading) {
        flush()
        blocks.push(heading)
        continue
      }
      if (listItem.test(line)) {
        flush()
        item = line
        continue
      }
      // A line after a long one is that line wrapped, and so is one going on in lower case after an unfinished one;
      // after a short one (an address) it stays a line, and a table row ("a | b | c", "a    b    c") always does.
      const previous = lines[i - 1] ?? ""
      const wrapped = !tableRow(line) && !tableRow(previous) &&
        (previous.length >= wrappedLineChars || (/^\p{Ll}/u.test(line) && !endsSentence(previous)))
      const joiner = wrapped ? " " : "\n"
      if (item !== undefined) item += `${joiner}${line}`
      else paragraph = paragraph.length === 0 ? line : `${paragraph}${joiner}${line}`
    }
    flush()
  }
  return blocks
}

// ---------------------------------------------------------------------------
// Units: what the packer keeps whole when it can

interface Unit {
  /** A list's lead-in, repeated in front of each piece when the list is cut. */
  readonly leadIn: string
  readonly parts: ReadonlyArray<string>
  readonly separator: string
}

interface Section {
  readonly path: ReadonlyArray<string>
  readonly units: Array<Unit>
}

const sectionsOf = (blocks: ReadonlyArray<Block>): Array<Section> => {
  const sections: Array<Section> = []
  const trail: Array<
    { readonly level: number; readonly text: string; readonly question: boolean; readonly number?: string | undefined }
  > = []
  let current: Section = { path: [], units: [] }
  sections.push(current)
  for (const block of blocks) {
    if (block._tag === "heading") {
      // A question heads the answer below it, one level under the last heading that is not a question.
      while (block.level === "question" && trail.length > 0 && trail[trail.length - 1].question) trail.pop()
      const level = block.level === "question" ? Math.min(7, (trail[trail.length - 1]?.level ?? 0) + 1) : block.level
      // "6.2.2" goes under "6." even when "6.2" is missing, and never under "6.1".
      const outside = (entry: (typeof trail)[number]) =>
        entry.level >= level ||
        (entry.number !== undefined && block.number !== undefined && !block.number.startsWith(`${entry.number}.`))
      while (trail.length > 0 && outside(trail[trail.length - 1])) trail.pop()
      trail.push({ level, text: block.text, question: block.level === "question", number: block.number })
      current = { path: trail.map((entry) => entry.text), units: [] }
      sections.push(current)
      continue
    }
    const last = current.units[current.units.length - 1]
    if (block._tag === "item") {
      if (last !== undefined && last.separator === "\n") {
        current.units[current.units.length - 1] = { ...last, parts: [...last.parts, block.text] }
        continue
      }
      // The paragraph just before a list leads into it when it ends with a colon, or is short.
      if (
        last !== undefined && last.parts.length === 1 && last.leadIn === "" &&
        (/[:：]$/u.test(last.parts[0]) || last.parts[0].length <= 200)
      ) {
        current.units[current.units.length - 1] = { leadIn: last.parts[0], parts: [block.text], separator: "\n" }
        continue
      }
      current.units.push({ leadIn: "", parts: [block.text], separator: "\n" })
      continue
    }
    current.units.push({ leadIn: "", parts: [block.text], separator: "\n\n" })
  }
  return withOrphanHeadings(sections)
}

const isAncestor = (path: ReadonlyArray<string>, of: Section | undefined) =>
  of !== undefined && of.path.length > path.length && path.every((entry, index) => of.path[index] === entry)

/**
 * Sections without text: a heading over subsections stays only in their
 * paths; one with nothing under it at all (a table of contents, a loose
 * numbered list taken for headings) becomes a line of its parent section, so
 * no text is lost.
 */
const withOrphanHeadings = (sections: ReadonlyArray<Section>): Array<Section> => {
  const kept: Array<Section> = []
  sections.forEach((section, index) => {
    if (section.units.length > 0) {
      kept.push(section)
      return
    }
    if (section.path.length === 0 || isAncestor(section.path, sections[index + 1])) return
    const parentPath = section.path.slice(0, -1)
    const heading = section.path[section.path.length - 1]
    const last = kept[kept.length - 1]
    const lastUnit = last?.units[last.units.length - 1]
    if (last !== undefined && last.path.join("\n") === parentPath.join("\n")) {
      if (lastUnit !== undefined && lastUnit.separator === "\n") {
        last.units[last.units.length - 1] = { ...lastUnit, parts: [...lastUnit.parts, heading] }
      } else last.units.push({ leadIn: "", parts: [heading], separator: "\n" })
    } else {
      kept.push({ path: parentPath, units: [{ leadIn: "", parts: [heading], separator: "\n" }] })
    }
  })
  return kept
}

// ---------------------------------------------------------------------------
// Packing

/** Pieces of `text` cut after `separator`, each at most `max` long (words, then characters, as a last resort). */
const splitBounded = (text: string, max: number, separators: ReadonlyArray<RegExp>): Array<string> => {
  if (text.length <= max) return [text]
  const [separator, ...finer] = separators
  if (separator === undefined) {
    const words = text.split(/\s+/)
    if (words.length === 1) {
      const pieces: Array<string> = []
      for (let i = 0; i < text.length; i += max) pieces.push(text.slice(i, i + max))
      return pieces
    }
    return packPieces(words.flatMap((word) => splitBounded(word, max, [])), max, " ")
  }
  const parts = text.split(separator).filter((part) => part.length > 0)
  if (parts.length === 1) return splitBounded(text, max, finer)
  return packPieces(parts.flatMap((part) => splitBounded(part, max, finer)), max, " ")
}

/** Greedily joins consecutive pieces while they fit in `max`. */
const packPieces = (pieces: ReadonlyArray<string>, max: number, joiner: string): Array<string> => {
  const packed: Array<string> = []
  let current = ""
  for (const piece of pieces) {
    if (current.length === 0) current = piece
    else if (current.length + joiner.length + piece.length <= max) current += joiner + piece
    else {
      packed.push(current)
      current = piece
    }
  }
  if (current.length > 0) packed.push(current)
  return packed
}

/**
 * The last sentences of `text` that fit in `max` characters (or its last
 * words when one sentence is longer), with the text's own line breaks.
 */
const tailOf = (text: string, max: number): string => {
  if (max <= 0) return ""
  const starts = [...text.matchAll(new RegExp(sentenceEnd.source, "gu"))].map((match) => match.index + match[0].length)
  const start = starts.find((at) => text.length - at <= max)
  if (start !== undefined) return text.slice(start)
  const cut = text.slice(-max)
  const space = cut.search(/\s/)
  return space < 0 ? "" : cut.slice(space + 1)
}

/**
 * A unit as pieces of at most `room` characters: whole when it fits, a list
 * between items (lead-in repeated), prose at sentences.
 */
const piecesOf = (unit: Unit, room: number): Array<string> => {
  const whole = [unit.leadIn, ...unit.parts].filter((part) => part.length > 0).join(unit.separator)
  if (whole.length <= room) return [whole]
  if (unit.parts.length === 1 && unit.leadIn === "") return splitBounded(whole, room, [sentenceEnd, clauseEnd])
  const leadIn = unit.leadIn.length > 0 && unit.leadIn.length <= room / 3 ? unit.leadIn : ""
  const pieces: Array<string> = []
  if (unit.leadIn.length > 0 && leadIn === "") pieces.push(...splitBounded(unit.leadIn, room, [sentenceEnd, clauseEnd]))
  const itemRoom = room - (leadIn.length === 0 ? 0 : leadIn.length + unit.separator.length)
  const items = unit.parts.flatMap((part) => splitBounded(part, itemRoom, [sentenceEnd, clauseEnd]))
  for (const packed of packPieces(items, itemRoom, unit.separator)) {
    pieces.push(leadIn.length === 0 ? packed : `${leadIn}${unit.separator}${packed}`)
  }
  return pieces
}

const normalize = (text: string) =>
  withoutRunningLines(text.replace(/\r\n?/g, "\n").replace(/\u0000/g, "").replace(/\u00ad/g, ""))
    // A word hyphenated at a line end is one word.
    .replace(/(\p{Ll})-\n[ \t]*(\p{Ll})/gu, "$1$2")

/**
 * The chunks of a document's extracted text, each with its heading path, made
 * as they are asked for: the ingest embeds and writes the first ones while the
 * rest are being cut (only the text's blocks and sections are found first).
 */
export function* chunksOf(text: string, options: ChunkOptions = defaultChunkOptions): Generator<Chunk> {
  for (const section of sectionsOf(blocksOf(normalize(text)))) {
    const headingPath = section.path.join(headingSeparator)
    // The path goes in front of each chunk of the section, within the size bound.
    const prefix = headingPath.length === 0 ? "" : `${headingPath}\n\n`.slice(0, Math.floor(options.maxChars / 4))
    const room = options.maxChars - prefix.length
    let body = ""
    for (const unit of section.units) {
      for (const piece of piecesOf(unit, room)) {
        const joined = body.length === 0 ? piece : `${body}\n\n${piece}`
        if (joined.length <= room) {
          body = joined
          continue
        }
        // A cut list repeats its lead-in instead.
        const overlap = unit.separator === "\n"
          ? ""
          : tailOf(body, Math.min(options.overlapChars, room - piece.length - 2))
        if (body.trim().length > 0) yield { text: prefix + body, headingPath }
        body = overlap.length > 0 ? `${overlap}\n\n${piece}` : piece
      }
    }
    if (body.trim().length > 0) yield { text: prefix + body, headingPath }
  }
}

/** All the chunks of a document's extracted text (see `chunksOf`). */
export const chunkText = (text: string, options: ChunkOptions = defaultChunkOptions): ReadonlyArray<Chunk> => [
  ...chunksOf(text, options)
]
