/**
 * What reaches the terminal: colour codes only when the stream is a terminal
 * and NO_COLOR is not set (no-color.org), and no trailing blanks on any line
 * (@effect/cli pads its help). Applied to every `Console` line, the help
 * included, by swapping the Console service in `bin.ts`.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import { stripVTControlCharacters } from "node:util"

/** Whether text written to `stream` may carry colour codes. */
export const colourAllowed = (stream: { readonly isTTY?: boolean }, env: NodeJS.ProcessEnv = process.env): boolean =>
  stream.isTTY === true && (env.NO_COLOR ?? "") === ""

/** The text as it should be written: without colour codes unless allowed, and without trailing blanks. */
export const tidyText = (text: string, colour: boolean): string =>
  (colour ? text : stripVTControlCharacters(text)).split("\n").map((line) => line.trimEnd()).join("\n")

const tidyArgs = (args: ReadonlyArray<unknown>, colour: boolean) =>
  args.map((value) => typeof value === "string" ? tidyText(value, colour) : value)

const tidyConsole = (base: Console.Console): Console.Console => ({
  ...base,
  log: (...args) => base.log(...tidyArgs(args, colourAllowed(process.stdout))),
  error: (...args) => base.error(...tidyArgs(args, colourAllowed(process.stderr)))
})

/** Runs `effect` with the tidy Console. */
export const withTidyConsole = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Console.consoleWith((base) => Effect.withConsole(effect, tidyConsole(base)))
