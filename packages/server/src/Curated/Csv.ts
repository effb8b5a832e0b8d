/**
 * The CSV form of curated answers: a header `questions,answer,language`, one
 * answer per row, its question variants in one cell separated by ` | `.
 * Read with csv-parse (quotes, BOM, line breaks inside cells); written here.
 */
import { Curated } from "@dastyar/domain"
import { CsvError, parse } from "csv-parse/sync"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { csvLine } from "../Platform/Csv"

export const header = ["questions", "answer", "language"] as const
const separator = " | "

const decodeRow = Schema.decodeUnknownEither(Curated.CuratedCreate)

/** The rows as curated answers, or the line of the first one that is not one. */
export const readCsv = (text: string): Effect.Effect<ReadonlyArray<Curated.CuratedCreate>, Curated.CuratedCsvInvalid> =>
  Effect.gen(function*() {
    const records = yield* Effect.try({
      try: (): ReadonlyArray<Record<string, string>> =>
        parse(text, { columns: true, bom: true, skip_empty_lines: true, trim: true }),
      catch: (error) => {
        const line = error instanceof CsvError ? error.lines : undefined
        return new Curated.CuratedCsvInvalid(typeof line === "number" ? { line } : {})
      }
    })
    if (records.length > Curated.maxCuratedPerAssistant) return yield* new Curated.CuratedCsvInvalid({})
    const rows: Array<Curated.CuratedCreate> = []
    for (const [index, record] of records.entries()) {
      const language = (record.language ?? "").trim()
      const decoded = decodeRow({
        questions: (record.questions ?? "").split("|").map((q) => q.trim()).filter((q) => q.length > 0),
        answer: record.answer ?? "",
        language: language.length === 0 ? null : language
      })
      // Line numbers count the header as line 1.
      if (decoded._tag === "Left") return yield* new Curated.CuratedCsvInvalid({ line: index + 2 })
      rows.push(decoded.right)
    }
    return rows
  })

export const writeCsv = (
  answers: ReadonlyArray<
    { readonly questions: ReadonlyArray<string>; readonly answer: string; readonly language: string | null }
  >
): string =>
  csvLine(header) +
  answers.map((answer) => csvLine([answer.questions.join(separator), answer.answer, answer.language ?? ""])).join("")
