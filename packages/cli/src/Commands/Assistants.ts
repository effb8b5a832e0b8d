/** `dastyar assistants …`: the public API's assistants of the key's account. */
import { Assistants, Envelope } from "@dastyar/domain"
import { Command } from "@effect/cli"
import * as Effect from "effect/Effect"
import { publicOptions } from "../GlobalOptions"
import { printData } from "../Output"
import { type Column, table } from "../Render"
import { publicSession } from "../Session"

const AssistantList = Envelope.ListOf(Assistants.Assistant)

const columns: ReadonlyArray<Column<typeof Assistants.Assistant.Encoded>> = [
  { header: "id", value: (assistant) => assistant.id },
  { header: "name", value: (assistant) => assistant.name },
  { header: "model", value: (assistant) => assistant.model },
  { header: "status", value: (assistant) => assistant.status },
  { header: "createdAt", value: (assistant) => assistant.createdAt }
]

const list = Command.make("list", publicOptions, (options) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(options)
    const data = yield* client.assistants.list()
    yield* printData(AssistantList, data, {
      json,
      human: ({ list }) => list.length === 0 ? "No assistants." : table(list, columns)
    })
  })).pipe(Command.withDescription("List the assistants of the API key's account"))

export const assistantsCommand = Command.make("assistants").pipe(
  Command.withDescription("Assistants of the API key's account"),
  Command.withSubcommands([list])
)
