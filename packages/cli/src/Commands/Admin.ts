/** `dastyar admin …`: the operator API (`/admin/v1`), authenticated with the operator token. */
import { Command } from "@effect/cli"
import { accountsCommand } from "./Admin/Accounts"
import { assistantsCommand } from "./Admin/Assistants"
import { foldersCommand } from "./Admin/Folders"
import { keysCommand } from "./Admin/Keys"
import { contentCommand } from "./AdminContent"

export const adminCommand = Command.make("admin").pipe(
  Command.withDescription(
    "Operator commands: accounts, API keys, assistants, folders and site content (needs the operator token)"
  ),
  Command.withSubcommands([accountsCommand, keysCommand, assistantsCommand, foldersCommand, contentCommand])
)
