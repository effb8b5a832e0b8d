/**
 * The reading order of one PDF line's text pieces, for right-to-left scripts
 * (Persian, Arabic, Hebrew) as well as left-to-right ones.
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
const rtlLetters = new RegExp(rtlLetter.source, "gu")
const ltrLetters = new RegExp(`(?!${rtlLetter.source})\\p{L}`, "gu")
const digit = /\p{Nd}/u
/** What may join two numbers into one ("1,500", "12.5", "1403/07/01"). */
const numberJoiner = /^[.,:/\u066B\u066C]$/u
/** A gap between neighbouring pieces wider than this many font sizes is a space. */
const spaceGap = 0.15

/**
 * Joined letter shapes as their base letters (NFKC: "ﻻ" becomes "لا").
 * Only presentation forms are touched, so other text comes out as PDF.js gave it.
 */
export const baseLetters = (text: string): string =>
  text.replace(presentationForms, (forms) => forms.normalize("NFKC"))

const count = (text: string, letters: RegExp) => text.match(letters)?.length ?? 0

/** Whether a line of (normalised) text reads right to left: more of its letters do. */
export const isRightToLeft = (text: string): boolean => count(text, rtlLetters) > count(text, ltrLetters)

// ---------------------------------------------------------------------------
// Pieces

type Kind = "rtl" | "latin" | "number" | "neutral"

const kindOf = (piece: Piece): Kind => {
  const rtl = rtlLetter.test(piece.text)
  const ltr = count(piece.text, ltrLetters) > 0
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

/** The text of one line from its pieces (in the PDF's order), read in its direction. */
export const lineText = (pieces: ReadonlyArray<Piece>): string => {
  const normalised = pieces.map((piece) => ({ ...piece, text: baseLetters(piece.text) }))
  const joined = normalised.map((piece) => piece.text).join("")
  if (!rtlLetter.test(joined)) return joined
  const rightToLeft = isRightToLeft(joined)
  const runs = runsOf(visualOrder(normalised), rightToLeft)
  const ordered = rightToLeft ? runs.reverse() : runs
  return ordered
    .map((run) => (run.embedded === rightToLeft ? run.pieces : [...run.pieces].reverse()))
    .map((run) => run.map((piece) => piece.text).join(""))
    .join("")
}
