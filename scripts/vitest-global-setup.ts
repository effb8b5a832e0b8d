/**
 * Before the suite: compile the packages when their sources changed, since the
 * CLI tests run the built `dastyar` and the smoke test the built server.
 */
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"

export default function setup() {
  execFileSync(process.execPath, [fileURLToPath(new URL("./build.mjs", import.meta.url)), "--if-needed"], {
    stdio: "inherit"
  })
}
