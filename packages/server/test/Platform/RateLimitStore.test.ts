/**
 * The in-memory rate-limit store counts as `@effect/experimental`'s does, and drops counters that have run out, so
 * a server seeing new client addresses, connections and keys every minute holds only the current window's.
 */
import { RateLimiter } from "@effect/experimental"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"
import { layerMemoryStore, makeMemoryStore } from "../../src/Platform/RateLimitStore"

const perMinute = (key: string, limit: number) =>
  ({ algorithm: "fixed-window", onExceeded: "fail", window: "1 minute", limit, key }) as const

describe("the in-memory rate-limit store", () => {
  it.effect("a subject gets its limit per window, and its count starts again when the window has passed", () =>
    Effect.gen(function*() {
      const limiter = yield* RateLimiter.RateLimiter
      const consume = limiter.consume(perMinute("ip:203.0.113.7", 3)).pipe(Effect.either)
      const answers = [yield* consume, yield* consume, yield* consume, yield* consume]
      expect(answers.map(Either.isRight)).toEqual([true, true, true, false])
      yield* TestClock.adjust("1 minute")
      expect(Either.isRight(yield* consume)).toBe(true)
    }).pipe(Effect.provide(RateLimiter.layer.pipe(Layer.provide(layerMemoryStore)))))

  it.effect("holds the counters of the current window only, however many subjects came before", () =>
    Effect.gen(function*() {
      const { size, store } = makeMemoryStore(1_000)
      const limiter = yield* RateLimiter.make.pipe(Effect.provideService(RateLimiter.RateLimiterStore, store))
      for (let minute = 0; minute < 30; minute++) {
        for (let i = 0; i < 800; i++) yield* limiter.consume(perMinute(`ip:${minute}.${i}`, 100))
        expect(size()).toBeLessThanOrEqual(1_600)
        yield* TestClock.adjust("1 minute")
      }
      expect(size()).toBeLessThanOrEqual(1_600)
    }))
})
