import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { mapInPieces } from "../../src/Platform/EventLoop"

describe("work in pieces", () => {
  it.effect("a callback waiting on the event loop runs between two pieces, not after the whole work", () =>
    Effect.gen(function*() {
      const order: Array<string> = []
      setImmediate(() => order.push("waiting"))
      const out = yield* mapInPieces([1, 2, 3, 4, 5], 2, (piece) => {
        order.push(`piece ${piece.join(",")}`)
        return piece.map((n) => n * 10)
      })
      expect(out).toEqual([10, 20, 30, 40, 50])
      expect(order).toEqual(["piece 1,2", "waiting", "piece 3,4", "piece 5"])
    }))
})
