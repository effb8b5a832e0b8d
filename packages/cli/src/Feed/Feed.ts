/**
 * Reading a product feed file into rows with the line each starts on:
 * JSON (an array, or `{"products": [...]}`), JSON Lines (one object a line)
 * or CSV (see `CsvProducts`). The format comes from `--format` or the file
 * extension (`.json`, `.jsonl`/`.ndjson`, `.csv`).
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { CommandFailed } from "../CommandFailed"
import { ExitCode } from "../ExitCode"
import { csvProducts, CsvUnreadable } from "./CsvProducts"
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

export interface Feed {
  readonly file: string
  readonly rows: ReadonlyArray<FeedRow>
  /** Rows unreadable before any schema check (bad JSON line, wrong CSV cell count). */
  readonly problems: ReadonlyArray<RowProblem>
}

const byExtension: Readonly<Record<string, FeedFormat>> = {
  ".json": "json",
  ".jsonl": "jsonl",
  ".ndjson": "jsonl",
  ".csv": "csv"
}

const unreadable = (file: string, reason: string) =>
  new CommandFailed({ message: `cannot read the feed ${file}: ${reason}`, exitCode: ExitCode.usage })

export const formatOf = (file: string, explicit: FeedFormat | undefined) =>
  explicit !== undefined
    ? Effect.succeed(explicit)
    : Effect.fromNullable(byExtension[path.extname(file).toLowerCase()]).pipe(
      Effect.mapError(() => unreadable(file, "unknown extension; pass --format json, jsonl or csv"))
    )

/** Where `JSON.parse` stopped, as a line, from its message (`… at position 42 …`). */
const jsonErrorLine = (text: string, error: unknown) => {
  const message = error instanceof Error ? error.message : String(error)
  const position = /position (\d+)/.exec(message)?.[1]
  return position === undefined ? message : `line ${lineAt(text, Number(position))}: ${message}`
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const parseJson = (file: string, text: string) =>
  Effect.gen(function*() {
    const parsed = yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: (error) => unreadable(file, `not valid JSON (${jsonErrorLine(text, error)})`)
    })
    const list = Array.isArray(parsed) ? parsed : isRecord(parsed) ? parsed.products : undefined
    if (!Array.isArray(list)) {
      return yield* unreadable(file, "expected an array of products or an object {\"products\": [...]}")
    }
    const lines = elementLines(text)
    const rows = list.map((value: unknown, index): FeedRow => ({ line: lines[index] ?? 1, value }))
    return { file, rows, problems: [] }
  })

const parseJsonLines = (file: string, text: string): Feed => {
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
  return { file, rows, problems }
}

const parseCsv = (file: string, text: string) =>
  Effect.try({
    try: (): Feed => {
      const records = csvProducts(text)
      return {
        file,
        rows: records.filter((record) => record.problem === undefined),
        problems: records.flatMap((record) =>
          record.problem === undefined ? [] : [{ line: record.line, message: record.problem }]
        )
      }
    },
    catch: (error) => unreadable(file, error instanceof CsvUnreadable ? error.message : String(error))
  })

export const readFeed = (file: string, explicit: FeedFormat | undefined) =>
  Effect.gen(function*() {
    const format = yield* formatOf(file, explicit)
    const text = yield* Effect.tryPromise({
      try: () => fs.readFile(file, "utf8"),
      catch: (error) => unreadable(file, error instanceof Error ? error.message : String(error))
    })
    // A byte-order mark is not part of the data.
    const content = text.replace(/^\uFEFF/, "")
    switch (format) {
      case "json":
        return yield* parseJson(file, content)
      case "jsonl":
        return parseJsonLines(file, content)
      case "csv":
        return yield* parseCsv(file, content)
    }
  })
