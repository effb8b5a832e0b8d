#!/usr/bin/env node
// Launcher for the `dastyar` bin: runs the compiled CLI (`pnpm build` writes
// dist/js/bin.js). `--version` alone is answered here, without loading the
// command tree, so that it returns at once.
import { readFileSync } from "node:fs"

if (process.argv.length === 3 && process.argv[2] === "--version") {
  const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"))
  process.stdout.write(`${manifest.version}\n`)
} else {
  await import("../dist/js/bin.js")
}
