/** `dastyar admin assistants …`: any account's assistants, by the operator. */
import { Admin, Assistants, Auth, Models } from "@dastyar/domain"
import { Args, Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import { adminOptions } from "../../GlobalOptions"
import { printData } from "../../Output"
import { given } from "../../Payload"
import { keyValues } from "../../Render"
import { adminSession } from "../../Session"

const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)

/** The settings both `create` and `update` take; choices come from the domain so help lists them. */
const settingsOptions = {
  model: optionalText("model", "Model key (see `dastyar models list`)"),
  instruction: optionalText("instruction", "System instruction"),
  personality: Options.choice("personality", Assistants.Personality.to.literals).pipe(
    Options.withDescription("Personality"),
    Options.optional
  ),
  language: optionalText("language", "Language the assistant answers in, e.g. fa or en"),
  reasoning: Options.choice("reasoning", Models.Reasoning.literals).pipe(
    Options.withDescription("Reasoning effort"),
    Options.optional
  )
}

type SettingsValues = Command.Command.ParseConfig<typeof settingsOptions>

const settings = (values: SettingsValues) => ({
  ...given("model", values.model),
  ...given("instruction", values.instruction),
  ...given("personality", values.personality),
  ...given("language", values.language),
  ...given("reasoning", values.reasoning)
})

const assistantId = Args.text({ name: "assistantId" }).pipe(
  Args.withDescription("The assistant's id (ast_…)"),
  Args.withSchema(Assistants.AssistantId)
)

const create = Command.make("create", {
  ...adminOptions,
  ...settingsOptions,
  accountId: Args.text({ name: "accountId" }).pipe(
    Args.withDescription("The account that owns the assistant"),
    Args.withSchema(Auth.AccountId)
  ),
  name: Options.text("name").pipe(Options.withDescription("Assistant name"))
}, ({ accountId, name, model, instruction, personality, language, reasoning, ...options }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* adminSession(options)
    const payload = yield* checked(Admin.AssistantCreate, {
      name,
      ...settings({ model, instruction, personality, language, reasoning })
    })
    const assistant = yield* client.admin.createAssistant({ path: { accountId }, payload })
    yield* printData(Assistants.Assistant, assistant, { json, human: keyValues })
  })).pipe(Command.withDescription("Create an assistant in an account (it starts in `provisioning`)"))

const get = Command.make(
  "get",
  { ...adminOptions, assistantId },
  ({ assistantId, ...options }) =>
    Effect.gen(function*() {
      const { client, json } = yield* adminSession(options)
      const assistant = yield* client.admin.getAssistant({ path: { assistantId } })
      yield* printData(Assistants.Assistant, assistant, { json, human: keyValues })
    })
).pipe(Command.withDescription("Show an assistant"))

const update = Command.make("update", {
  ...adminOptions,
  ...settingsOptions,
  assistantId,
  name: optionalText("name", "Assistant name")
}, ({ assistantId, name, model, instruction, personality, language, reasoning, ...options }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* adminSession(options)
    const payload = yield* checked(Admin.AssistantUpdate, {
      ...given("name", name),
      ...settings({ model, instruction, personality, language, reasoning })
    })
    const assistant = yield* client.admin.updateAssistant({ path: { assistantId }, payload })
    yield* printData(Assistants.Assistant, assistant, { json, human: keyValues })
  })).pipe(Command.withDescription("Change an assistant's settings; flags left out keep their value"))

const remove = Command.make(
  "delete",
  { ...adminOptions, assistantId },
  ({ assistantId, ...options }) =>
    Effect.gen(function*() {
      const { client, json } = yield* adminSession(options)
      const assistant = yield* client.admin.deleteAssistant({ path: { assistantId } })
      yield* printData(Assistants.Assistant, assistant, {
        json,
        human: ({ id, status }) =>
          `Deleting assistant ${id} (status: ${status}); its data is removed in the background.`
      })
    })
).pipe(Command.withDescription("Delete an assistant"))

export const assistantsCommand = Command.make("assistants").pipe(
  Command.withDescription("Assistants of any account"),
  Command.withSubcommands([create, get, update, remove])
)
