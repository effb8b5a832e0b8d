/** `dastyar curated …`: one assistant's curated answers: list, add, CSV import and export. */
import { Curated, Envelope } from "@dastyar/domain"
import { Args, Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { assistantCode, assistantOption } from "../AssistantOption"
import { publicOptions } from "../GlobalOptions"
import { printData } from "../Output"
import { given } from "../Payload"
import { type Column, keyValues, table } from "../Render"
import { publicSession, UsageError } from "../Session"

const options = { ...publicOptions, assistant: assistantOption }

const columns: ReadonlyArray<Column<typeof Curated.CuratedAnswer.Encoded>> = [
  { header: "id", value: (answer) => answer.id },
  { header: "hits", value: (answer) => answer.hitCount },
  { header: "language", value: (answer) => answer.language ?? "" },
  { header: "questions", value: (answer) => answer.questions.join(" | ").slice(0, 60) },
  { header: "answer", value: (answer) => answer.answer.slice(0, 60) }
]

const list = Command.make("list", options, ({ assistant, ...common }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(common)
    const answers = yield* client.curated.list({
      path: { assistantCode: yield* assistantCode(assistant) },
      urlParams: { limit: 500 }
    })
    yield* printData(Envelope.ListOf(Curated.CuratedAnswer), answers, {
      json,
      human: ({ list }) => list.length === 0 ? "No curated answers." : table(list, columns)
    })
  })).pipe(Command.withDescription("List curated answers, most recently updated first"))

const add = Command.make("add", {
  ...options,
  questions: Options.text("question").pipe(
    Options.withAlias("q"),
    Options.withDescription("A way customers ask it (repeat for more variants)"),
    Options.repeated
  ),
  answer: Args.text({ name: "answer" }).pipe(Args.withDescription("The answer chat serves")),
  language: Options.text("language").pipe(
    Options.withDescription("Only for questions in this language"),
    Options.optional
  )
}, ({ answer, assistant, language, questions, ...common }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* publicSession(common)
    const payload = yield* checked(Curated.CuratedCreate, { questions, answer, ...given("language", language) })
    const created = yield* client.curated.create({ path: { assistantCode: yield* assistantCode(assistant) }, payload })
    yield* printData(Curated.CuratedAnswer, created, { json, human: keyValues })
  })).pipe(Command.withDescription("Add a curated answer: dastyar curated add -q \"Do you ship to Kish?\" \"Yes, …\""))

const importCommand = Command.make("import", {
  ...options,
  file: Args.file({ name: "file", exists: "yes" }).pipe(Args.withDescription("CSV: questions,answer,language"))
}, ({ assistant, file, ...common }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* publicSession(common)
    const csv = yield* Effect.try({
      try: () => fs.readFileSync(file, "utf8"),
      catch: () => new UsageError({ message: `cannot read ${file}` })
    })
    const payload = yield* checked(Curated.CuratedImport, { csv })
    const result = yield* client.curated.import({ path: { assistantCode: yield* assistantCode(assistant) }, payload })
    yield* printData(Curated.CuratedImportResult, result, {
      json,
      human: ({ created, updated }) => `Created ${created}; updated ${updated}.`
    })
  })).pipe(Command.withDescription("Import curated answers from CSV (a row with a known first question replaces it)"))

const exportCommand = Command.make("export", options, ({ assistant, ...common }) =>
  Effect.gen(function*() {
    const { client } = yield* publicSession(common)
    const csv = yield* client.curated.export({ path: { assistantCode: yield* assistantCode(assistant) } })
    yield* Effect.sync(() => process.stdout.write(csv))
  })).pipe(Command.withDescription("Write the curated answers as CSV to standard output"))

export const curatedCommand = Command.make("curated").pipe(
  Command.withDescription("Curated answers chat serves instead of a model's"),
  Command.withSubcommands([list, add, importCommand, exportCommand])
)
