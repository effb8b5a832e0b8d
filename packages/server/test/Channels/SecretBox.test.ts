import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import { createCipheriv, randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { SecretBox } from "../../src/Channels/SecretBox"
import { AppConfig } from "../../src/Config"
import { parseKey } from "../../src/Platform/SecretKey"

const withSettings = (settings: Record<string, string>) =>
  SecretBox.Default.pipe(
    Layer.provide(AppConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map(Object.entries(settings)))))
  )

describe("SecretBox", () => {
  it("reads 32-byte keys as hex or base64 only", () => {
    expect(parseKey("ab".repeat(32))._tag).toBe("Some")
    expect(parseKey(Buffer.alloc(32, 1).toString("base64"))._tag).toBe("Some")
    expect(parseKey(Buffer.alloc(32, 255).toString("base64url"))._tag).toBe("Some")
    expect(parseKey("too short")._tag).toBe("None")
    expect(parseKey(Buffer.alloc(16).toString("base64"))._tag).toBe("None")
  })

  it.effect("seals with AES-256-GCM bound to the connection code; altered or moved values do not open", () =>
    Effect.gen(function*() {
      const box = yield* SecretBox
      const sealed = yield* box.seal("123:token", "con_a")
      expect(Buffer.from(sealed).includes(Buffer.from("123:token"))).toBe(false)
      expect(yield* box.open(sealed, "con_a")).toBe("123:token")
      // Random IVs: sealing twice gives different bytes.
      expect(Buffer.from(yield* box.seal("123:token", "con_a")).equals(Buffer.from(sealed))).toBe(false)
      expect(Exit.isFailure(yield* Effect.exit(box.open(sealed, "con_b")))).toBe(true)
      const altered = Buffer.from(sealed)
      altered[altered.length - 1] = (altered[altered.length - 1] ?? 0) ^ 1
      expect(Exit.isFailure(yield* Effect.exit(box.open(altered, "con_a")))).toBe(true)
    }).pipe(Effect.provide(withSettings({ DASTYAR_SECRET_KEY: "cd".repeat(32) }))))

  it.effect("embedded without a key: one is generated into the data directory (0600) and kept", () =>
    Effect.gen(function*() {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-key-"))
      const first = yield* Effect.flatMap(SecretBox, (box) => box.seal("x", "c")).pipe(
        Effect.provide(withSettings({ DASTYAR_DATA_DIR: dataDir }))
      )
      const file = path.join(dataDir, "secret-key")
      expect(fs.statSync(file).mode & 0o777).toBe(0o600)
      const opened = yield* Effect.flatMap(SecretBox, (box) => box.open(first, "c")).pipe(
        Effect.provide(withSettings({ DASTYAR_DATA_DIR: dataDir }))
      )
      expect(opened).toBe("x")
      fs.rmSync(dataDir, { recursive: true, force: true })
    }))

  it.effect("with an external database and no key, sealing fails with connections.secret_key_missing; a bad key stops the start", () =>
    Effect.gen(function*() {
      const missing = yield* Effect.flatMap(SecretBox, (box) => box.seal("x", "c")).pipe(
        Effect.provide(withSettings({ DATABASE_URL: "postgres://nowhere/db" })),
        Effect.flip
      )
      expect(missing._tag).toBe("SecretKeyMissing")
      const bad = yield* Effect.exit(Effect.provide(SecretBox, withSettings({ DASTYAR_SECRET_KEY: "short" })))
      expect(Exit.isFailure(bad)).toBe(true)
    }))

  it.effect("a value sealed before key ids (version 1, the key used directly) still opens", () =>
    Effect.gen(function*() {
      // What the first version wrote: [1][iv][tag][ciphertext], AES-256-GCM under the raw key.
      const key = Buffer.from("cd".repeat(32), "hex")
      const iv = randomBytes(12)
      const cipher = createCipheriv("aes-256-gcm", key, iv)
      cipher.setAAD(Buffer.from("con_old"))
      const body = Buffer.concat([cipher.update("123:legacy", "utf8"), cipher.final()])
      const legacy = Buffer.concat([Buffer.of(1), iv, cipher.getAuthTag(), body])
      const box = yield* SecretBox
      expect(yield* box.open(legacy, "con_old")).toBe("123:legacy")
      expect(box.isCurrent(legacy)).toBe(false)
      // Sealed again, it carries the current key's id and a key derived for this purpose, not the key itself.
      const resealed = yield* box.seal("123:legacy", "con_old")
      expect(resealed[0]).toBe(2)
      expect(box.isCurrent(resealed)).toBe(true)
      expect(yield* box.open(resealed, "con_old")).toBe("123:legacy")
    }).pipe(Effect.provide(withSettings({ DASTYAR_SECRET_KEY: "cd".repeat(32) }))))

  it.effect("rotation: with the old key in DASTYAR_SECRET_KEY_PREVIOUS, what it sealed opens; new values use the new key", () =>
    Effect.gen(function*() {
      const oldKey = "11".repeat(32)
      const newKey = Buffer.alloc(32, 7).toString("base64")
      const sealedOld = yield* Effect.flatMap(SecretBox, (box) => box.seal("old-token", "con_a")).pipe(
        Effect.provide(withSettings({ DASTYAR_SECRET_KEY: oldKey }))
      )
      const rotated = withSettings({
        DASTYAR_SECRET_KEY: newKey,
        DASTYAR_SECRET_KEY_PREVIOUS: `${"22".repeat(32)},${oldKey}`
      })
      const { current, opened, sealedNew } = yield* Effect.gen(function*() {
        const box = yield* SecretBox
        return {
          opened: yield* box.open(sealedOld, "con_a"),
          current: box.isCurrent(sealedOld),
          sealedNew: yield* box.seal("new-token", "con_a")
        }
      }).pipe(Effect.provide(rotated))
      expect(opened).toBe("old-token")
      expect(current).toBe(false)
      // The new key alone opens new values, not old ones.
      const newOnly = withSettings({ DASTYAR_SECRET_KEY: newKey })
      expect(yield* Effect.flatMap(SecretBox, (box) => box.open(sealedNew, "con_a")).pipe(Effect.provide(newOnly)))
        .toBe("new-token")
      const orphan = yield* Effect.exit(
        Effect.flatMap(SecretBox, (box) => box.open(sealedOld, "con_a")).pipe(Effect.provide(newOnly))
      )
      expect(Exit.isFailure(orphan)).toBe(true)
      // A malformed previous key stops the start.
      const bad = yield* Effect.exit(
        Effect.provide(SecretBox, withSettings({ DASTYAR_SECRET_KEY: newKey, DASTYAR_SECRET_KEY_PREVIOUS: "short" }))
      )
      expect(Exit.isFailure(bad)).toBe(true)
    }))
})
