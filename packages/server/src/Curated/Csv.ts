/**
 * The CSV form of curated answers: a header `questions,answer,language`, one
 * answer per row, its question variants in one cell separated by ` | `.
 * Read with Papa Parse, the parser the product feeds use (quotes, line breaks inside cells); written here.
 */
import { Curated } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import Papa from "papaparse"
import { csvLine } from "../Platform/Csv"

export const header = ["questions", "answer", "language"] as const
const separator = " | "

const decodeRow = Schema.decodeUnknownEither(Curated.CuratedCreate)

/** The rows as curated answers, or the line of the first one that is not one. */
export const readCsv = (text: string): Effect.Effect<ReadonlyArray<Curated.CuratedCreate>, Curated.CuratedCsvInvalid> =>
  Effect.gen(function*() {
    const parsed = Papa.parse<Record<string, string>>(text.replace(/^\uFEFF/, ""), {
      header: true,
      skipEmptyLines: "greedy",
      transform: (value) => value.trim(),
      transformHeader: (name) => name.trim()
    })
    const failure = parsed.errors[0]
    if (failure !== undefined) {
      // Papa Parse counts data rows from 0; line numbers count the header as line 1.
      return yield* new Curated.CuratedCsvInvalid(typeof failure.row === "number" ? { line: failure.row + 2 } : {})
    }
    const records = parsed.data
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
