// Runs a TypeScript child-process entry from sources (development and tests), registering tsx in
// the child itself. The compiled build forks the emitted `.js` entry directly and never loads this.
import process from "node:process"
import { tsImport } from "tsx/esm/api"

await tsImport(process.argv[2], import.meta.url)
