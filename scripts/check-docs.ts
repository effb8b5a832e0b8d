/**
 * Keeps the words around the code in shape (issue 30), run by `packages/server/test/Docs/Docs.test.ts`:
 *
 * - every setting `packages/server/src/Config.ts` reads is a row of the README's configuration table, once,
 *   and of no other table (one list of settings, so no copy drifts);
 * - the README is at most 12 KB;
 * - no line of the README or of `docs/` is over 400 characters.
 *
 * Usage: `tsx scripts/check-docs.ts [root]`; prints each problem and exits 1 when there is any.
 */
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const maxReadmeBytes = 12 * 1024
const maxLineChars = 400

/** The environment variables Config.ts reads: `Config.<kind>("NAME")`. */
const settingsOf = (
  configSource: string
): ReadonlyArray<string> => [
  ...new Set([...configSource.matchAll(/Config\.\w+\(\s*"([A-Z][A-Z0-9_]*)"/g)].map((match) => match[1] ?? ""))
]

/** The setting a table row documents: its first cell, when that is a single `NAME`. */
const rowSetting = (line: string): string | undefined => /^\|\s*`([A-Z][A-Z0-9_]*)`\s*\|/.exec(line)?.[1]

/** The README's `## Configuration` section: from its heading to the next `## ` heading. */
const configurationSection = (readme: string): { readonly start: number; readonly end: number } => {
  const lines = readme.split("\n")
  const start = lines.findIndex((line) => line.trim() === "## Configuration")
  if (start < 0) return { start: -1, end: -1 }
  const next = lines.findIndex((line, i) => i > start && line.startsWith("## "))
  return { start, end: next < 0 ? lines.length : next }
}

export const check = (root: string): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const read = (file: string) => fs.readFileSync(path.join(root, file), "utf8")
  const readme = read("README.md")
  const docs = fs.readdirSync(path.join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`)
  const pages = ["README.md", ...docs]

  if (Buffer.byteLength(readme) > maxReadmeBytes) {
    problems.push(`README.md is ${Buffer.byteLength(readme)} bytes, over ${maxReadmeBytes}`)
  }

  for (const page of pages) {
    read(page).split("\n").forEach((line, i) => {
      const length = [...line].length
      if (length > maxLineChars) problems.push(`${page}:${i + 1} is ${length} characters, over ${maxLineChars}`)
    })
  }

  const section = configurationSection(readme)
  if (section.start < 0) problems.push("README.md has no ## Configuration section")
  const inTable = new Map<string, number>()
  const elsewhere: Array<string> = []
  for (const page of pages) {
    read(page).split("\n").forEach((line, i) => {
      const name = rowSetting(line)
      if (name === undefined) return
      if (page === "README.md" && i > section.start && i < section.end) {
        inTable.set(name, (inTable.get(name) ?? 0) + 1)
      } else {
        elsewhere.push(`${name} (${page}:${i + 1})`)
      }
    })
  }
  const settings = settingsOf(read("packages/server/src/Config.ts"))
  for (const name of settings) {
    const count = inTable.get(name) ?? 0
    if (count === 0) problems.push(`${name} is read in Config.ts but missing from the README's configuration table`)
    if (count > 1) problems.push(`${name} is ${count} rows of the README's configuration table`)
  }
  const known = new Set(settings)
  for (const place of elsewhere) {
    if (known.has(place.split(" ")[0] ?? "")) {
      problems.push(`${place} is a settings table row outside the README's configuration table`)
    }
  }
  return problems
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = process.argv[2] ?? path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
  const problems = check(root)
  for (const problem of problems) console.error(problem)
  process.exit(problems.length === 0 ? 0 : 1)
}
