/**
 * Conversation-log benchmark (list page, unanswered report, curated chat): the
 * measuring program is `packages/server/test/support/ConversationsBench.ts`,
 * run from the server package so it resolves the server's own dependencies.
 *
 *   pnpm bench:conversations [-- --conversations 100000 --requests 200]
 */
import { execFileSync } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
execFileSync(
  path.join(repoRoot, "node_modules/.bin/tsx"),
  ["test/support/ConversationsBench.ts", ...process.argv.slice(2).filter((arg) => arg !== "--")],
  { cwd: path.join(repoRoot, "packages/server"), stdio: "inherit" }
)
