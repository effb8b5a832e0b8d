import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import { collectionSizesCapacity, makeCollectionSizes } from "../../src/Search/CollectionSizes"

describe("collection sizes", () => {
  it.effect("a fresh size is reused; a stale one is answered at once and counted again in the background", () =>
    Effect.gen(function*() {
      let loads = 0
      let size = 10
      const sizes = yield* makeCollectionSizes((_: string) => Effect.sync(() => (loads++, size)))
      expect(yield* sizes.get("a")).toBe(10)
      size = 20
      yield* TestClock.adjust("9 seconds")
      expect(yield* sizes.get("a")).toBe(10)
      expect(loads).toBe(1)
      yield* TestClock.adjust("2 seconds")
      // Stale: the old size answers, the count runs in a daemon fiber.
      expect(yield* sizes.get("a")).toBe(10)
      yield* Effect.yieldNow()
      expect(loads).toBe(2)
      expect(yield* sizes.get("a")).toBe(20)
      expect(yield* sizes.get("b")).toBe(20)
      expect(loads).toBe(3)
    }))

  it.effect("sizes counted again every few seconds are held once per assistant", () =>
    Effect.gen(function*() {
      let loads = 0
      const sizes = yield* makeCollectionSizes((_: string) => Effect.sync(() => ++loads))
      for (let round = 0; round < 200; round++) {
        for (const assistantId of ["ast_a", "ast_b", "ast_c"]) yield* sizes.get(assistantId)
        yield* Effect.yieldNow()
        yield* TestClock.adjust("11 seconds")
      }
      expect(loads).toBe(600)
      expect(yield* sizes.held).toBe(3)
    }))

  it.effect("never holds more assistants than its capacity", () =>
    Effect.gen(function*() {
      const sizes = yield* makeCollectionSizes((_: string) => Effect.succeed(1))
      for (let i = 0; i < collectionSizesCapacity + 500; i++) yield* sizes.get(`ast_${i}`)
      expect(yield* sizes.held).toBeLessThanOrEqual(collectionSizesCapacity)
    }))
})
