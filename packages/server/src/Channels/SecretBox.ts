/**
 * Encryption at rest for messenger secrets (bot tokens, hook secrets):
 * AES-256-GCM with a random 96-bit IV, the connection code as associated data
 * (a sealed value copied to another row does not open).
 *
 * The key is `DASTYAR_SECRET_KEY` (see `Platform/SecretKey`); with an external
 * database and no key set, connections are refused with
 * `connections.secret_key_missing` until it is set.
 */
import { Channels } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { AppConfig } from "../Config"
import { SecretKey } from "../Platform/SecretKey"

const version = 1
const ivBytes = 12
const tagBytes = 16

export class SecretBox extends Effect.Service<SecretBox>()("SecretBox", {
  effect: Effect.gen(function*() {
    const { key } = yield* SecretKey
    const config = yield* AppConfig
    if (Option.isNone(key) && Option.isSome(config.databaseUrl)) {
      yield* Effect.logWarning("DASTYAR_SECRET_KEY is not set: messenger connections are refused until it is")
    }

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
  }),
  dependencies: [SecretKey.Default]
}) {}
