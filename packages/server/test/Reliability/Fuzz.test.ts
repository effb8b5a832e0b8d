/**
 * Fuzz, generated from the API definition: for every endpoint, requests made
 * from its schemas and then broken (see `Routes`). Every answer must be the
 * envelope with a status under 500 (never a reset or a hang), and a write
 * answered 4xx must leave the stored data as it was.
 *
 * `RELIABILITY_FUZZ_REQUESTS` (CI: 5,000; `pnpm test:reliability`: 100,000)
 * and `RELIABILITY_SEED` choose the run; the failures print with the request
 * that caused them, and the seed replays them.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fc from "effect/FastCheck"
import * as http from "node:http"
import { fingerprint, makeFixture, portOf, ReliabilityApp, report, setting } from "./Fixture"
import { isEnvelope, oversized, type RawRequest, requestArbitrary, routes, send } from "./Routes"

const total = setting("RELIABILITY_FUZZ_REQUESTS", 5_000)
const seed = setting("RELIABILITY_SEED", 14)
/** Every this many requests, one body over the 10 MB cap (alternately chunked). */
const oversizedEvery = 500
const batch = 50

layer(ReliabilityApp(), { excludeTestServices: true, timeout: 3_600_000 })("reliability: fuzz", (it) => {
  it.effect(
    `${total} generated requests: envelope, < 500, no reset, rejected writes change nothing`,
    () =>
      Effect.gen(function*() {
        const port = yield* portOf
        const fixture = yield* makeFixture("fuzz")
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
        const failures: Array<string> = []
        const statuses = new Map<number, number>()
        let sent = 0
        let rejectedWrites = 0
        const started = Date.now()
        let stored = yield* fingerprint
        const writeRoutes = routes.filter((route) =>
          route.method !== "GET" && !route.multipart && route.payload._tag === "Some"
        )
        const pending = new Map<number, Array<RawRequest>>()
        const next = (routeIndex: number, round: number): RawRequest => {
          const queue = pending.get(routeIndex) ?? []
          if (queue.length === 0) {
            const route = routes[routeIndex]
            if (route === undefined) throw new Error("no route")
            queue.push(
              ...fc.sample(requestArbitrary(route, fixture), {
                numRuns: batch,
                seed: seed * 7919 + routeIndex * 131 + round
              })
            )
            pending.set(routeIndex, queue)
          }
          const request = queue.shift()
          if (request === undefined) throw new Error("no request")
          return request
        }
        for (let index = 0; index < total; index++) {
          const routeIndex = index % routes.length
          const big = index % oversizedEvery === oversizedEvery - 1 && writeRoutes.length > 0
          const bigRoute = big ? writeRoutes[(index / oversizedEvery | 0) % writeRoutes.length] : undefined
          const route = bigRoute ?? routes[routeIndex]
          if (route === undefined) throw new Error("no route")
          const request = bigRoute !== undefined
            ? oversized(bigRoute, fixture, (index / oversizedEvery | 0) % 2 === 0)
            : next(routeIndex, Math.floor(index / routes.length / batch))
          const write = request.method !== "GET"
          const reply = yield* Effect.promise(() => send(agent, port, request))
          sent++
          const label = () =>
            `${request.method} ${request.path.slice(0, 2000)} [${request.mutation}] ${
              request.body?.subarray(0, 300).toString("utf8") ?? ""
            }`
          if ("error" in reply) {
            failures.push(`${label()} → ${reply.error}`)
            continue
          }
          statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
          // 431 (headers or URL over Node's 16 KB cap) comes before the app: the compiled server answers it in the
          // envelope (`Http/Serving.ts`, RawSocket.test.ts); this in-process test server is Node's plain one.
          if (reply.status === 431) continue
          if (reply.status >= 500 || reply.status < 200) {
            failures.push(`${label()} → ${reply.status} ${reply.body.slice(0, 200)}`)
          } else if (!isEnvelope(reply, route)) {
            failures.push(`${label()} → ${reply.status} not the envelope: ${reply.body.slice(0, 200)}`)
          }
          // One fingerprint per write: a rejected one must match the last, an accepted one becomes the new baseline.
          if (write) {
            const after = yield* fingerprint
            if (reply.status >= 400) {
              rejectedWrites++
              if (after !== stored) failures.push(`${label()} → ${reply.status} but the stored data changed`)
            }
            stored = after
          }
        }
        agent.destroy()
        const seconds = (Date.now() - started) / 1000
        yield* report("fuzz", {
          routes: routes.length,
          requests: sent,
          failures: failures.length,
          rejectedWrites,
          seed,
          seconds: seconds.toFixed(1),
          statuses: [...statuses].sort(([a], [b]) => a - b).map(([status, count]) => `${status}:${count}`).join(",")
        })
        for (const failure of failures.slice(0, 30)) console.log(`  fuzz failure: ${failure}`)
        expect(failures.slice(0, 30)).toEqual([])
      }),
    3_600_000
  )
})
