/**
 * With `REDIS_URL`, instances share one exact count: two servers on the same
 * database and Redis together admit only the limit, not twice it.
 * Skipped where no Redis answers on 127.0.0.1:6379 (`.ci/run` starts one).
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as net from "node:net"
import { TestApp } from "../../src/Testing"
import { admin, pickString } from "../support/TestApp"

const redisUrl = process.env.REDIS_URL ?? "redis://127.0.0.1:6379/15"

const redisAnswers = await new Promise<boolean>((resolve) => {
  const { hostname, port } = new URL(redisUrl)
  const socket = net.connect({ host: hostname, port: Number(port || 6379) })
  socket.setTimeout(500)
  socket.once("connect", () => (socket.end(), resolve(true)))
  socket.once("error", () => resolve(false))
  socket.once("timeout", () => (socket.destroy(), resolve(false)))
})

/** One `GET /v1/assistants` through an instance's client. */
const statusFrom = (client: HttpClient.HttpClient, key: string) =>
  client.execute(HttpClientRequest.get("/v1/assistants").pipe(HttpClientRequest.bearerToken(key))).pipe(
    Effect.map((response) => response.status),
    Effect.scoped
  )

describe.skipIf(!redisAnswers)("rate limit shared through Redis", () => {
  it.live("instances admit the limit once between them", () =>
    Effect.gen(function*() {
      const env = { REDIS_URL: redisUrl, DASTYAR_RATE_LIMIT_PER_MINUTE: "4" }
      const first = yield* Layer.build(TestApp(env))
      const clientA = yield* HttpClient.HttpClient.pipe(Effect.provide(first))
      const account = yield* admin("POST", "/accounts", { name: "Shared" }).pipe(Effect.provide(first))
      const accountId = pickString(account.json, "data", "id")
      const key = yield* admin("POST", `/accounts/${accountId}/keys`, {}).pipe(Effect.provide(first))
      const rawKey = pickString(key.json, "data", "key")

      const baseUrl = process.env.DATABASE_URL
      if (baseUrl === undefined) {
        // An embedded database cannot be shared by two instances; one instance still counts in Redis.
        const statuses = yield* Effect.forEach([1, 2, 3, 4, 5], () => statusFrom(clientA, rawKey))
        expect(statuses).toEqual([200, 200, 200, 200, 429])
        return
      }
      // Instance B: its own server and Redis connection, on instance A's database.
      const sql = yield* SqlClient.SqlClient.pipe(Effect.provide(first))
      const [database] = yield* sql<{ readonly name: string }>`SELECT current_database() AS name`
      const shared = new URL(baseUrl)
      shared.pathname = `/${database?.name ?? ""}`
      const second = yield* Layer.build(TestApp({ ...env, DATABASE_URL: shared.toString() }))
      const clientB = yield* HttpClient.HttpClient.pipe(Effect.provide(second))
      const statuses = yield* Effect.forEach(
        [clientA, clientB, clientA, clientB, clientA, clientB],
        (client) => statusFrom(client, rawKey)
      )
      expect(statuses).toEqual([200, 200, 200, 200, 429, 429])
    }).pipe(Effect.scoped), 120_000)
})
