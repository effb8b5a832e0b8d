/**
 * The published `dastyar` bin. `--version` alone is answered from the manifest
 * before the command tree is loaded: loading it costs about half a second, and
 * scripts and installers ask for the version often.
 */
import manifest from "../package.json" with { type: "json" }

if (process.argv.length === 3 && process.argv[2] === "--version") {
  process.stdout.write(`${manifest.version}\n`)
} else {
  await import("./bin")
}
