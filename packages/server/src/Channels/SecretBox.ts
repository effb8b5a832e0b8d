/**
 * Encryption at rest for messenger secrets (bot tokens, hook secrets):
 * AES-256-GCM with a random 96-bit IV, the connection code as associated data
 * (a sealed value copied to another row does not open).
 *
 * The key is derived for this purpose alone from `DASTYAR_SECRET_KEY` (see
 * `Platform/SecretKey`), and a sealed value starts with the id of the key that
 * sealed it, so after a rotation values sealed with a previous key
 * (`DASTYAR_SECRET_KEY_PREVIOUS`) still open, and `isCurrent` tells which to
 * seal again. Values of version 1 (sealed with the key itself, no id) open with
 * any key of the ring. With an external database and no key set, connections
 * are refused with `connections.secret_key_missing` until it is set.
 */
import { Channels } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto"
import { AppConfig } from "../Config"
import { SecretKey } from "../Platform/SecretKey"

/** Version 1: [1][iv][tag][ciphertext] under the raw key. Version 2: [2][key id][iv][tag][ciphertext]. */
const legacyVersion = 1
const version = 2
const keyIdBytes = 4
const ivBytes = 12
const tagBytes = 16
const purpose = "dastyar messenger secrets"

const decrypt = (key: Buffer, body: Buffer, associatedData: string) => {
  const iv = body.subarray(0, ivBytes)
  const tag = body.subarray(ivBytes, ivBytes + tagBytes)
  const decipher = createDecipheriv("aes-256-gcm", key, iv)
  decipher.setAAD(Buffer.from(associatedData))
  decipher.setAuthTag(tag)
  return Buffer.concat([decipher.update(body.subarray(ivBytes + tagBytes)), decipher.final()]).toString("utf8")
}

/** The first key of `keys` that opens the value; throws when none does. */
const decryptWithAny = (keys: ReadonlyArray<Buffer>, body: Buffer, associatedData: string) => {
  for (const key of keys) {
    try {
      return decrypt(key, body, associatedData)
    } catch {
      // Not this key: the next one.
    }
  }
  throw new Error("no key opens the value")
}

export class SecretBox extends Effect.Service<SecretBox>()("SecretBox", {
  effect: Effect.gen(function*() {
    const secretKey = yield* SecretKey
    const config = yield* AppConfig
    if (Option.isNone(secretKey.key) && Option.isSome(config.databaseUrl)) {
      yield* Effect.logWarning("DASTYAR_SECRET_KEY is not set: messenger connections are refused until it is")
    }
    const derived = secretKey.deriveRing(purpose)
    const current = derived[0]

    const requireKey = current === undefined ? Effect.fail(new Channels.SecretKeyMissing()) : Effect.succeed(current)

    return {
      /** Fails with `SecretKeyMissing` only when no key could be had (external database, no `DASTYAR_SECRET_KEY`). */
      seal: (plaintext: string, associatedData: string) =>
        Effect.map(requireKey, ({ id, key }) => {
          const iv = randomBytes(ivBytes)
          const cipher = createCipheriv("aes-256-gcm", key, iv)
          cipher.setAAD(Buffer.from(associatedData))
          const sealed = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()])
          return Buffer.concat([Buffer.of(version), id, iv, cipher.getAuthTag(), sealed])
        }),

      /** Whether the value was sealed with the current key (else sealing it again moves it to that key). */
      isCurrent: (sealed: Uint8Array) =>
        current !== undefined && sealed[0] === version &&
        Buffer.from(sealed.subarray(1, 1 + keyIdBytes)).equals(current.id),

      /** A value that does not open (no key of the ring, altered bytes) is a defect: the operator must fix the key. */
      open: (sealed: Uint8Array, associatedData: string) =>
        Effect.flatMap(requireKey, () =>
          Effect.try({
            try: () => {
              const buffer = Buffer.from(sealed)
              if (buffer[0] === legacyVersion) {
                return decryptWithAny(secretKey.ring.map(({ key }) => key), buffer.subarray(1), associatedData)
              }
              if (buffer[0] !== version) throw new Error(`unknown sealed-secret version ${buffer[0]}`)
              const id = buffer.subarray(1, 1 + keyIdBytes)
              const key = derived.find((entry) => entry.id.equals(id))
              if (key === undefined) throw new Error("sealed with a key that is neither current nor previous")
              return decrypt(key.key, buffer.subarray(1 + keyIdBytes), associatedData)
            },
            catch: (cause) =>
              new Error(
                "cannot decrypt a connection's secrets: was DASTYAR_SECRET_KEY changed without " +
                  "DASTYAR_SECRET_KEY_PREVIOUS holding the old key?",
                { cause }
              )
          }).pipe(Effect.orDie))
    } as const
  }),
  dependencies: [SecretKey.Default]
}) {}
