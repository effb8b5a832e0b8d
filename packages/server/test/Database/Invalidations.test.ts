/**
 * The caches of authorisation facts stay bounded however long an instance runs: a key looked up again after every
 * expiry or revocation is held once, never more keys than the capacity, and a revocation empties them.
 */
import { expect, layer } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as TestClock from "effect/TestClock"
import * as TestContext from "effect/TestContext"
import { AppConfig } from "../../src/Config"
import { Invalidations } from "../../src/Database/Invalidations"
import { TestApp } from "../support/TestApp"

/** The service as one embedded instance runs it (no listener), whichever database the suite uses. */
const embeddedInvalidations = Invalidations.Default.pipe(
  Layer.provide(AppConfig.Default),
  Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(new Map())))
)

layer(TestApp(), { excludeTestServices: true })("invalidation caches", (it) => {
  it.effect("hold each key once through expiries and revocations, at most their capacity, none after a revocation", () =>
    Effect.gen(function*() {
      const invalidations = yield* Invalidations
      let lookups = 0
      const cache = yield* invalidations.cache({
        topics: ["keys"],
        capacity: 50,
        timeToLive: "5 seconds",
        keyOf: (key: string) => key,
        lookup: (_: string) => Effect.sync(() => ++lookups)
      })
      yield* Effect.gen(function*() {
        for (let round = 0; round < 100; round++) {
          for (const key of ["key_a", "key_b"]) yield* cache.get(key)
          yield* TestClock.adjust("6 seconds")
          if (round % 10 === 0) yield* invalidations.publish("keys")
        }
      }).pipe(Effect.provide(TestContext.TestContext))
      expect(lookups).toBe(200)
      expect(yield* cache.size).toBe(2)
      for (let i = 0; i < 500; i++) yield* cache.get(`key_${i}`)
      expect(yield* cache.size).toBeLessThanOrEqual(50)
      yield* invalidations.publish("keys")
      expect(yield* cache.size).toBe(0)
    }).pipe(Effect.provide(embeddedInvalidations)))
})
