#!/usr/bin/env node
// Launcher for the `dastyar` bin in the workspace: runs the compiled CLI
// (`pnpm build` writes dist/dastyar.js, the file published as the bin).
// `--version` alone is answered here without loading the command tree.
import { readFileSync } from "node:fs"

if (process.argv.length === 3 && process.argv[2] === "--version") {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
  process.stdout.write(`${manifest.version}\n`)
} else {
  await import("../dist/dastyar.js")
}
