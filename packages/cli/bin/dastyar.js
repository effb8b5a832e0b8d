#!/usr/bin/env node
// The workspace's `dastyar` bin (`./dastyar` at the repository root links here): runs the compiled CLI in
// dist/. When dist/ is missing or older than the sources it is built from, the CLI's own build runs first, so a
// call never runs stale code and never pays for tsx. The check is a walk of three source folders in this
// process, not a build tool started on every call.
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"

const compiled = new URL("../dist/dastyar.js", import.meta.url)
const packages = new URL("../../", import.meta.url)

const newestMtime = (dir) => {
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = `${dir}/${entry.name}`
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs)
  }
  return newest
}

const stale = () => {
  if (!fs.existsSync(compiled)) return true
  const built = fs.statSync(compiled).mtimeMs
  return ["cli", "sdk", "domain"].some((name) => newestMtime(fileURLToPath(new URL(`${name}/src`, packages))) > built)
}

if (stale()) {
  // As `pnpm --filter @dastyar/cli build` runs it; its output goes to stderr so that stdout stays the command's
  // own (`--json` included).
  const bundle = fileURLToPath(new URL("../scripts/bundle.mjs", packages))
  const build = spawnSync(process.execPath, [bundle, "src/launch.ts", "dist/dastyar.js", "--bin"], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdio: ["ignore", 2, 2]
  })
  if (build.status !== 0) process.exit(build.status ?? 1)
}
await import(compiled.href)
