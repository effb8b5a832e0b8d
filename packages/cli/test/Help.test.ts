import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { colourAllowed, tidyText } from "../src/Terminal"
import { runCli } from "./support/Cli"

describe("terminal output", () => {
  it("colour only on a terminal without NO_COLOR", () => {
    expect(colourAllowed({ isTTY: true }, {})).toBe(true)
    expect(colourAllowed({ isTTY: true }, { NO_COLOR: "1" })).toBe(false)
    expect(colourAllowed({ isTTY: false }, {})).toBe(false)
    expect(colourAllowed({}, { NO_COLOR: "" })).toBe(false)
  })

  it("tidyText strips colour codes unless allowed, and trailing blanks always", () => {
    expect(tidyText("\x1b[1mUSAGE\x1b[0m   \nnext  ", false)).toBe("USAGE\nnext")
    expect(tidyText("\x1b[1mUSAGE\x1b[0m\nnext  ", true)).toBe("\x1b[1mUSAGE\x1b[0m\nnext")
  })

  it.effect(
    "help, piped: no colour codes, no trailing padding, every command listed, every argument described",
    () =>
      Effect.gen(function*() {
        const help = yield* runCli(["--help"])
        expect(help.exitCode).toBe(0)
        expect(help.stdout).not.toContain("\x1b[")
        expect(help.stdout.split("\n").filter((line) => line !== line.trimEnd())).toEqual([])
        for (const command of ["assistants list", "products import", "docs upload", "accounts create", "chat"]) {
          expect(help.stdout).toContain(command)
        }

        const leaf = yield* runCli(["admin", "keys", "revoke", "--help"])
        expect(leaf.stdout).toContain("The key's id")
      }),
    120_000
  )
})
