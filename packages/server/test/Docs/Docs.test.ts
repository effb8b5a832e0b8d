/**
 * The docs stay in the shape issue 30 asked for, checked by `scripts/check-docs.ts`: every setting of Config.ts
 * in the README's configuration table and in no other table, a README of at most 12 KB, no line over 400
 * characters. The script runs on the repository and on small copies that each break one rule.
 */
import { describe, expect, it } from "@effect/vitest"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const repo = fileURLToPath(new URL("../../../../", import.meta.url))
const script = path.join(repo, "scripts/check-docs.ts")
const tsx = path.join(repo, "node_modules/.bin/tsx")

const run = (root: string) => {
  const result = spawnSync(tsx, [script, root], { encoding: "utf8" })
  return { ok: result.status === 0, problems: result.stderr }
}

const config = `export const x = { port: Config.port("PORT"), key: Config.option(Config.redacted("DASTYAR_KEY")) }\n`
const table =
  "| variable | default | meaning |\n|---|---|---|\n| `PORT` | `3000` | port |\n| `DASTYAR_KEY` | none | a key |\n"

/** A small repository: a README with its configuration table, Config.ts and one page of docs. */
const fixture = (files: { readonly readme?: string; readonly page?: string; readonly config?: string } = {}) => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-docs-"))
  fs.mkdirSync(path.join(root, "docs"))
  fs.mkdirSync(path.join(root, "packages/server/src"), { recursive: true })
  fs.writeFileSync(
    path.join(root, "README.md"),
    files.readme ?? `# D\n\n## Configuration\n\n${table}\n## Documentation\n`
  )
  fs.writeFileSync(path.join(root, "docs/page.md"), files.page ?? "# Page\n\nSee the README's table.\n")
  fs.writeFileSync(path.join(root, "packages/server/src/Config.ts"), files.config ?? config)
  return root
}

describe("docs", () => {
  it("the repository's README and docs keep every rule", () => {
    const result = run(repo)
    expect(result.problems).toBe("")
    expect(result.ok).toBe(true)
  })

  it("a small repository keeping the rules passes", () => {
    expect(run(fixture()).ok).toBe(true)
  })

  it("a setting Config.ts reads but the README's table lacks fails, named", () => {
    const result = run(fixture({ config: `${config}const y = Config.string("DASTYAR_NEW")\n` }))
    expect(result.ok).toBe(false)
    expect(result.problems).toContain("DASTYAR_NEW")
  })

  it("a setting in a table of another page fails, even when the README has it", () => {
    const result = run(fixture({ page: "# Page\n\n| Variable | Default |\n| --- | --- |\n| `DASTYAR_KEY` | none |\n" }))
    expect(result.ok).toBe(false)
    expect(result.problems).toContain("docs/page.md:5")
  })

  it("a README over 12 KB fails", () => {
    const readme = `# D\n\n## Configuration\n\n${table}\n## More\n\n${"A line of prose.\n".repeat(800)}`
    expect(run(fixture({ readme })).problems).toContain("README.md is")
  })

  it("a line over 400 characters in docs fails, with its place", () => {
    const result = run(fixture({ page: `# Page\n\n${"x".repeat(401)}\n` }))
    expect(result.ok).toBe(false)
    expect(result.problems).toContain("docs/page.md:3 is 401 characters")
  })
})
