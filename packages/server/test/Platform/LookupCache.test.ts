/**
 * The lookup cache behind the synonym rules and the authorisation caches: a value is reused for its TTL, a key
 * looked up again after every expiry is held once (Effect's `Cache` kept a node per reload in this place), it never
 * holds more than its capacity, and a lookup an invalidation overtook is answered but not kept.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as TestClock from "effect/TestClock"
import { makeLookupCache } from "../../src/Platform/LookupCache"

/** A cache of `key`'s length that counts its lookups. */
const countingCache = (capacity: number) =>
  Effect.gen(function*() {
    const lookups = { count: 0 }
    const cache = yield* makeLookupCache({
      capacity,
      timeToLive: "5 seconds",
      keyOf: (key: string) => key,
      lookup: (key: string) => Effect.sync(() => (lookups.count++, key.length))
    })
    return { cache, lookups }
  })

describe("LookupCache", () => {
  it.effect("reuses a value for its TTL, then looks it up again", () =>
    Effect.gen(function*() {
      const { cache, lookups } = yield* countingCache(10)
      expect(yield* cache.get("shop")).toBe(4)
      yield* TestClock.adjust("4 seconds")
      expect(yield* cache.get("shop")).toBe(4)
      expect(lookups.count).toBe(1)
      yield* TestClock.adjust("1 second")
      yield* cache.get("shop")
      expect(lookups.count).toBe(2)
    }))

  it.effect("keys looked up again after every expiry are held once each", () =>
    Effect.gen(function*() {
      const { cache, lookups } = yield* countingCache(10_000)
      for (let round = 0; round < 200; round++) {
        for (const key of ["ast_a", "ast_b", "ast_c"]) yield* cache.get(key)
        yield* TestClock.adjust("6 seconds")
        if (round % 10 === 0) yield* cache.invalidateAll
      }
      expect(lookups.count).toBe(600)
      expect(yield* cache.size).toBe(3)
    }))

  it.effect("never holds more keys than its capacity", () =>
    Effect.gen(function*() {
      const { cache } = yield* countingCache(100)
      for (let i = 0; i < 1_000; i++) {
        yield* cache.get(`ast_${i}`)
        expect(yield* cache.size).toBeLessThanOrEqual(100)
      }
    }))

  it.effect("a lookup overtaken by an invalidation answers its caller and is not kept", () =>
    Effect.gen(function*() {
      const release = yield* Deferred.make<void>()
      let lookups = 0
      const cache = yield* makeLookupCache({
        capacity: 10,
        timeToLive: "5 seconds",
        keyOf: (key: string) => key,
        lookup: (_: string) => Effect.zipRight(Deferred.await(release), Effect.sync(() => ++lookups))
      })
      const pending = yield* Effect.fork(cache.get("key_1"))
      yield* Effect.yieldNow()
      yield* cache.invalidate("key_2")
      yield* Deferred.succeed(release, undefined)
      expect(yield* Fiber.join(pending)).toBe(1)
      expect(yield* cache.size).toBe(0)
      expect(yield* cache.get("key_1")).toBe(2)
      expect(yield* cache.get("key_1")).toBe(2)
    }))
})
