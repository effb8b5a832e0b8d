/** `dastyar models …`: the models the key's account can see, and whether it may use them. */
import { Envelope, Models } from "@dastyar/domain"
import { Command } from "@effect/cli"
import * as Effect from "effect/Effect"
import { publicOptions } from "../GlobalOptions"
import { printData } from "../Output"
import { type Column, table } from "../Render"
import { publicSession } from "../Session"

const ModelList = Envelope.ListOf(Models.Model)

/** Why a model cannot be used, in words: `available` is the server's side, `allowed` the account's plan. */
export const whyNot = (model: typeof Models.Model.Encoded): string =>
  [
    ...(model.available
      ? []
      : [
        `the server cannot run it (built-in ${model.company.title} models need ${
          model.company.slug.toUpperCase().replace(/[^A-Z0-9]+/g, "_")
        }_API_KEY set on the server)`
      ]),
    ...(model.allowed ? [] : ["the account's plan does not include it"])
  ].join("; ")

const columns: ReadonlyArray<Column<typeof Models.Model.Encoded>> = [
  { header: "key", value: (model) => model.key },
  { header: "name", value: (model) => model.name },
  { header: "company", value: (model) => model.company.title },
  { header: "available", value: (model) => model.available ? "yes" : "no" },
  { header: "allowed", value: (model) => model.allowed ? "yes" : "no" },
  { header: "usable", value: (model) => model.usable ? "yes" : "no" },
  { header: "why not", value: (model) => whyNot(model) }
]

const list = Command.make("list", publicOptions, (options) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(options)
    const data = yield* client.models.list()
    yield* printData(ModelList, data, {
      json,
      human: ({ list }) => list.length === 0 ? "No models." : table(list, columns)
    })
  })).pipe(
    Command.withDescription(
      "List the models, grouped by company: whether the server can run each (available), the plan includes it (allowed), and why not"
    )
  )

export const modelsCommand = Command.make("models").pipe(
  Command.withDescription("Models an assistant can run on"),
  Command.withSubcommands([list])
)
