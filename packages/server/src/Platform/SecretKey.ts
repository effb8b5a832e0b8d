/**
 * The service's own key material: `DASTYAR_SECRET_KEY` (32 bytes). Every use
 * derives what it needs from it (sealing messenger secrets, signing cursors),
 * so no secret doubles as another (rotating the operator token breaks nothing).
 *
 * Without `DASTYAR_SECRET_KEY`, the embedded mode keeps a generated key in the
 * data directory (mode 0600) beside the database it protects; with an external
 * database there is no safe place to invent one (instances would disagree, a
 * lost container would orphan every secret), so the key is absent.
 */
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { hkdfSync, randomBytes } from "node:crypto"
import * as fs from "node:fs/promises"
import * as path from "node:path"
import { AppConfig } from "../Config"

/** 32 bytes from 64 hex characters or base64(url); anything else is not a key. */
export const parseKey = (text: string): Option.Option<Buffer> => {
  const trimmed = text.trim()
  const bytes = /^[0-9a-fA-F]{64}$/.test(trimmed)
    ? Buffer.from(trimmed, "hex")
    : /^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)
    ? Buffer.from(trimmed, trimmed.includes("-") || trimmed.includes("_") ? "base64url" : "base64")
    : Buffer.alloc(0)
  return bytes.length === 32 ? Option.some(bytes) : Option.none()
}

const invalid = (message: string) => ConfigError.InvalidData(["DASTYAR_SECRET_KEY"], message)

const keyFile = (dataDir: string) =>
  Effect.tryPromise({
    try: async () => {
      const file = path.resolve(dataDir, "secret-key")
      const existing = await fs.readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return undefined
        throw error
      })
      if (existing !== undefined) return { file, text: existing }
      await fs.mkdir(dataDir, { recursive: true })
      const text = randomBytes(32).toString("base64")
      await fs.writeFile(file, text + "\n", { mode: 0o600 })
      return { file, text }
    },
    catch: (cause) => invalid(`cannot read or create the key file in ${dataDir}: ${String(cause)}`)
  })

export class SecretKey extends Effect.Service<SecretKey>()("SecretKey", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    const key: Option.Option<Buffer> = yield* Option.match(config.secretKey, {
      onSome: (secret) =>
        Option.match(parseKey(Redacted.value(secret)), {
          onSome: (bytes) => Effect.succeed(Option.some(bytes)),
          onNone: () => Effect.fail(invalid("must be 32 bytes: 64 hex characters or base64"))
        }),
      onNone: () =>
        Option.isNone(config.databaseUrl)
          ? keyFile(config.dataDir).pipe(Effect.flatMap(({ file, text }) =>
            Option.match(parseKey(text), {
              onSome: (bytes) => Effect.succeed(Option.some(bytes)),
              onNone: () => Effect.fail(invalid(`${file} does not hold a 32-byte key`))
            })
          ))
          : Effect.succeed(Option.none<Buffer>())
    })
    return {
      /** The key itself (messenger secrets are sealed with it directly since their first version). */
      key,
      /** A 32-byte key of its own for one purpose (HKDF-SHA256 with `purpose` as info). */
      derive: (purpose: string): Option.Option<Buffer> =>
        Option.map(key, (bytes) => Buffer.from(hkdfSync("sha256", bytes, Buffer.alloc(0), purpose, 32)))
    } as const
  })
}) {}
