// Prints the built console's size, raw and gzipped, and fails above the budget (300 kB gzipped).
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { gzipSync } from "node:zlib"

const budget = 300 * 1024
const dist = new URL("../dist/", import.meta.url).pathname
const files = []
const walk = (dir) => {
  for (const name of readdirSync(dir)) {
    const full = join(dir, name)
    if (statSync(full).isDirectory()) walk(full)
    else if (/\.(js|css|html)$/.test(name)) files.push(full)
  }
}
walk(dist)
let raw = 0
let gzipped = 0
for (const file of files) {
  const bytes = readFileSync(file)
  const zipped = gzipSync(bytes, { level: 9 }).length
  raw += bytes.length
  gzipped += zipped
  console.log(`  ${file.slice(dist.length).padEnd(40)} ${(bytes.length / 1024).toFixed(1).padStart(8)} kB  gzip ${(zipped / 1024).toFixed(1).padStart(7)} kB`)
}
console.log(`console bundle: ${(raw / 1024).toFixed(1)} kB, ${(gzipped / 1024).toFixed(1)} kB gzipped (budget ${budget / 1024} kB gzipped)`)
if (gzipped > budget) {
  console.error("the console bundle is over its budget")
  process.exit(1)
}
