/**
 * The service's own key material: `DASTYAR_SECRET_KEY` (32 bytes). Every use
 * derives what it needs from it (sealing messenger secrets, signing cursors),
 * so no secret doubles as another (rotating the operator token breaks nothing).
 *
 * Rotation: a new `DASTYAR_SECRET_KEY` with the old one in
 * `DASTYAR_SECRET_KEY_PREVIOUS` (comma-separated, several if need be) seals
 * and signs with the new key and still opens what the old ones sealed. Each
 * key has an id (derived from it, revealing nothing of it) that sealed values
 * carry, so a value names the key that opens it.
 *
 * Without `DASTYAR_SECRET_KEY`, the embedded mode keeps a generated key in the
 * data directory (mode 0600) beside the database it protects; with an external
 * database there is no safe place to invent one (instances would disagree, a
 * lost container would orphan every secret), so the key is absent.
 */
import { FileSystem } from "@effect/platform"
import { NodeFileSystem } from "@effect/platform-node"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { hkdfSync, randomBytes } from "node:crypto"
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

const invalid = (message: string, name = "DASTYAR_SECRET_KEY") => ConfigError.InvalidData([name], message)

/** A key's purpose-bound derivation (HKDF-SHA256, `purpose` as info). */
const hkdf = (key: Buffer, purpose: string, length = 32) =>
  Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), purpose, length))

/** Four bytes naming a key in what it sealed; derived, so they tell nothing of the key. */
export const keyIdOf = (key: Buffer) => hkdf(key, "dastyar key id", 4)

/** One key of the ring: its id and its raw bytes. */
export interface RingKey {
  readonly id: Buffer
  readonly key: Buffer
}

const keyFile = (dataDir: string) =>
  Effect.gen(function*() {
    const fs = yield* FileSystem.FileSystem
    const file = path.resolve(dataDir, "secret-key")
    if (yield* fs.exists(file)) return { file, text: yield* fs.readFileString(file) }
    const text = randomBytes(32).toString("base64")
    yield* fs.makeDirectory(dataDir, { recursive: true })
    yield* fs.writeFileString(file, text + "\n", { mode: 0o600 })
    return { file, text }
  }).pipe(Effect.mapError((error) => invalid(`cannot read or create the key file in ${dataDir}: ${error.message}`)))

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
    const previous: ReadonlyArray<Buffer> = yield* Option.match(config.secretKeyPrevious, {
      onNone: () => Effect.succeed([]),
      onSome: (secret) =>
        Effect.forEach(
          Redacted.value(secret).split(",").filter((text) => text.trim().length > 0),
          (text) =>
            Option.match(parseKey(text), {
              onSome: Effect.succeed,
              onNone: () =>
                Effect.fail(
                  invalid("each key must be 32 bytes: 64 hex characters or base64", "DASTYAR_SECRET_KEY_PREVIOUS")
                )
            })
        )
    })
    /** The current key first, then the previous ones. */
    const ring: ReadonlyArray<RingKey> = [...Option.toArray(key), ...previous].map((bytes) => ({
      id: keyIdOf(bytes),
      key: bytes
    }))
    return {
      /** The current key itself (version 1 of sealed messenger secrets used it directly). */
      key,
      /** Every key, current first: what a key no longer current sealed still opens. */
      ring,
      /** A 32-byte key of its own for one purpose (HKDF-SHA256 with `purpose` as info), from the current key. */
      derive: (purpose: string): Option.Option<Buffer> => Option.map(key, (bytes) => hkdf(bytes, purpose)),
      /** As `derive`, for every key of the ring, current first. */
      deriveRing: (purpose: string): ReadonlyArray<RingKey> =>
        ring.map(({ id, key }) => ({ id, key: hkdf(key, purpose) }))
    } as const
  }),
  dependencies: [NodeFileSystem.layer]
}) {}
