#!/usr/bin/env node
/**
 * `pnpm build`: compiles every package to JavaScript with esbuild (ES modules
 * for Node 20, source maps beside each file), so the server and the CLI run
 * with plain `node` and nothing transpiles TypeScript at run time.
 *
 * Each entry is bundled with the workspace packages it imports (`@dastyar/*`
 * export their TypeScript sources, which Node cannot load) while npm
 * dependencies stay external and are loaded from `node_modules` as usual.
 *
 * The CLI, the SDK, the website widget and the console are built by their own `build` scripts;
 * the console (Vite) only in a full build or when its sources changed since its last build, so
 * a start serves the current console and a start after no change does not wait for it. The
 * browser tests drive what this builds once before the suite: a build per test file would
 * empty `dist` under another file's open page.
 *
 * `--if-needed` (used by `pnpm start` and before the tests) skips the build when every output is
 * newer than every source file, so a start after an unchanged checkout costs
 * one directory walk. Plain JavaScript so that it runs before anything is built.
 */
import * as esbuild from "esbuild"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const packageDir = (name) => path.join(root, "packages", name)

/**
 * npm dependencies of a package that Node loads from `node_modules` at run
 * time. Workspace packages and those matching `inline` are bundled instead:
 * Effect's hundreds of small modules cost more to resolve and read one by one
 * than the tree-shaken part of them costs to parse in one file.
 */
const externalsOf = (name, inline) => {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir(name), "package.json"), "utf8"))
  const all = { ...manifest.dependencies, ...manifest.peerDependencies }
  return Object.entries(all)
    .filter(([dep, version]) => !String(version).startsWith("workspace:") && !inline.test(dep))
    .map(([dep]) => dep)
}

/**
 * Effect and its platform packages: pure JavaScript, side-effect free, safe to
 * bundle. Not `@effect/opentelemetry`: it is imported only when tracing is
 * configured, and inlined its OpenTelemetry imports would load at every start.
 */
const effectPackages = /^(effect|@effect\/(?!opentelemetry$).*)$/

/**
 * What is built. The server's child-process entries (named in the sources as
 * `childEntry("Name", import.meta.url)`) are entries of their own, emitted
 * beside `main.js`: in the bundle `import.meta.url` is `main.js`'s, and
 * `Platform/ChildEntry` looks for `Name.js` next to it.
 */
const targets = () => [
  {
    name: "server",
    entryPoints: { main: "src/main.ts", ...childEntries(path.join(packageDir("server"), "src")) },
    inline: effectPackages
  },
  { name: "domain", entryPoints: { index: "src/index.ts" }, inline: /^$/ }
]

/**
 * esbuild leaves non-ASCII characters in regular expression literals; one of them makes V8 hold the
 * whole script as UTF-16, twice its size. Escaped as `\\uXXXX`, which
 * means the same in a regular expression, a string or an identifier (comments are already gone).
 */
const asciiOnly = (dir) => {
  for (const file of fs.readdirSync(dir).filter((name) => name.endsWith(".js"))) {
    const full = path.join(dir, file)
    const text = fs.readFileSync(full, "utf8")
    if (/^[\x00-\x7f]*$/.test(text)) continue
    fs.writeFileSync(
      full,
      // Per UTF-16 code unit, so characters beyond the BMP become an escaped surrogate pair.
      text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)
    )
  }
}

/** The CLI and the SDK build themselves (`scripts/bundle.mjs`, their publishable form). */
const runPackageBuild = (name) =>
  new Promise((resolve, reject) => {
    const child = spawn("pnpm", ["run", "build"], { cwd: packageDir(name), stdio: "inherit" })
    child.on("exit", (code) => (code === 0 ? resolve() : reject(new Error(`${name}: build failed (${code})`))))
  })

/** `{ Name: "src/…/Name.ts" }` for every `childEntry("Name", …)` call in the sources. */
function childEntries(srcDir) {
  const files = []
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name)
      if (entry.isDirectory()) walk(full)
      else if (entry.name.endsWith(".ts")) files.push(full)
    }
  }
  walk(srcDir)
  const named = new Set(files.flatMap((file) =>
    Array.from(fs.readFileSync(file, "utf8").matchAll(/childEntry\("(\w+)"/g), (match) => match[1])
  ))
  return Object.fromEntries(Array.from(named, (name) => {
    const file = files.find((candidate) => path.basename(candidate) === `${name}.ts`)
    if (file === undefined) throw new Error(`child entry ${name}.ts not found`)
    return [name, path.relative(packageDir("server"), file)]
  }))
}

const newestMtime = (dir) => {
  let newest = 0
  if (!fs.existsSync(dir)) return newest
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : fs.statSync(full).mtimeMs)
  }
  return newest
}

const stampFile = path.join(root, "packages", "server", "dist", ".built")
const consolePage = path.join(packageDir("console"), "dist", "index.html")
const consoleBuilt = () => fs.existsSync(consolePage)

/** The console is current when its page is newer than its sources and the SDK and domain it bundles. */
const consoleCurrent = () => {
  if (!consoleBuilt()) return false
  const consoleDir = packageDir("console")
  const sources = [
    ...["console", "sdk", "domain"].map((name) => newestMtime(path.join(packageDir(name), "src"))),
    ...["index.html", "package.json", "vite.config.ts"].map((file) => fs.statSync(path.join(consoleDir, file)).mtimeMs)
  ]
  return Math.max(...sources) < fs.statSync(consolePage).mtimeMs
}
const widgetBuilt = () => fs.existsSync(path.join(packageDir("widget"), "dist", "widget.js"))

/** The build is current when its stamp is newer than every package's sources and manifest. */
const upToDate = () => {
  if (!fs.existsSync(stampFile) || !consoleCurrent() || !widgetBuilt()) return false
  const built = fs.statSync(stampFile).mtimeMs
  const sources = ["domain", "server", "sdk", "cli", "widget"].flatMap((name) => [
    newestMtime(path.join(packageDir(name), "src")),
    fs.statSync(path.join(packageDir(name), "package.json")).mtimeMs
  ])
  return Math.max(...sources, fs.statSync(fileURLToPath(import.meta.url)).mtimeMs) < built
}

const build = async () => {
  const started = performance.now()
  // The SDK's declarations take a tsc run: only in a full `pnpm build`, not before a start or the tests.
  const ifNeeded = process.argv.includes("--if-needed")
  // The widget (esbuild, well under a second) always: the server serves what it builds.
  const packages = [
    ...(ifNeeded ? ["cli", "widget"] : ["cli", "sdk", "widget"]),
    ...(ifNeeded && consoleCurrent() ? [] : ["console"])
  ]
  await Promise.all([...packages.map(runPackageBuild), ...targets().map(({ entryPoints, inline, name }) => {
    const cwd = packageDir(name)
    fs.rmSync(path.join(cwd, "dist", "js"), { recursive: true, force: true })
    return esbuild.build({
      absWorkingDir: cwd,
      entryPoints,
      outdir: "dist/js",
      bundle: true,
      format: "esm",
      platform: "node",
      target: "node20",
      sourcemap: true,
      // Stack traces need only the mappings, not the sources' text (12 MB; 60 MB of RSS once loaded
      // by `--enable-source-maps`). The logger reads a map only when it logs a stack trace.
      sourcesContent: false,
      // No comments or indentation: V8 keeps a script's whole text in memory, and one non-Latin-1
      // character in a comment (e.g. a typographic apostrophe) would make it a UTF-16 string twice as
      // large. Names are kept, and stack traces map back through the source map. Licence comments go to
      // a `.LEGAL.txt` file beside each output.
      minifyWhitespace: true,
      charset: "ascii",
      legalComments: "linked",
      external: externalsOf(name, inline),
      // Bundled CommonJS modules call `require`, which ES modules lack.
      banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
      logLevel: "warning"
    }).then(() => asciiOnly(path.join(cwd, "dist", "js")))
  })])
  fs.mkdirSync(path.dirname(stampFile), { recursive: true })
  fs.writeFileSync(stampFile, new Date().toISOString())
  console.error(`built in ${Math.round(performance.now() - started)} ms`)
}

if (process.argv.includes("--if-needed") && upToDate()) process.exit(0)
await build()
