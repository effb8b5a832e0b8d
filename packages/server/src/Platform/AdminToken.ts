/**
 * The operator API's bearer token: `DASTYAR_ADMIN_TOKEN`, or one generated on
 * first start, kept in the data directory (mode 0600) and printed once (to the
 * terminal, not the log: a log may be shipped elsewhere).
 */
import { FileSystem } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { randomBytes } from "node:crypto"
import * as path from "node:path"
import { AppConfig } from "../Config"

export class AdminToken extends Effect.Service<AdminToken>()("AdminToken", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    if (Option.isSome(config.adminToken)) return { token: config.adminToken.value } as const
    const fs = yield* FileSystem.FileSystem
    const file = path.resolve(config.dataDir, "admin-token")
    const existing = (yield* fs.exists(file)) ? (yield* fs.readFileString(file)).trim() : ""
    if (existing !== "") return { token: Redacted.make(existing) } as const
    const token = `dat_${randomBytes(32).toString("base64url")}`
    yield* fs.makeDirectory(config.dataDir, { recursive: true })
    yield* fs.writeFileString(file, token + "\n", { mode: 0o600 })
    yield* Console.log(
      `\nOperator token (DASTYAR_ADMIN_TOKEN), shown once, kept in ${file}:\n  ${token}\n` +
        `Console: http://localhost:${config.port}/console (sign in with this token)\n`
    )
    return { token: Redacted.make(token) } as const
  }),
  dependencies: [AppConfig.Default, NodeFileSystem.layer]
}) {}
