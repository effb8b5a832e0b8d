import { describe, expect, it } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
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
})
