/**
 * Redis down with `REDIS_URL` set: the rate limiter fails open (a request is
 * let through uncounted, with a warning in the log) so that a store outage
 * does not take the API down with it. Answers come at once, not after a
 * connection timeout, and are never 5xx.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as net from "node:net"
import { call, setupAccount } from "../support/TestApp"
import { ReliabilityApp, report } from "./Fixture"

/** A loopback port that refuses connections: bound, then closed. */
const closedPort = await new Promise<number>((resolve) => {
  const server = net.createServer().listen(0, "127.0.0.1", () => {
    const address = server.address()
    server.close(() => resolve(typeof address === "object" && address !== null ? address.port : 1))
  })
})

layer(
  ReliabilityApp({ REDIS_URL: `redis://127.0.0.1:${closedPort}/0`, DASTYAR_RATE_LIMIT_PER_MINUTE: "3" }),
  { excludeTestServices: true, timeout: 120_000 }
)("reliability: Redis down", (it) => {
  it.effect("the rate limiter fails open: every request answered promptly, none 5xx, none limited", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const statuses: Array<number> = []
      let slowest = 0
      // More than the limit of 3: with the store down nothing is counted, so none is refused.
      for (let i = 0; i < 10; i++) {
        const started = performance.now()
        const reply = yield* call("GET", `/v1/assistants/${assistantId}/products`, { token: key }).pipe(
          Effect.timeout("10 seconds")
        )
        slowest = Math.max(slowest, performance.now() - started)
        statuses.push(reply.status)
        expect(reply.headers["x-ratelimit-limit"]).toBeUndefined()
      }
      yield* report("redis-down", {
        requests: statuses.length,
        failures: statuses.filter((s) => s !== 200).length,
        slowestMs: slowest.toFixed(0)
      })
      expect(statuses).toEqual(Array.from({ length: 10 }, () => 200))
      expect(slowest).toBeLessThan(5_000)
    }))
})
