/**
 * What `patches/@effect__experimental@0.61.1.patch` fixes: the Redis rate-limiter store closed its client with
 * `quit()` alone, which rejects when Redis cannot be reached, so closing the store (a server stopping while
 * Redis is down) failed its scope with a defect. The patch falls back to `disconnect()`. Fails on the
 * unpatched library.
 */
import * as RedisRateLimiter from "@effect/experimental/RateLimiter/Redis"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as net from "node:net"

/** A loopback port that refuses connections: bound, then closed. */
const closedPort = () =>
  Effect.async<number>((resume) => {
    const server = net.createServer().listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 1)))
    })
  })

describe("@effect/experimental patch", () => {
  it.live("closes the Redis store cleanly while Redis cannot be reached", () =>
    Effect.gen(function*() {
      const port = yield* closedPort()
      // The server's own options for a store that fails fast (Platform/RateLimit.ts).
      const store = RedisRateLimiter.layerStore({
        host: "127.0.0.1",
        port,
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: 500
      })
      const exit = yield* Effect.exit(Effect.scoped(Layer.build(store)))
      expect(Exit.isSuccess(exit)).toBe(true)
    }), 10_000)
})
