/** `dastyar admin accounts …`: creating, listing and deleting accounts. */
import { Admin, Auth, Envelope } from "@dastyar/domain"
import { Args, Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { adminOptions } from "../../GlobalOptions"
import { printData } from "../../Output"
import { given } from "../../Payload"
import { type Column, keyValues, pageTable } from "../../Render"
import { adminSession } from "../../Session"

const create = Command.make("create", {
  ...adminOptions,
  name: Options.text("name").pipe(Options.withDescription("Account name")),
  plan: Options.text("plan").pipe(
    Options.withDescription("Plan key (default: the server's default plan)"),
    Options.optional
  )
}, ({ name, plan, ...options }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* adminSession(options)
    const payload = yield* checked(Admin.AccountCreate, { name, ...given("plan", plan) })
    const account = yield* client.admin.createAccount({ payload })
    yield* printData(Admin.Account, account, { json, human: keyValues })
  })).pipe(Command.withDescription("Create an account"))

const accountColumns: ReadonlyArray<Column<typeof Admin.Account.Encoded>> = [
  { header: "id", value: (account) => account.id },
  { header: "name", value: (account) => account.name },
  { header: "plan", value: (account) => account.plan },
  { header: "createdAt", value: (account) => account.createdAt }
]

const list = Command.make("list", {
  ...adminOptions,
  limit: Options.integer("limit").pipe(Options.withDescription("Page size, 1 to 500 (default 100)"), Options.optional),
  offset: Options.integer("offset").pipe(Options.withDescription("Accounts to skip (default 0)"), Options.optional)
}, ({ limit, offset, ...options }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* adminSession(options)
    const urlParams = yield* checked(Admin.AccountListQuery, { ...given("limit", limit), ...given("offset", offset) })
    const page = yield* client.admin.listAccounts({ urlParams })
    yield* printData(Envelope.ListOf(Admin.Account), page, {
      json,
      human: (found) => pageTable(found, accountColumns, { noun: "accounts", empty: "No accounts." })
    })
  })).pipe(Command.withDescription("List accounts, oldest first (the demo account, when seeded, comes first)"))

const remove = Command.make("delete", {
  ...adminOptions,
  accountId: Args.text({ name: "accountId" }).pipe(
    Args.withDescription("The account to delete"),
    Args.withSchema(Auth.AccountId)
  )
}, ({ accountId, ...options }) =>
  Effect.gen(function*() {
    const { client, json } = yield* adminSession(options)
    const data = yield* client.admin.deleteAccount({ path: { accountId } })
    yield* printData(Schema.Null, data, { json, human: () => `Deleted account ${accountId}; its keys no longer work.` })
  })).pipe(Command.withDescription("Delete an account; its API keys stop working at once"))

export const accountsCommand = Command.make("accounts").pipe(
  Command.withDescription("Customer accounts"),
  Command.withSubcommands([create, list, remove])
)
