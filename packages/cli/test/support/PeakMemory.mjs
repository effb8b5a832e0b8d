// Preloaded into a CLI run by the tests (`runCliToFile`): its peak resident memory, reported as it exits.
import process from "node:process"

process.on("exit", () => process.stderr.write(`\npeak-rss-kb ${process.resourceUsage().maxRSS}\n`))
