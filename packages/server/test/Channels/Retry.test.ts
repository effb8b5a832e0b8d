import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { delayAfter, type Retryable, retrying } from "../../src/Channels/Retry"

const policy = { attempts: 4, baseDelay: Duration.millis(500) }
const outage: Retryable = { transient: true, retryAfterSeconds: null }

describe("messenger retry policy", () => {
  it("waits twice as long after each failure, at most 30 seconds, or as long as the platform asked", () => {
    expect([1, 2, 3].map((n) => Duration.toMillis(delayAfter(policy, n, outage)))).toEqual([500, 1000, 2000])
    expect(Duration.toMillis(delayAfter(policy, 12, outage))).toBe(30_000)
    expect(Duration.toMillis(delayAfter(policy, 1, { transient: true, retryAfterSeconds: 7 }))).toBe(7000)
  })

  it.effect("an outage is tried the bounded number of times, then its failure comes back", () =>
    Effect.gen(function*() {
      let calls = 0
      const failing = Effect.suspend(() => {
        calls++
        return Effect.fail(outage)
      })
      const fiber = yield* Effect.fork(Effect.either(retrying(failing, policy, "test")))
      yield* TestClock.adjust("1 minute")
      const result = yield* Fiber.join(fiber)
      expect(result._tag).toBe("Left")
      expect(calls).toBe(4)
    }))

  it.effect("a refusal is not retried, nor a wait longer than two minutes", () =>
    Effect.gen(function*() {
      let calls = 0
      const refused = Effect.suspend(() => {
        calls++
        return Effect.fail({ transient: false, retryAfterSeconds: null })
      })
      yield* Effect.either(retrying(refused, policy, "test"))
      expect(calls).toBe(1)
      const slowDown = Effect.suspend(() => {
        calls++
        return Effect.fail({ transient: true, retryAfterSeconds: 600 })
      })
      yield* Effect.either(retrying(slowDown, policy, "test"))
      expect(calls).toBe(2)
    }))
})
