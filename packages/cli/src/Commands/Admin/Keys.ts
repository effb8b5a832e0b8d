/** `dastyar admin keys …`: issuing and revoking an account's API keys. */
import { Admin, Auth } from "@dastyar/domain"
import { Args, Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { adminOptions } from "../../GlobalOptions"
import { printData } from "../../Output"
import { given } from "../../Payload"
import { keyValues } from "../../Render"
import { adminSession } from "../../Session"

/** The raw key is returned only by this call, so it stands apart from the details. */
const announce = ({ key, ...details }: typeof Admin.CreatedApiKey.Encoded) =>
  ["API key created. Copy it now: it is shown only once.", "", `    ${key}`, "", keyValues(details)].join("\n")

const create = Command.make("create", {
  ...adminOptions,
  accountId: Args.text({ name: "accountId" }).pipe(
    Args.withDescription("The account that gets the key"),
    Args.withSchema(Auth.AccountId)
  ),
  name: Options.text("name").pipe(Options.withDescription("A label for the key"), Options.optional)
}, ({ accountId, name, ...options }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* adminSession(options)
    const payload = yield* checked(Admin.ApiKeyCreate, given("name", name))
    const created = yield* client.admin.createKey({ path: { accountId }, payload })
    yield* printData(Admin.CreatedApiKey, created, { json, human: announce })
  })).pipe(Command.withDescription("Issue an API key for an account (the key is shown only once)"))

const revoke = Command.make("revoke", {
  ...adminOptions,
  keyId: Args.text({ name: "keyId" }).pipe(
    Args.withDescription("The key's id (not the key itself)"),
    Args.withSchema(Auth.ApiKeyId)
  )
}, ({ keyId, ...options }) =>
  Effect.gen(function*() {
    const { client, json } = yield* adminSession(options)
    const data = yield* client.admin.revokeKey({ path: { keyId } })
    yield* printData(Schema.Null, data, { json, human: () => `Revoked API key ${keyId}.` })
  })).pipe(Command.withDescription("Revoke an API key"))

export const keysCommand = Command.make("keys").pipe(
  Command.withDescription("API keys of accounts"),
  Command.withSubcommands([create, revoke])
)
