/** `dastyar admin folders …`: an account's knowledge-base folders. */
import { Admin, Auth } from "@dastyar/domain"
import { Args, Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import { adminOptions } from "../../GlobalOptions"
import { printData } from "../../Output"
import { keyValues } from "../../Render"
import { adminSession } from "../../Session"

const create = Command.make("create", {
  ...adminOptions,
  accountId: Args.text({ name: "accountId" }).pipe(
    Args.withDescription("The account that owns the folder"),
    Args.withSchema(Auth.AccountId)
  ),
  name: Options.text("name").pipe(Options.withDescription("Folder name (no / or \\)"))
}, ({ accountId, name, ...options }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* adminSession(options)
    const payload = yield* checked(Admin.FolderCreate, { name })
    const folder = yield* client.admin.createFolder({ path: { accountId }, payload })
    yield* printData(Admin.Folder, folder, { json, human: keyValues })
  })).pipe(Command.withDescription("Create a folder in an account"))

export const foldersCommand = Command.make("folders").pipe(
  Command.withDescription("Folders of accounts"),
  Command.withSubcommands([create])
)
