// Bundles one package's entry into a single ES module for publishing:
// `node ../../scripts/bundle.mjs <entry> <outfile> [--bin]`, run in the
// package's folder. A library's own dependencies stay imports (npm installs
// them, and the caller shares one copy of effect); everything else, e.g. the
// workspace's @dastyar/domain, is inlined. A bin (`--bin`) inlines everything:
// one file parses about three times faster than hundreds of modules resolved
// one by one, and it installs with no dependencies. A bin is split: its entry
// stays small and loads the rest (in chunks/) only when it needs it, so a
// launcher can answer e.g. `--version` without parsing everything.
import { build } from "esbuild"
import { readFileSync, rmSync } from "node:fs"
import * as path from "node:path"

const [entry, outfile, ...flags] = process.argv.slice(2)
if (entry === undefined || outfile === undefined) {
  console.error("usage: bundle.mjs <entry> <outfile> [--bin]")
  process.exit(2)
}
const manifest = JSON.parse(readFileSync("package.json", "utf8"))
const bin = flags.includes("--bin")
const external = bin
  ? []
  : Object.keys({ ...manifest.dependencies, ...manifest.peerDependencies }).flatMap((name) => [name, `${name}/*`])
// Inlined CommonJS packages (papaparse, gray-matter) call `require`, which an ES module lacks.
const requireShim = `import { createRequire as createRequireForBundle } from "node:module"
const require = createRequireForBundle(import.meta.url)`

const output = bin
  ? (rmSync(path.join(path.dirname(outfile), "chunks"), { recursive: true, force: true }), {
    entryPoints: [{ in: entry, out: path.basename(outfile, ".js") }],
    outdir: path.dirname(outfile),
    splitting: true,
    chunkNames: "chunks/[name]-[hash]"
  })
  : { entryPoints: [entry], outfile }

await build({
  ...output,
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  external,
  banner: bin ? { js: `#!/usr/bin/env node\n${requireShim}` } : {},
  logLevel: "warning"
})
