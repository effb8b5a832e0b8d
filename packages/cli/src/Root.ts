/**
 * The `dastyar` root command. Subcommands read its options (the global options
 * given before the subcommand name) by yielding it.
 */
import { Command } from "@effect/cli"
import { rootOptions } from "./GlobalOptions"

export const root = Command.make("dastyar", rootOptions)
