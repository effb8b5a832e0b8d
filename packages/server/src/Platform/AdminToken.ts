/**
 * The operator API's bearer token: `DASTYAR_ADMIN_TOKEN`, or one generated on
 * first start, kept in the data directory (mode 0600) and printed once.
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { AppConfig } from "../Config"

export class AdminToken extends Effect.Service<AdminToken>()("AdminToken", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    if (Option.isSome(config.adminToken)) return { token: config.adminToken.value } as const
    const file = path.resolve(config.dataDir, "admin-token")
    const existing = yield* Effect.sync(() => fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim() : "")
    if (existing !== "") return { token: Redacted.make(existing) } as const
    const token = `dat_${randomBytes(32).toString("base64url")}`
    yield* Effect.sync(() => {
      fs.mkdirSync(config.dataDir, { recursive: true })
      fs.writeFileSync(file, token + "\n", { mode: 0o600 })
    })
    yield* Effect.sync(() =>
      console.log(`\nOperator token (DASTYAR_ADMIN_TOKEN), shown once, kept in ${file}:\n  ${token}\n`)
    )
    return { token: Redacted.make(token) } as const
  }),
  dependencies: [AppConfig.Default]
}) {}
