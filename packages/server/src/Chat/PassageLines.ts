/**
 * A retrieved passage as lines: its heading trail apart, the body cut into
 * sentences, list items and labels; and what is quoted for one of them (with
 * its label, the lines a lead-in introduces, or the sentence its opening
 * word points back to, and the rest of its paragraph after it as far as it fits).
 */
import { normalizeText, wordsOf } from "../Search/TextNormalization"

/**
 * A chunk's heading trail (`Shipping › Delivery times`, which the chunker puts
 * first) and its body. The heading is not quoted, but its words count for
 * the sentences under it: "installments?" finds the section titled so.
 */
export const splitHeading = (text: string): { readonly heading: string; readonly body: string } => {
  const at = text.indexOf("\n\n")
  const first = at > 0 ? text.slice(0, at).trim() : ""
  // A question is a heading too (an FAQ's); the chunker bounds a heading path at 300 characters.
  const isHeading = first.length > 0 && first.length <= 300 && !first.includes("\n") &&
    (first.includes(" › ") || !/[.!؛:,،]$/u.test(first))
  return isHeading ? { heading: first, body: text.slice(at + 2) } : { heading: "", body: text }
}

/**
 * A line of a passage body: a sentence, a list item or a line of its own;
 * or a label (a short line without a sentence end, such as "Applications/Shells"
 * over its description, or a sub-heading), which is never quoted alone.
 */
export interface Line {
  readonly text: string
  readonly label: boolean
  /** A list item ("- …", "3. …"). */
  readonly item: boolean
  /** The label line(s) just above, which name what this line describes. */
  readonly context: string
  /** Which line of the text it comes from: sentences of one paragraph share it. */
  readonly paragraph: number
}

/**
 * A line naming what follows: short, a capital (or a script without case)
 * first, no sentence end, comma or colon, and not code ("$ make", "KEY=value").
 */
const isLabel = (line: string, item: boolean) =>
  !item && line.length <= 60 && wordsOf(line).length <= 6 && /^[\p{Lu}\p{Lo}\d]/u.test(line) &&
  !/[.!?؟؛:;,،…)"”»]$/u.test(line) && !/[,،:]\s|[$=<>{}|\\]/u.test(line) && !isDataRow(line)

/** A row of values written as text ("M — chest 99 to 104 cm"): a name, a dash and a number state something. */
const isDataRow = (line: string) => /\s[—–-]\s.*\d/u.test(line)

const cellsOf = (row: string) =>
  row.includes("|")
    ? row.trim().replace(/^\|/u, "").replace(/\|$/u, "").split("|").map((cell) => cell.trim())
    : alignedCells(row)
/** A plain-text table's cells, aligned with spaces: apart by a run of three spaces or a tab. */
const alignedCells = (row: string) => row.trim().split(/ {3,}|\t+/u)
const isRow = (line: string) => cellsOf(line).length >= 2
/**
 * A table's first row names its columns, over another row, when it states no value; an aligned table may have
 * none ("Monday   9 to 5").
 */
const isHeaderRow = (line: string) => line.includes("|") || !/\p{Nd}/u.test(line)
const isRule = (line: string) => /^[\s|:-]+$/u.test(line) && line.includes("-")

/**
 * A table's rows (written with pipes or aligned with spaces) as lines that carry their headers ("Service: Next day
 * — Delivery time: next working day; Cost: £6.50"), so that a quoted row says what its cells are; a manual's dot
 * leaders ("E2 on the display .. overheated") as a label and its text.
 */
const readable = (text: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  let header: ReadonlyArray<string> | undefined
  // Emphasis marks go: an FAQ's "**Question?**" ends with its question mark.
  const raws = text.split(/\n+/u).map((line) => line.replace(/\*\*|__/gu, ""))
  for (const [at, raw] of raws.entries()) {
    if (!isRow(raw)) {
      header = undefined
      out.push(raw.replace(/(\S)\s*\.{2,}\s+(?=\S)/gu, "$1: "))
      continue
    }
    if (isRule(raw)) continue
    const cells = cellsOf(raw)
    if (header === undefined && isHeaderRow(raw) && isRow(raws[at + 1] ?? "")) {
      header = cells
      continue
    }
    header ??= []
    const named = header
    const [first = "", ...rest] = cells
    const described = rest.map((cell, i) => `${named[i + 1] ?? ""}: ${cell}`.replace(/^: /u, "")).join("; ")
    // The first column's header names what the row is keyed by ("Order value: Under £30"): a question asks by it.
    const key = named[0] === undefined || named[0] === "" ? "" : `${named[0]}: `
    out.push(`${key}${first} — ${described}.`)
  }
  return out
}

/**
 * Lines of a passage body: split after . ! ? ؟ and at line breaks, not at a semicolon of either script (its two
 * clauses are one statement: "if faulty, we pay; otherwise you do"); Markdown headings and list markers go.
 */
export const linesOf = (text: string): ReadonlyArray<Line> => {
  const lines: Array<Line> = []
  let context: Array<string> = []
  let labelRun = false
  for (const [paragraph, raw] of readable(text).entries()) {
    if (/^\s*#/.test(raw)) continue
    // List markers go ("- ", "• ", "3. "), not a sentence's own first characters ("2D and 3D graphics").
    const item = /^\s*(?:[>*\-•]+\s*|\d{1,3}[.)]\s+)/u.test(raw)
    const line = raw.replace(/^\s*(?:[>*\-•]+\s*|\d{1,3}[.)]\s+)/u, "").trim()
    if (line.length === 0 || !/\p{L}/u.test(line)) continue
    // A numbered title after prose ("2. Live workshops" over a paragraph) or a title in capitals heads a
    // section of a plain-text document: it names what follows, like a Markdown heading.
    const numberedTitle = item && /^\s*\d{1,3}[.)]\s/u.test(raw) && !(lines.at(-1)?.item ?? false) &&
      isLabel(line, false)
    // A note in brackets after it ("DRY CLEANING (per item)") is no part of the title's case.
    const unbracketed = line.replace(/\s*\([^)]*\)/gu, "")
    const capitalTitle = !item && line.length <= 100 && /\p{Lu}{2}/u.test(unbracketed) &&
      !/\p{Ll}/u.test(unbracketed) && !/[.!?؟]$/u.test(line)
    if (isLabel(line, item) || numberedTitle || capitalTitle) {
      // Consecutive labels name one thing ("Applications/Network/Monitoring", "Network monitoring software").
      context = labelRun ? [...context.slice(-1), line] : [line]
      labelRun = true
      lines.push({ text: line, label: true, item, context: "", paragraph })
      continue
    }
    labelRun = false
    const sentences = line.split(/(?<=[.!?؟])\s+/u)
    for (const sentence of sentences) {
      // A question heads the sentences after it, as an FAQ written in one section has it ("Can I pay by card?"
      // over "We take every card."), on its own line or on its answer's: it names what they answer.
      if (!item && sentence.length <= 200 && /[?؟]$/u.test(sentence)) {
        context = [sentence]
        lines.push({ text: sentence, label: true, item, context: "", paragraph })
      } else if (quotable(sentence)) {
        lines.push({ text: sentence, label: false, item, context: context.join(" — "), paragraph })
      }
    }
  }
  // Short lines at the end name nothing below them: they are the text (an answer written without a final period).
  let end = lines.length
  while (end > 0 && lines[end - 1].label) end--
  return [
    ...lines.slice(0, end),
    ...lines.slice(end).flatMap((line, i, trailing) =>
      quotable(line.text) ? [{ ...line, label: false, context: trailing[i - 1]?.text ?? "" }] : []
    )
  ]
}

const quotable = (sentence: string) => sentence.length >= 8 && /\p{L}/u.test(sentence)

/**
 * A sentence opening with a word that points back ("Below that, …", "This …", "این …", "آن …") means
 * nothing alone: the sentence before it goes with it.
 */
const pointsBack =
  /^(?:(?:below|above|after|before|besides|apart from|beyond|except for) (?:that|this|it)|this|that|these|those|it|they|such|also|however|otherwise|in that case|in this case|این|آن|اون|همچنین|ولی|اما|البته|در این صورت|در غیر این صورت|بنابراین|پس از آن|بعد از آن|علاوه بر این)(?=[\s,،]|$)/iu

/** Longest a quote grows when the lines after a lead-in ("…as follows:") join it. */
const maxLeadInQuote = 320
/** A sentence this short says little alone ("Line 12 is the short description."): the next one joins it. */
const shortSentence = 45

/**
 * What is quoted for a sentence: its label first when it has one
 * ("Applications/Shells: Examples: bash, ksh, zsh"), and after a lead-in
 * ending in a colon, or a very short sentence, the lines that follow it.
 * Returns the text and the line positions it took.
 */
export const quoteOf = (
  lines: ReadonlyArray<Line>,
  at: number
): { readonly text: string; readonly took: ReadonlyArray<number> } => {
  const line = lines[at]
  if (line === undefined) return { text: "", took: [] }
  const before = lines[at - 1]
  const back = pointsBack.test(line.text) && before !== undefined && !before.label && line.context === "" &&
    !before.text.endsWith(":")
  // An FAQ's question over its answer is not repeated: the answer is quoted alone.
  const labelled = line.context.length > 0 && !/[?؟]$/u.test(line.context) &&
      !normalizeText(line.text).includes(normalizeText(line.context))
    ? `${line.context}: ${line.text}`
    : back
    ? `${before.text} ${line.text}`
    : line.text
  const took = back ? [at - 1, at] : [at]
  const own = took.length
  const leadIn = /[:：]$/u.test(line.text)
  // A list item is whole as it is; so is a sentence before one.
  const next = lines[at + 1]
  if (!leadIn && (line.text.length >= shortSentence || line.item || next?.item)) return { text: labelled, took }
  let text = labelled
  for (let after = at + 1; after < lines.length && took.length < own + (leadIn ? 5 : 1); after++) {
    const following = lines[after]
    if (following === undefined || following.label || text.length + following.text.length > maxLeadInQuote) break
    text = took.length === own ? `${text} ${following.text}` : `${text}; ${following.text}`
    took.push(after)
  }
  return { text, took }
}

/**
 * A quote grown to the sentences after it in its paragraph, while the text stays within `max` characters and
 * each line is `free` (not quoted already). A paragraph says one thing: the sentence that matches the question
 * best often leaves its figure or its exception to the next one ("Fees are taken monthly. A failed payment
 * costs £5."). The sentences before it stay out: the best one leads its quote.
 */
export const withParagraph = (
  lines: ReadonlyArray<Line>,
  quote: { readonly text: string; readonly took: ReadonlyArray<number> },
  max: number,
  free: (at: number) => boolean
): { readonly text: string; readonly took: ReadonlyArray<number> } => {
  const took = [...quote.took]
  const last = Math.max(...took)
  const paragraph = lines[last]?.paragraph
  let text = quote.text
  for (let at = last + 1; at < lines.length; at++) {
    const line = lines[at]
    if (
      line === undefined || line.label || line.paragraph !== paragraph || !free(at) ||
      text.length + line.text.length + 1 > max
    ) break
    text = `${text} ${line.text}`
    took.push(at)
  }
  return { text, took }
}
