/**
 * Load: 64 concurrent clients for `RELIABILITY_LOAD_SECONDS` (CI: 5; the long
 * run: 60) on product search, product list with `q`, chat and text uploads.
 * The check is zero errors (every answer a 2xx, no reset); p50/p99 and the
 * process RSS before and after are printed as figures, not asserted (the
 * client shares the process and the two cores with the server).
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import { call } from "../support/TestApp"
import { makeFixture, portOf, ReliabilityApp, report, setting } from "./Fixture"
import { type RawRequest, send } from "./Routes"

const seconds = setting("RELIABILITY_LOAD_SECONDS", 5)
const concurrency = 64

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0

layer(ReliabilityApp(), { excludeTestServices: true, timeout: 600_000 })("reliability: load", (it) => {
  it.effect(
    `${concurrency} clients for ${seconds} s on search, list, chat and uploads: zero errors`,
    () =>
      Effect.gen(function*() {
        const port = yield* portOf
        const fixture = yield* makeFixture("load")
        const base = `/v1/assistants/${fixture.assistantId}`
        const products = Array.from({ length: 200 }, (_, index) => ({
          externalId: `load-${index}`,
          title: `${["Blue", "Red", "Green", "کتاب"][index % 4]} item ${index}`,
          category: ["shoes", "books"][index % 2]
        }))
        yield* call("POST", `${base}/products/import`, { token: fixture.key, body: { products } })
        const json = (method: string, path: string, body?: unknown): RawRequest => ({
          method,
          path,
          headers: {
            authorization: `Bearer ${fixture.key}`,
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
        const names = ["search", "list", "chat", "upload"]
        const latencies = names.map((): Array<number> => [])
        const errors: Array<string> = []
        const rssBefore = process.memoryUsage().rss
        const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
        const deadline = Date.now() + seconds * 1000
        let counter = 0
        const client = async () => {
          while (Date.now() < deadline) {
            const n = counter++
            const kind = n % mixes.length
            const make = mixes[kind]
            if (make === undefined) return
            const startedAt = performance.now()
            const reply = await send(agent, port, make(n))
            latencies[kind]?.push(performance.now() - startedAt)
            if ("error" in reply) errors.push(`${names[kind]}: ${reply.error}`)
            else if (reply.status >= 300) errors.push(`${names[kind]}: ${reply.status} ${reply.body.slice(0, 120)}`)
          }
        }
        yield* Effect.promise(() => Promise.all(Array.from({ length: concurrency }, client)))
        agent.destroy()
        const rssAfter = process.memoryUsage().rss
        const figures: Record<string, string | number> = {
          seconds,
          concurrency,
          requests: counter,
          failures: errors.length,
          rssBeforeMb: (rssBefore / 2 ** 20).toFixed(0),
          rssAfterMb: (rssAfter / 2 ** 20).toFixed(0)
        }
        names.forEach((name, index) => {
          const sorted = [...(latencies[index] ?? [])].sort((a, b) => a - b)
          figures[name] = `${sorted.length}req/p50=${percentile(sorted, 0.5).toFixed(0)}ms/p99=${
            percentile(sorted, 0.99).toFixed(0)
          }ms`
        })
        yield* report("load", figures)
        for (const error of errors.slice(0, 20)) console.log(`  load failure: ${error}`)
        expect(errors.slice(0, 20)).toEqual([])
      }),
    600_000
  )
})
