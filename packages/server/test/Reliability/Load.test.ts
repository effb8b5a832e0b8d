/**
 * Load: 64 concurrent clients for `RELIABILITY_LOAD_SECONDS` (CI: 5; the long
 * run: 60) on product search, product list with `q`, chat and text uploads,
 * against the compiled server in its own process as it is started in
 * production (no `--enable-source-maps`), on Postgres when `DATABASE_URL` is
 * set and always on embedded PGlite. The check is zero errors (every answer a
 * 2xx, no reset). Figures, not asserted (client, server and database share the
 * cores): p50/p99 per route and the server's RSS idle, after a warm-up of the
 * same mix (`RELIABILITY_LOAD_WARMUP_SECONDS`), after each load round
 * (`RELIABILITY_LOAD_ROUNDS`: a second round that grows again would be a leak)
 * and once the uploads' ingest jobs have settled. `RELIABILITY_LOAD_NODE_ARGS`
 * passes node flags to the server (e.g. `--heapsnapshot-signal=SIGUSR2`).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type * as Scope from "effect/Scope"
import * as http from "node:http"
import { embeddedStorage, rssMb, scopedServer, type Storage, storage } from "./ChildServer"
import { report, setting } from "./Fixture"
import { settle, setup } from "./LoadClient"
import { type RawRequest, send } from "./Routes"

const seconds = setting("RELIABILITY_LOAD_SECONDS", 5)
const warmupSeconds = setting("RELIABILITY_LOAD_WARMUP_SECONDS", 2)
const rounds = setting("RELIABILITY_LOAD_ROUNDS", 1)
const concurrency = 64

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

const mb = (value: number) => value.toFixed(0)

const names = ["search", "list", "chat", "upload"]

/** 64 clients on the mix until `durationMs` has passed: requests, errors and latencies per route. */
const drive = (port: number, key: string, assistantId: string, durationMs: number, first: number) =>
  Effect.promise(async () => {
    const base = `/v1/assistants/${assistantId}`
    const json = (method: string, path: string, body?: unknown): RawRequest => ({
      method,
      path,
      headers: {
        authorization: `Bearer ${key}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
      mutation: path
    })
    const mixes: ReadonlyArray<(n: number) => RawRequest> = [
      (n) => json("POST", `${base}/products/search`, { query: ["blue item", "کتاب", "red shoes"][n % 3] }),
      (n) => json("GET", `${base}/products?q=item&limit=${1 + (n % 50)}`),
      (n) => json("POST", `${base}/chat`, { principal: `load-${n % 16}`, message: "Do you have blue items?" }),
      (n) =>
        json("POST", `${base}/documents/text`, {
          filename: `load-${n}.md`,
          content: `# Note ${n}\nShipping takes two days.`
        })
    ]
    const latencies = names.map((): Array<number> => [])
    const errors: Array<string> = []
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
    const deadline = Date.now() + durationMs
    const roundStart = performance.now()
    let counter = first
    const client = async () => {
      while (Date.now() < deadline) {
        const n = counter++
        const kind = n % mixes.length
        const make = mixes[kind]
        if (make === undefined) return
        const startedAt = performance.now()
        const request = make(n)
        const reply = await send(agent, port, request)
        latencies[kind]?.push(performance.now() - startedAt)
        if ("error" in reply) {
          errors.push(
            `${names[kind]}: ${reply.error} sent at ${
              (startedAt - roundStart).toFixed(0)
            } ms ${request.method} ${request.path}`
          )
        } else if (reply.status >= 300) errors.push(`${names[kind]}: ${reply.status} ${reply.body.slice(0, 120)}`)
      }
    }
    await Promise.all(Array.from({ length: concurrency }, client))
    agent.destroy()
    return { requests: counter - first, errors, latencies }
  })

const load = (mode: string, store: Effect.Effect<Storage, never, Scope.Scope>) =>
  Effect.gen(function*() {
    // Started as `pnpm start` starts it: no `--enable-source-maps`, whose decoded map is resident memory.
    const nodeArgs = (process.env.RELIABILITY_LOAD_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "")
    const server = yield* scopedServer(yield* store, {}, nodeArgs)
    const { key, assistantId } = yield* setup(server)
    const figures: Record<string, string | number> = { mode, seconds, concurrency, rssIdleMb: mb(rssMb(server)) }
    const warmup = yield* drive(server.port, key, assistantId, warmupSeconds * 1000, 0)
    figures.rssWarmMb = mb(rssMb(server))
    const errors = [...warmup.errors]
    let requests = 0
    let next = warmup.requests
    for (let round = 1; round <= rounds; round++) {
      const result = yield* drive(server.port, key, assistantId, seconds * 1000, next)
      next += result.requests
      requests += result.requests
      errors.push(...result.errors)
      figures[`rssAfter${rounds > 1 ? `Round${round}` : "Load"}Mb`] = mb(rssMb(server))
      if (round === 1) {
        names.forEach((name, index) => {
          const sorted = [...(result.latencies[index] ?? [])].sort((a, b) => a - b)
          figures[name] = `${sorted.length}req/p50=${percentile(sorted, 0.5).toFixed(0)}ms/p99=${
            percentile(sorted, 0.99).toFixed(0)
          }ms`
        })
      }
    }
    yield* settle(server, key, assistantId)
    figures.rssSettledMb = mb(rssMb(server))
    figures.requests = requests
    figures.warmupRequests = warmup.requests
    figures.failures = errors.length
    yield* report("load", figures)
    for (const error of errors.slice(0, 20)) console.log(`  load failure (${mode}): ${error}`)
    expect(errors.slice(0, 20)).toEqual([])
  })

describe("reliability: load", () => {
  if (process.env.DATABASE_URL) {
    it.scopedLive(
      `Postgres: ${concurrency} clients for ${seconds} s on search, list, chat and uploads: zero errors`,
      () => load("postgres", storage),
      900_000
    )
  }
  it.scopedLive(
    `embedded: ${concurrency} clients for ${seconds} s on search, list, chat and uploads: zero errors`,
    () => load("embedded", embeddedStorage),
    900_000
  )
})
