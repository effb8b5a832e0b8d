/**
 * A product feed's text read into rows with the line each starts on: JSON (an
 * array, or `{"products": [...]}`), JSON Lines (one object a line) or CSV (see
 * `Csv`). The format is named, or found from a file name's extension.
 */
import { csvProducts, CsvUnreadable, fieldOf, productColumns } from "./Csv"
import { elementLines, lineAt } from "./JsonPositions"

export const feedFormats = ["json", "jsonl", "csv"] as const
export type FeedFormat = typeof feedFormats[number]

export interface FeedRow {
  readonly line: number
  readonly value: unknown
}

/** A row that cannot be sent, with the field at fault when there is one. */
export interface RowProblem {
  readonly line: number
  readonly field?: string | undefined
  readonly message: string
}

/** A column of the feed and what it fills: a product field, an attribute, or nothing (a JSON key the API lacks). */
export interface FeedColumn {
  readonly name: string
  readonly fills: { readonly field: string } | "attribute" | "ignored"
}

export interface Feed {
  readonly format: FeedFormat
  readonly columns: ReadonlyArray<FeedColumn>
  readonly rows: ReadonlyArray<FeedRow>
  /** Rows unreadable before any schema check (bad JSON line, wrong CSV cell count). */
  readonly problems: ReadonlyArray<RowProblem>
}

/** Text that is not a feed at all (not JSON, an unclosed CSV quote, no products array); nothing of it is usable. */
export class FeedUnreadable extends Error {}

const byExtension: Readonly<Record<string, FeedFormat>> = {
  json: "json",
  jsonl: "jsonl",
  ndjson: "jsonl",
  csv: "csv"
}

/** The format a file name's extension names (`.json`, `.jsonl`/`.ndjson`, `.csv`), if any. */
export const formatOfName = (name: string): FeedFormat | undefined =>
  byExtension[/\.([^./\\]+)$/.exec(name)?.[1]?.toLowerCase() ?? ""]

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Where `JSON.parse` stopped, as a line, from its message (`… at position 42 …`). */
const jsonErrorLine = (text: string, error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  const position = /position (\d+)/.exec(message)?.[1]
  return position === undefined ? message : `line ${lineAt(text, Number(position))}: ${message}`
}

const jsonFields: ReadonlySet<string> = new Set(productColumns)

/** The keys of JSON products in first-seen order; the API's field names fill fields, others are not read. */
const jsonColumns = (rows: ReadonlyArray<FeedRow>): Array<FeedColumn> => {
  const names = new Set<string>()
  for (const row of rows) if (isRecord(row.value)) { for (const key of Object.keys(row.value)) names.add(key) }
  return [...names].map((name) => ({ name, fills: jsonFields.has(name) ? { field: name } : "ignored" }))
}

const readJson = (text: string): Feed => {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new FeedUnreadable(`not valid JSON (${jsonErrorLine(text, error)})`)
  }
  const list = Array.isArray(parsed) ? parsed : isRecord(parsed) ? parsed.products : undefined
  if (!Array.isArray(list)) {
    throw new FeedUnreadable("expected an array of products or an object {\"products\": [...]}")
  }
  const lines = elementLines(text)
  const rows = list.map((value: unknown, index): FeedRow => ({ line: lines[index] ?? 1, value }))
  return { format: "json", columns: jsonColumns(rows), rows, problems: [] }
}

const readJsonLines = (text: string): Feed => {
  const rows: Array<FeedRow> = []
  const problems: Array<RowProblem> = []
  text.split("\n").forEach((content, index) => {
    const line = index + 1
    if (content.trim() === "") return
    try {
      rows.push({ line, value: JSON.parse(content) })
    } catch (error) {
      problems.push({ line, message: `not valid JSON (${error instanceof Error ? error.message : String(error)})` })
    }
  })
  return { format: "jsonl", columns: jsonColumns(rows), rows, problems }
}

const readCsv = (text: string): Feed => {
  let parsed: ReturnType<typeof csvProducts>
  try {
    parsed = csvProducts(text)
  } catch (error) {
    throw new FeedUnreadable(error instanceof CsvUnreadable ? error.message : String(error))
  }
  return {
    format: "csv",
    columns: parsed.headers.map((name) => {
      const field = fieldOf(name)
      return { name, fills: field === undefined ? "attribute" : { field } }
    }),
    rows: parsed.records.filter((record) => record.problem === undefined),
    problems: parsed.records.flatMap((record) =>
      record.problem === undefined ? [] : [{ line: record.line, message: record.problem }]
    )
  }
}

/** Reads a feed's text in the given format; throws `FeedUnreadable` when no row can be read. */
export const readFeed = (text: string, format: FeedFormat): Feed => {
  // A byte-order mark is not part of the data.
  const content = text.replace(/^\uFEFF/, "")
  switch (format) {
    case "json":
      return readJson(content)
    case "jsonl":
      return readJsonLines(content)
    case "csv":
      return readCsv(content)
  }
}
