/**
 * Encryption at rest for messenger secrets (bot tokens, hook secrets):
 * AES-256-GCM with a random 96-bit IV, the connection code as associated data
 * (a sealed value copied to another row does not open).
 *
 * The key is `DASTYAR_SECRET_KEY`. Without it, the embedded mode keeps a
 * generated key in the data directory (mode 0600) beside the database it
 * protects; with an external database there is no safe place to invent one
 * (instances would disagree, a lost container would orphan every secret), so
 * connections are refused with `connections.secret_key_missing` until it is set.
 */
import { Channels } from "@dastyar/domain"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as path from "node:path"
import { AppConfig } from "../Config"

const version = 1
const ivBytes = 12
const tagBytes = 16

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

const keyFile = (dataDir: string) =>
  Effect.sync(() => {
    const file = path.resolve(dataDir, "secret-key")
    if (fs.existsSync(file)) return { file, text: fs.readFileSync(file, "utf8") }
    fs.mkdirSync(dataDir, { recursive: true })
    const text = randomBytes(32).toString("base64")
    fs.writeFileSync(file, text + "\n", { mode: 0o600 })
    return { file, text }
  })

export class SecretBox extends Effect.Service<SecretBox>()("SecretBox", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    const embedded = Option.isNone(config.databaseUrl)
    const key: Option.Option<Buffer> = yield* Option.match(config.secretKey, {
      onSome: (secret) =>
        Option.match(parseKey(Redacted.value(secret)), {
          onSome: (bytes) => Effect.succeed(Option.some(bytes)),
          onNone: () =>
            Effect.fail(ConfigError.InvalidData(["DASTYAR_SECRET_KEY"], "must be 32 bytes: 64 hex characters or base64"))
        }),
      onNone: () =>
        embedded
          ? keyFile(config.dataDir).pipe(Effect.flatMap(({ file, text }) =>
            Option.match(parseKey(text), {
              onSome: (bytes) => Effect.succeed(Option.some(bytes)),
              onNone: () => Effect.fail(ConfigError.InvalidData(["DASTYAR_SECRET_KEY"], `${file} does not hold a 32-byte key`))
            })
          ))
          : Effect.logWarning("DASTYAR_SECRET_KEY is not set: messenger connections are refused until it is").pipe(
            Effect.as(Option.none<Buffer>())
          )
    })

    const requireKey = Option.match(key, {
      onNone: () => Effect.fail(new Channels.SecretKeyMissing()),
      onSome: Effect.succeed
    })

    return {
      /** Fails with `SecretKeyMissing` only when no key could be had (external database, no `DASTYAR_SECRET_KEY`). */
      seal: (plaintext: string, associatedData: string) =>
        Effect.map(requireKey, (bytes) => {
          const iv = randomBytes(ivBytes)
          const cipher = createCipheriv("aes-256-gcm", bytes, iv)
          cipher.setAAD(Buffer.from(associatedData))
          const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
          return Buffer.concat([Buffer.of(version), iv, cipher.getAuthTag(), sealed])
        }),

      /** A value that does not open (another key, altered bytes) is a defect: the operator must fix the key. */
      open: (sealed: Uint8Array, associatedData: string) =>
        Effect.flatMap(requireKey, (bytes) =>
          Effect.try({
            try: () => {
              const buffer = Buffer.from(sealed)
              if (buffer[0] !== version) throw new Error(`unknown sealed-secret version ${buffer[0]}`)
              const iv = buffer.subarray(1, 1 + ivBytes)
              const tag = buffer.subarray(1 + ivBytes, 1 + ivBytes + tagBytes)
              const decipher = createDecipheriv("aes-256-gcm", bytes, iv)
              decipher.setAAD(Buffer.from(associatedData))
              decipher.setAuthTag(tag)
              return Buffer.concat([decipher.update(buffer.subarray(1 + ivBytes + tagBytes)), decipher.final()])
                .toString("utf8")
            },
            catch: (cause) =>
              new Error("cannot decrypt a connection's secrets: was DASTYAR_SECRET_KEY changed?", { cause })
          }).pipe(Effect.orDie))
    } as const
  })
}) {}
