/** `dastyar models …`: the models the key's account can see, and whether it may use them. */
import { Envelope, Models } from "@dastyar/domain"
import { Command } from "@effect/cli"
import * as Effect from "effect/Effect"
import { publicOptions } from "../GlobalOptions"
import { printData } from "../Output"
import { type Column, table } from "../Render"
import { publicSession } from "../Session"

const ModelList = Envelope.ListOf(Models.Model)

const columns: ReadonlyArray<Column<typeof Models.Model.Encoded>> = [
  { header: "key", value: (model) => model.key },
  { header: "name", value: (model) => model.name },
  { header: "company", value: (model) => model.company.title },
  { header: "usable", value: (model) => model.usable ? "yes" : "no" }
]

const list = Command.make("list", publicOptions, (options) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(options)
    const data = yield* client.models.list()
    yield* printData(ModelList, data, {
      json,
      human: ({ list }) => list.length === 0 ? "No models." : table(list, columns)
    })
  })).pipe(Command.withDescription("List the models, grouped by company, with whether the account may use them"))

export const modelsCommand = Command.make("models").pipe(
  Command.withDescription("Models an assistant can run on"),
  Command.withSubcommands([list])
)
