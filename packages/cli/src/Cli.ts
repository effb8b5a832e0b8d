/** The whole `dastyar` command tree, and running it on an argv. */
import { Command } from "@effect/cli"
import manifest from "../package.json" with { type: "json" }
import { adminCommand } from "./Commands/Admin"
import { assistantsCommand } from "./Commands/Assistants"
import { chatCommand } from "./Commands/Chat"
import { conversationsCommand, reportCommand } from "./Commands/Conversations"
import { curatedCommand } from "./Commands/Curated"
import { docsCommand } from "./Commands/Docs"
import { modelsCommand } from "./Commands/Models"
import { productsCommand } from "./Commands/Products"
import { synonymsCommand } from "./Commands/Synonyms"
import { root } from "./Root"

export const command = root.pipe(
  Command.withDescription(
    "Dastyar from the command line: the public API with an API key, the operator API with the operator token"
  ),
  Command.withSubcommands([
    assistantsCommand,
    modelsCommand,
    chatCommand,
    productsCommand,
    synonymsCommand,
    docsCommand,
    conversationsCommand,
    curatedCommand,
    reportCommand,
    adminCommand
  ])
)

export const run = Command.run(command, { name: "dastyar", version: manifest.version })
