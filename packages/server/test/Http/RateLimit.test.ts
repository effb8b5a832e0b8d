import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { call, pick, setupAccount, TestApp } from "../support/TestApp"

layer(TestApp({ DASTYAR_RATE_LIMIT_PER_MINUTE: "3" }), { excludeTestServices: true })("rate limit", (it) => {
  it.effect("counts per key and per route template; headers on success, Retry-After on 429", () =>
    Effect.gen(function*() {
      const { key } = yield* setupAccount()
      const replies = yield* Effect.forEach([1, 2, 3], () => call("GET", "/v1/assistants", { token: key }))
      expect(replies.map((r) => r.status)).toEqual([200, 200, 200])
      expect(replies.map((r) => r.headers["x-ratelimit-limit"])).toEqual(["3", "3", "3"])
      expect(replies.map((r) => r.headers["x-ratelimit-remaining"])).toEqual(["2", "1", "0"])
      for (const reply of replies) {
        const reset = Number(reply.headers["x-ratelimit-reset"])
        expect(reset).toBeGreaterThanOrEqual(1)
        expect(reset).toBeLessThanOrEqual(60)
      }

      const limited = yield* call("GET", "/v1/assistants", { token: key })
      expect(limited.status).toBe(429)
      expect(limited.headers["retry-after"]).toBe("60")
      expect(limited.headers["x-ratelimit-limit"]).toBeUndefined()
      expect(limited.headers["x-ratelimit-remaining"]).toBeUndefined()
      expect(limited.json).toEqual({
        data: null,
        response: { status: "bad_request", message: "ThrottlerException: Too Many Requests" }
      })

      // Another route has its own count…
      expect((yield* call("GET", "/v1/models", { token: key })).status).toBe(200)
      // …and so has another key.
      const other = yield* setupAccount()
      expect((yield* call("GET", "/v1/assistants", { token: other.key })).status).toBe(200)
    }))

  it.effect("one route template is one count, whatever the assistant in the path", () =>
    Effect.gen(function*() {
      const { key, assistantId } = yield* setupAccount()
      const paths = [assistantId, "unknown-1", "unknown-2"].map((id) => `/v1/assistants/${id}/products`)
      const replies = yield* Effect.forEach(paths, (path) => call("GET", path, { token: key }))
      expect(replies.map((r) => r.status)).toEqual([200, 404, 404])
      // Errors after the limiter still carry the headers.
      expect(replies[2]?.headers["x-ratelimit-remaining"]).toBe("0")
      const limited = yield* call("GET", `/v1/assistants/${assistantId}/products`, { token: key })
      expect(limited.status).toBe(429)
      expect(pick(limited.json, "response", "code")).toBeUndefined()
    }))

  it.effect("an invalid key is refused before it is counted", () =>
    Effect.gen(function*() {
      const replies = yield* Effect.forEach([1, 2, 3, 4, 5], () => call("GET", "/v1/assistants", { token: "nope" }))
      expect(replies.every((r) => r.status === 401)).toBe(true)
    }))
})
