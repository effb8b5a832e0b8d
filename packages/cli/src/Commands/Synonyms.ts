/** `dastyar synonyms …`: one assistant's search synonyms: multi-way sets and one-way rules. */
import { Envelope, Synonyms } from "@dastyar/domain"
import { Args, Command, Options } from "@effect/cli"
import { FileSystem } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { assistantCode, assistantOption } from "../AssistantOption"
import { CommandFailed } from "../CommandFailed"
import { ExitCode } from "../ExitCode"
import { publicOptions } from "../GlobalOptions"
import { printData } from "../Output"
import { type Column, table } from "../Render"
import { publicSession } from "../Session"

const options = { ...publicOptions, assistant: assistantOption }

const SynonymList = Envelope.ListOf(Synonyms.Synonym)

const columns: ReadonlyArray<Column<typeof Synonyms.Synonym.Encoded>> = [
  { header: "id", value: (set) => set.id },
  { header: "root", value: (set) => set.root ?? "(multi-way)" },
  { header: "synonyms", value: (set) => set.synonyms.join(", ") }
]

const human = ({ list }: typeof SynonymList.Encoded) => list.length === 0 ? "No synonyms." : table(list, columns)

const list = Command.make("list", options, ({ assistant, ...common }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(common)
    const data = yield* client.synonyms.list({ path: { assistantCode: yield* assistantCode(assistant) } })
    yield* printData(SynonymList, data, { json, human })
  })).pipe(Command.withDescription("List the assistant's synonym sets"))

const add = Command.make("add", {
  ...options,
  terms: Args.text({ name: "term" }).pipe(
    Args.withDescription("Terms, any language; quote a term of several words (\"تلفن همراه\")"),
    Args.atLeast(1)
  ),
  root: Options.text("root").pipe(
    Options.withDescription("One-way: a query with this term also finds the terms (not the other way round)"),
    Options.optional
  )
}, ({ assistant, root, terms, ...common }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* publicSession(common)
    const payload = yield* checked(Synonyms.SynonymInput, {
      synonyms: terms,
      ...(Option.isSome(root) ? { root: root.value } : {})
    })
    const created = yield* client.synonyms.add({ path: { assistantCode: yield* assistantCode(assistant) }, payload })
    yield* printData(Synonyms.Synonym, created, {
      json,
      human: (set) => `Added ${set.id}: ${set.root === null ? "" : `${set.root} → `}${set.synonyms.join(", ")}`
    })
  })).pipe(Command.withDescription("Add a multi-way set (each term finds the others) or, with --root, a one-way rule"))

const replace = Command.make("replace", {
  ...options,
  file: Args.file({ name: "file", exists: "yes" }).pipe(
    Args.withDescription("A JSON file: an array of {root?, synonyms} (or {synonyms: [...]}, as the API takes)")
  )
}, ({ assistant, file, ...common }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* publicSession(common)
    const text = yield* FileSystem.FileSystem.pipe(Effect.flatMap((fs) => fs.readFileString(file)))
    const parsed = yield* Effect.try({
      try: (): unknown => JSON.parse(text),
      catch: () => new CommandFailed({ message: `${file} is not JSON`, exitCode: ExitCode.usage })
    })
    const body = Array.isArray(parsed) ? { synonyms: parsed } : parsed
    const decoded = yield* Schema.decodeUnknown(Synonyms.SynonymReplace)(body).pipe(
      Effect.mapError(() =>
        new CommandFailed({ message: `${file}: expected an array of {root?, synonyms}`, exitCode: ExitCode.usage })
      )
    )
    const payload = yield* checked(Synonyms.SynonymReplace, decoded)
    const data = yield* client.synonyms.replace({ path: { assistantCode: yield* assistantCode(assistant) }, payload })
    yield* printData(SynonymList, data, { json, human })
  })).pipe(Command.withDescription("Replace every synonym set of the assistant with those of a JSON file"))

const remove = Command.make("delete", {
  ...options,
  id: Args.text({ name: "id" }).pipe(Args.withDescription("The set's id, as `synonyms list` prints it"))
}, ({ assistant, id, ...common }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(common)
    yield* client.synonyms.delete({ path: { assistantCode: yield* assistantCode(assistant), synonymId: id } })
    yield* printData(Schema.Null, null, { json, human: () => `Deleted ${id}.` })
  })).pipe(Command.withDescription("Delete one synonym set"))

export const synonymsCommand = Command.make("synonyms").pipe(
  Command.withDescription("Synonyms of the assistant's product and document search, applied at once"),
  Command.withSubcommands([list, add, replace, remove])
)
