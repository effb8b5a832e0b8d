/**
 * Rotating DASTYAR_SECRET_KEY: restarted with the new key and the old one as
 * DASTYAR_SECRET_KEY_PREVIOUS, the service opens the secrets the old key
 * sealed and seals them again with the new key at start, after which the old
 * key can be dropped.
 */
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { sign } from "../../src/Channels/Webhook/Signature"
import { sharedDatabase } from "../../src/Testing"
import { admin, call, pickString, setupAccount, TestApp } from "../support/TestApp"

const secret = "s3cret-shared-with-the-integration-0123456789"
const oldKey = "11".repeat(32)
const newKey = "22".repeat(32)

/** Runs `program` against a whole app instance started with `env`, then stops it. */
const withApp = <A, E, R>(env: Record<string, string>, program: Effect.Effect<A, E, R>) =>
  Effect.scoped(Effect.flatMap(Layer.build(TestApp(env)), (context) => Effect.provide(program, context)))

/** A signed message to the connection's hook: 200 only if its secret opened. */
const hookStatus = (code: string) => {
  const body = JSON.stringify({ principal: "p", message: "hello", messageId: `m-${Math.random()}` })
  const timestamp = Math.floor(Date.now() / 1000)
  return call("POST", `/hooks/webhook/${code}`, {
    rawBody: { contentType: "application/json", text: body },
    headers: { "x-dastyar-timestamp": String(timestamp), "x-dastyar-signature": sign(secret, timestamp, body) }
  }).pipe(Effect.map((reply) => reply.status))
}

it.scopedLive(
  "a new key with the old one as previous opens old secrets and seals them again with the new key",
  () =>
    Effect.gen(function*() {
      const database = yield* sharedDatabase
      const code = yield* withApp(
        { ...database, DASTYAR_SECRET_KEY: oldKey },
        Effect.gen(function*() {
          const { assistantId } = yield* setupAccount()
          const created = yield* admin("POST", `/assistants/${assistantId}/connections`, {
            driver: "webhook",
            callbackUrl: "https://93.184.216.34/hook",
            secret
          })
          return pickString(created.json, "data", "connectionCode")
        })
      )
      expect(
        yield* withApp(
          { ...database, DASTYAR_SECRET_KEY: newKey, DASTYAR_SECRET_KEY_PREVIOUS: oldKey },
          hookStatus(code)
        )
      )
        .toBe(200)
      // Sealed again at that start: the new key alone opens it now.
      expect(yield* withApp({ ...database, DASTYAR_SECRET_KEY: newKey }, hookStatus(code))).toBe(200)
    }),
  180_000
)
