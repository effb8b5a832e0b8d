import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { clientAddressOf } from "../../src/Platform/ClientAddress"
import { call, pick, TestApp } from "../support/TestApp"

const get = (path: string, forwardedFor?: string) =>
  call("GET", path, forwardedFor === undefined ? {} : { headers: { "x-forwarded-for": forwardedFor } })

describe("client address", () => {
  it("is the socket address unless proxies are trusted, then the address the outermost trusted proxy saw", () => {
    expect(clientAddressOf("::ffff:10.0.0.2", "6.6.6.6", 0)).toBe("10.0.0.2")
    expect(clientAddressOf("10.0.0.2", undefined, 1)).toBe("10.0.0.2")
    expect(clientAddressOf("10.0.0.2", "1.2.3.4", 1)).toBe("1.2.3.4")
    // A client's own X-Forwarded-For entry sits left of what the proxy appended.
    expect(clientAddressOf("10.0.0.2", "6.6.6.6, 1.2.3.4", 1)).toBe("1.2.3.4")
    expect(clientAddressOf("10.0.0.3", "6.6.6.6, 1.2.3.4, 10.0.0.2", 2)).toBe("1.2.3.4")
    // More hops trusted than present: the furthest address known.
    expect(clientAddressOf("10.0.0.2", "1.2.3.4", 5)).toBe("1.2.3.4")
  })
})

layer(TestApp({ DASTYAR_CONTENT_RATE_LIMIT_PER_MINUTE: "3" }), { excludeTestServices: true })(
  "content rate limit, no trusted proxy",
  (it) => {
    it.effect("one count per socket address for all content routes; X-Forwarded-For is ignored", () =>
      Effect.gen(function*() {
        const replies = [
          yield* get("/v1/content/blog/articles", "1.1.1.1"),
          yield* get("/v1/content/slugs", "2.2.2.2"),
          yield* get("/v1/content/guides/categories", "3.3.3.3")
        ]
        expect(replies.map((r) => r.status)).toEqual([200, 200, 200])
        expect(replies.map((r) => r.headers["x-ratelimit-limit"])).toEqual(["3", "3", "3"])
        expect(replies.map((r) => r.headers["x-ratelimit-remaining"])).toEqual(["2", "1", "0"])
        const limited = yield* get("/v1/content/blog/articles/x", "4.4.4.4")
        expect(limited.status).toBe(429)
        expect(limited.headers["retry-after"]).toBe("60")
        expect(pick(limited.json, "response")).toEqual({
          status: "bad_request",
          message: "ThrottlerException: Too Many Requests"
        })
        // The key-protected API has its own limits.
        expect((yield* call("GET", "/v1/assistants", { token: "nope" })).status).toBe(401)
      }))
  }
)

layer(TestApp({ DASTYAR_CONTENT_RATE_LIMIT_PER_MINUTE: "3", DASTYAR_TRUST_PROXY: "1" }), { excludeTestServices: true })(
  "content rate limit behind one trusted proxy",
  (it) => {
    it.effect("counts per forwarded client address", () =>
      Effect.gen(function*() {
        const first = yield* Effect.forEach([1, 2, 3], () => get("/v1/content/slugs", "1.1.1.1"))
        expect(first.map((r) => r.status)).toEqual([200, 200, 200])
        expect((yield* get("/v1/content/slugs", "1.1.1.1")).status).toBe(429)
        // A client cannot escape by prepending its own entry: the proxy's is what counts.
        expect((yield* get("/v1/content/slugs", "9.9.9.9, 1.1.1.1")).status).toBe(429)
        const other = yield* get("/v1/content/slugs", "2.2.2.2")
        expect(other.status).toBe(200)
        expect(other.headers["x-ratelimit-remaining"]).toBe("2")
      }))
  }
)
