import { afterEach, describe, expect, it } from "@effect/vitest"
import { DastyarApiError } from "../src/DastyarApiError"
import { createDastyarClient } from "../src/PromiseClient"
import { retryAfterSeconds } from "../src/RetryAfter"
import { rejectionOf } from "./support/Server"
import { type CannedResponse, startWireServer, successBody, type WireServer } from "./support/WireServer"

/** A 429 as the service sends it: generic envelope, no code, `Retry-After: 60`. */
const tooManyRequests: CannedResponse = {
  status: 429,
  headers: { "retry-after": "60" },
  body: JSON.stringify({
    data: null,
    response: { status: "bad_request", message: "ThrottlerException: Too Many Requests" }
  })
}
const account = { id: "acc_1", name: "Acme", plan: "free", createdAt: "2026-01-01T00:00:00.000Z" }

let server: WireServer | undefined
afterEach(async () => {
  await server?.close()
  server = undefined
})

/** A recording `sleep` that returns at once. */
const recordingSleep = () => {
  const waits: Array<number> = []
  return { waits, sleep: async (milliseconds: number) => void waits.push(milliseconds) }
}

describe("retry on 429", () => {
  it("waits Retry-After seconds, then resends the same request and returns its data", async () => {
    server = await startWireServer([tooManyRequests, { status: 201, body: successBody(account) }])
    const { waits, sleep } = recordingSleep()
    const client = createDastyarClient({ baseUrl: server.url, adminToken: "t", retryOn429: { sleep } })
    expect(await client.admin.createAccount({ name: "Acme" })).toEqual(account)
    expect(waits).toEqual([60_000])
    expect(server.received.map((request) => [request.method, request.url, request.body])).toEqual([
      ["POST", "/admin/v1/accounts", "{\"name\":\"Acme\"}"],
      ["POST", "/admin/v1/accounts", "{\"name\":\"Acme\"}"]
    ])
    expect(server.received[1]?.headers.authorization).toBe("Bearer t")
  })

  it("gives up after maxRetries (default 3) and throws the last 429", async () => {
    server = await startWireServer([tooManyRequests])
    const { waits, sleep } = recordingSleep()
    const client = createDastyarClient({ baseUrl: server.url, apiKey: "k", retryOn429: { sleep } })
    const error = await rejectionOf(client.models.list())
    expect(error).toBeInstanceOf(DastyarApiError)
    expect(error).toMatchObject({ httpStatus: 429, status: "bad_request", code: undefined, retryAfter: 60 })
    expect(waits).toEqual([60_000, 60_000, 60_000])
    expect(server.received).toHaveLength(4)
  })

  it("is off by default: the first 429 is thrown without waiting", async () => {
    server = await startWireServer([tooManyRequests, { status: 200, body: successBody({ list: [], count: 0 }) }])
    const error = await rejectionOf(createDastyarClient({ baseUrl: server.url, apiKey: "k" }).assistants.list())
    expect(error).toMatchObject({ httpStatus: 429, retryAfter: 60 })
    expect(server.received).toHaveLength(1)
  })

  it("retryOn429: true retries with the default sleep", async () => {
    // `Retry-After: 0` keeps the real timer instant.
    const now = { ...tooManyRequests, headers: { "retry-after": "0" } }
    server = await startWireServer([now, now, { status: 200, body: successBody({ list: [], count: 0 }) }])
    const client = createDastyarClient({ baseUrl: server.url, apiKey: "k", retryOn429: true })
    expect(await client.assistants.list()).toEqual({ list: [], count: 0 })
    expect(server.received).toHaveLength(3)
  })
})

describe("Retry-After", () => {
  it("reads delta-seconds and HTTP dates; anything else is absent", () => {
    const now = Date.parse("2026-01-01T00:00:00Z")
    expect(retryAfterSeconds(new Headers({ "retry-after": "60" }), now)).toBe(60)
    expect(retryAfterSeconds(new Headers({ "retry-after": "Thu, 01 Jan 2026 00:00:30 GMT" }), now)).toBe(30)
    expect(retryAfterSeconds(new Headers({ "retry-after": "soon" }), now)).toBeUndefined()
    expect(retryAfterSeconds(new Headers(), now)).toBeUndefined()
  })
})
