/**
 * The reading order of the text pieces on each line of a PDF, for right-to-left
 * scripts (Persian, Arabic, Hebrew) as well as left-to-right ones.
 *
 * A PDF holds glyphs where they are drawn, not in the order they are read.
 * Chromium, and other printers, write a Persian line left to right across the
 * page, one piece per run of glyphs; PDF.js puts each piece's own characters
 * in reading order (its bidi pass), but not the pieces of a line. Joined
 * letters are often mapped to Unicode presentation forms (U+FB50–FDFF,
 * U+FE70–FEFF), which match nothing a reader types.
 *
 * So pieces are normalised to base letters, a line containing right-to-left
 * letters is put in visual order (x ascending), cut into runs of one
 * direction, and read in the line's direction: a right-to-left line from its
 * right edge, with an English name or a number inside it kept left to right,
 * and a left-to-right line with a Persian name inside it read the other way
 * round. A line without right-to-left letters keeps the PDF's order.
 *
 * PDF.js adds spaces for gaps only along the content stream, which some
 * writers (LibreOffice) fill from right to left; a gap between neighbouring
 * pieces on the page is a space here.
 */

export interface Piece {
  readonly text: string
  /** Left edge on the page, and width. */
  readonly x: number
  readonly width: number
  /** Font size, which measures what gap is a space. */
  readonly size: number
  /** PDF.js's direction of the piece, used when it holds letters of both directions. */
  readonly dir?: string | undefined
}

// ---------------------------------------------------------------------------
// Characters

const presentationForms = /[\uFB50-\uFDFF\uFE70-\uFEFE]+/gu
const rtlLetter = /(?=[\p{L}\p{M}])[\p{sc=Arabic}\p{sc=Hebrew}\p{sc=Syriac}\p{sc=Thaana}\p{sc=Nko}]/u
const ltrLetter = new RegExp(`(?!${rtlLetter.source})\\p{L}`, "u")
/** Words of one direction: a long English name weighs as much as a short Persian word. */
const rtlWords = new RegExp(`(?:${rtlLetter.source}|\\p{M})+`, "gu")
const ltrWords = new RegExp(`(?:${ltrLetter.source}|\\p{M})+`, "gu")
const digit = /\p{Nd}/u
/** What may join two numbers into one ("1,500", "12.5", "1403/07/01"). */
const numberJoiner = /^[.,:/\u066B\u066C]$/u
/** A gap between neighbouring pieces wider than this many font sizes is a space. */
const spaceGap = 0.15

/**
 * Joined letter shapes as their base letters (NFKC: "ﻻ" becomes "لا").
 * Only presentation forms are touched, so other text comes out as PDF.js gave it.
 */
export const baseLetters = (text: string): string => text.replace(presentationForms, (forms) => forms.normalize("NFKC"))

const mirrors: Record<string, string> = {
  "(": ")",
  ")": "(",
  "[": "]",
  "]": "[",
  "{": "}",
  "}": "{",
  "<": ">",
  ">": "<",
  "«": "»",
  "»": "«",
  "‹": "›",
  "›": "‹"
}

/** A piece read right to left, its brackets turned back to the ones written. */
const mirrored = (text: string): string => text.replace(/[()[\]{}<>«»‹›]/gu, (bracket) => mirrors[bracket] ?? bracket)

const count = (text: string, words: RegExp) => text.match(words)?.length ?? 0

/** Whether a line of (normalised) text reads right to left: more of its words do. */
export const isRightToLeft = (text: string): boolean => count(text, rtlWords) > count(text, ltrWords)

// ---------------------------------------------------------------------------
// Pieces

type Kind = "rtl" | "latin" | "number" | "neutral"

const kindOf = (piece: Piece): Kind => {
  const rtl = rtlLetter.test(piece.text)
  const ltr = ltrLetter.test(piece.text)
  if (rtl && ltr) return piece.dir === "rtl" ? "rtl" : "latin"
  if (rtl) return "rtl"
  if (ltr) return "latin"
  return digit.test(piece.text) ? "number" : "neutral"
}

interface Run {
  /** Pieces in visual order (left to right). */
  readonly pieces: Array<Piece>
  /** Read in the opposite direction of its line (an English name in a Persian line). */
  readonly embedded: boolean
  readonly kind: Kind
}

/**
 * Whether `next`, after the neutral pieces `between`, continues the embedded run `run`.
 * In a right-to-left line a number after an English word belongs to it ("Samovar 2000"),
 * two numbers only through a joiner; in a left-to-right line right-to-left pieces join
 * through neutrals.
 */
const continues = (run: Run, next: Kind, between: ReadonlyArray<Piece>) => {
  switch (run.kind) {
    case "latin":
      return next === "latin" || next === "number"
    case "number":
      return next === "number" && between.every((piece) => numberJoiner.test(piece.text))
    case "rtl":
      return next === "rtl"
    case "neutral":
      return false
  }
}

/** The line's pieces, in visual order, cut into runs: embedded ones, and single pieces read with the line. */
const runsOf = (visual: ReadonlyArray<Piece>, rightToLeft: boolean): Array<Run> => {
  const embeds = (kind: Kind) => rightToLeft ? kind === "latin" || kind === "number" : kind === "rtl"
  const runs: Array<Run> = []
  let open: Run | undefined
  let neutrals: Array<Piece> = []
  const single = (piece: Piece) => runs.push({ pieces: [piece], embedded: false, kind: "neutral" })
  for (const piece of visual) {
    const kind = kindOf(piece)
    if (kind === "neutral") {
      if (open === undefined) single(piece)
      else neutrals.push(piece)
      continue
    }
    if (open !== undefined && continues(open, kind, neutrals)) {
      open.pieces.push(...neutrals, piece)
    } else {
      neutrals.forEach(single)
      open = undefined
      if (embeds(kind)) {
        open = { pieces: [piece], embedded: true, kind }
        runs.push(open)
      } else {
        single(piece)
      }
    }
    neutrals = []
  }
  neutrals.forEach(single)
  return runs
}

// ---------------------------------------------------------------------------
// Lines

/** Pieces sorted left to right, with a space piece in each gap between words that has none. */
const visualOrder = (pieces: ReadonlyArray<Piece>): Array<Piece> => {
  const sorted = pieces.map((piece, index) => ({ piece, index }))
    .sort((a, b) => a.piece.x - b.piece.x || a.index - b.index)
    .map(({ piece }) => piece)
  const out: Array<Piece> = []
  for (const piece of sorted) {
    const previous = out[out.length - 1]
    if (
      previous !== undefined && !/\s$/u.test(previous.text) && !/^\s/u.test(piece.text) &&
      piece.x - (previous.x + previous.width) > spaceGap * Math.max(previous.size, piece.size)
    ) {
      out.push({ text: " ", x: previous.x + previous.width, width: 0, size: piece.size })
    }
    out.push(piece)
  }
  return out
}

/** A part of a line in reading order; `backwards` when it was read right to left. */
interface Part {
  readonly text: string
  readonly backwards: boolean
}

/** One line from its pieces (in the PDF's order), read in its direction. */
const readLine = (pieces: ReadonlyArray<Piece>): Array<Part> => {
  const normalised = pieces.map((piece) => ({ ...piece, text: baseLetters(piece.text) }))
  const joined = normalised.map((piece) => piece.text).join("")
  if (!rtlLetter.test(joined)) return [{ text: joined, backwards: false }]
  const rightToLeft = isRightToLeft(joined)
  const runs = runsOf(visualOrder(normalised), rightToLeft)
  const ordered = rightToLeft ? runs.reverse() : runs
  return ordered.flatMap((run): Array<Part> =>
    run.embedded === rightToLeft
      ? run.pieces.map((piece) => ({ text: piece.text, backwards: false }))
      : [...run.pieces].reverse().map((piece) => ({ text: piece.text, backwards: true }))
  )
}

// ---------------------------------------------------------------------------
// Brackets

const closing: Record<string, string> = { ")": "(", "]": "[", "}": "{", "»": "«" }
const opening = new Set(Object.values(closing))

/** Brackets without their pair in a line. */
const unpaired = (text: string): number => {
  const open: Array<string> = []
  let errors = 0
  for (const char of text) {
    if (opening.has(char)) open.push(char)
    else if (char in closing) {
      if (open[open.length - 1] === closing[char]) open.pop()
      else errors++
    }
  }
  return errors + open.length
}

/**
 * The lines of a document, each read in its direction. A bracket read right
 * to left is drawn mirrored; Chromium names the shape drawn, LibreOffice the
 * bracket written, so brackets are mirrored back when that pairs more of them
 * across the document (Chromium's way when it makes no difference).
 */
export const readLines = (lines: ReadonlyArray<ReadonlyArray<Piece>>): Array<string> => {
  const read = lines.map(readLine)
  const plain = read.map((parts) => parts.map((part) => part.text).join(""))
  const turned = read.map((parts) => parts.map((part) => part.backwards ? mirrored(part.text) : part.text).join(""))
  const errors = (texts: ReadonlyArray<string>) => texts.reduce((sum, text) => sum + unpaired(text), 0)
  return errors(turned) <= errors(plain) ? turned : plain
}
