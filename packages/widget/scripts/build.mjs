#!/usr/bin/env node
/**
 * Builds the widget into `dist/`: the widget itself as `widget.<hash>.js`
 * (its name changes with its content, so the server lets browsers cache it
 * for a year), then the loader `widget.js` that names it. Prints the gzipped
 * sizes and fails when the JavaScript a page loads is over 25 kB gzipped.
 */
import * as esbuild from "esbuild"
import { createHash } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"

const budget = 25 * 1024
const packageDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..")
const dist = path.join(packageDir, "dist")

const bundle = async (entry, define = {}) => {
  const result = await esbuild.build({
    absWorkingDir: packageDir,
    entryPoints: [entry],
    bundle: true,
    format: "iife",
    target: "es2020",
    minify: true,
    charset: "utf8",
    legalComments: "none",
    define,
    write: false,
    logLevel: "warning"
  })
  return result.outputFiles[0].contents
}

fs.rmSync(dist, { recursive: true, force: true })
fs.mkdirSync(dist, { recursive: true })
const widget = await bundle("src/widget.ts")
const name = `widget.${createHash("sha256").update(widget).digest("hex").slice(0, 12)}.js`
fs.writeFileSync(path.join(dist, name), widget)
const loader = await bundle("src/loader.ts", { __WIDGET_FILE__: JSON.stringify(name) })
fs.writeFileSync(path.join(dist, "widget.js"), loader)

let total = 0
for (const [file, bytes] of [["widget.js", loader], [name, widget]]) {
  const gzipped = gzipSync(bytes, { level: 9 }).length
  total += gzipped
  console.log(`  ${file.padEnd(28)} ${(bytes.length / 1024).toFixed(1).padStart(6)} kB  gzip ${(gzipped / 1024).toFixed(1).padStart(5)} kB`)
}
console.log(`widget: ${(total / 1024).toFixed(1)} kB gzipped (budget ${budget / 1024} kB gzipped)`)
if (total > budget) {
  console.error("the widget is over its budget")
  process.exit(1)
}
