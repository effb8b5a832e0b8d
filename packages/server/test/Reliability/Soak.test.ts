/**
 * Soak: a moderate mix (product writes and search, text uploads with their
 * ingest, chat turns on the offline model, the conversation list) against the
 * compiled server for `RELIABILITY_SOAK_SECONDS` (CI: 60; the long run: 1800),
 * of which `RELIABILITY_SOAK_WARMUP_SECONDS` (CI: 20; long: 120) are warm-up,
 * by `RELIABILITY_SOAK_CONCURRENCY` clients (8).
 * Every `RELIABILITY_SOAK_SAMPLE_SECONDS` the clients pause and the server's
 * memory is read after two forced collections: the child runs with
 * `--expose-gc` and a preloaded probe (`--import` of a data URL, nothing in the
 * server's sources) that prints `process.memoryUsage()` on SIGUSR2.
 * *Holds:* no 5xx and no reset, and heapUsed at the end within
 * max(20 %, 30 MB) of heapUsed after warm-up; RSS, noisier (the allocator
 * keeps freed pages), within max(50 %, 150 MB).
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import * as os from "node:os"
import { type ChildServer, scopedServer, storage } from "./ChildServer"
import { report, setting } from "./Fixture"
import { api, setup } from "./LoadClient"
import { type RawRequest, send } from "./Routes"

const seconds = setting("RELIABILITY_SOAK_SECONDS", 60)
const warmupSeconds = setting("RELIABILITY_SOAK_WARMUP_SECONDS", 20)
const sampleSeconds = setting("RELIABILITY_SOAK_SAMPLE_SECONDS", 10)
const concurrency = setting("RELIABILITY_SOAK_CONCURRENCY", 8)

/**
 * Preloaded into the child: memory after two full collections, one JSON line
 * per SIGUSR2; with `RELIABILITY_SOAK_SNAPSHOTS` (a directory) also a heap
 * snapshot there at each sample, to diff what grew.
 */
const probe = `import { writeHeapSnapshot } from "node:v8"
process.on("SIGUSR2", () => { globalThis.gc(); globalThis.gc();
  const usage = JSON.stringify(process.memoryUsage())
  const dir = process.env.RELIABILITY_SOAK_SNAPSHOTS
  if (dir) writeHeapSnapshot(dir + "/soak-" + Date.now() + ".heapsnapshot")
  process.stdout.write("soak-memory " + usage + "\\n") })`

interface Sample {
  readonly at: number
  readonly rssMb: number
  readonly heapMb: number
}

const toMb = (bytes: number) => bytes / 1024 / 1024

/** Signals the probe and resolves with the next line it prints. */
const sample = (server: ChildServer, startedAt: number) =>
  Effect.promise(() =>
    new Promise<Sample>((resolve, reject) => {
      let pending = ""
      const timer = setTimeout(() => {
        server.child.stdout?.off("data", onData)
        reject(new Error(`no memory line within 20 s:\n${server.output()}`))
      }, 20_000)
      const onData = (chunk: Buffer) => {
        pending += chunk.toString("utf8")
        const line = pending.split("\n").find((candidate) => candidate.startsWith("soak-memory "))
        if (line === undefined) return
        clearTimeout(timer)
        server.child.stdout?.off("data", onData)
        const usage: { readonly rss: number; readonly heapUsed: number } = JSON.parse(line.slice(12))
        const at = Math.round((Date.now() - startedAt) / 1000)
        resolve({ at, rssMb: toMb(usage.rss), heapMb: toMb(usage.heapUsed) })
      }
      server.child.stdout?.on("data", onData)
      server.child.kill("SIGUSR2")
    })
  )

const routes = ["productWrite", "search", "upload", "chat", "conversations"] as const

/** `concurrency` clients on the mix until `durationMs` has passed; answers counted by route and status. */
const drive = (
  port: number,
  key: string,
  assistantId: string,
  durationMs: number,
  first: number,
  statuses: Map<string, number>
) =>
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
    // Bounded key sets (products, principals, filenames): what stays should not grow with the run's length.
    const mixes: ReadonlyArray<(n: number) => RawRequest> = [
      (n) => json("PUT", `${base}/products/soak-${n % 300}`, { title: `Soak item ${n % 300} rev ${n}` }),
      (n) => json("POST", `${base}/products/search`, { query: ["blue item", "کتاب", "soak item", `rev ${n}`][n % 4] }),
      (n) =>
        json("POST", `${base}/documents/text`, {
          filename: `soak-${n % 200}.md`,
          content: `# Note ${n}\nShipping takes ${n % 7} days. Returns within ${n % 30} days.`
        }),
      (n) => json("POST", `${base}/chat`, { principal: `soak-${n % 32}`, message: "Do you have blue items?" }),
      (n) => json("GET", `${base}/conversations?limit=${1 + (n % 20)}`)
    ]
    const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency })
    const deadline = Date.now() + durationMs
    let counter = first
    const count = (name: string) => statuses.set(name, (statuses.get(name) ?? 0) + 1)
    const client = async () => {
      while (Date.now() < deadline) {
        const n = counter++
        const kind = n % mixes.length
        const make = mixes[kind]
        if (make === undefined) return
        const reply = await send(agent, port, make(n))
        count(`${routes[kind]}:${"error" in reply ? "reset" : reply.status}`)
      }
    }
    await Promise.all(Array.from({ length: concurrency }, client))
    agent.destroy()
    return counter - first
  })

const soak = Effect.gen(function*() {
  const server = yield* scopedServer(yield* storage, {}, [
    "--expose-gc",
    `--import=data:text/javascript,${encodeURIComponent(probe)}`
  ])
  const { assistantId, key } = yield* setup(server)
  const startedAt = Date.now()
  const statuses = new Map<string, number>()
  const samples: Array<Sample> = [yield* sample(server, startedAt)]
  let requests = 0
  let warm: Sample | undefined
  while (Date.now() - startedAt < seconds * 1000) {
    const left = seconds * 1000 - (Date.now() - startedAt)
    requests += yield* drive(server.port, key, assistantId, Math.min(sampleSeconds * 1000, left), requests, statuses)
    const taken = yield* sample(server, startedAt)
    samples.push(taken)
    if (warm === undefined && taken.at >= warmupSeconds) warm = taken
  }
  const start = samples[0]!
  const end = samples[samples.length - 1]!
  const after = warm ?? end
  const open = (status: string) =>
    Effect.map(
      api(server, "GET", `/v1/assistants/${assistantId}/documents/jobs?status=${status}&limit=1`, key),
      (reply) => reply.count ?? 0
    )
  const jobsOpen = (yield* open("queued")) + (yield* open("processing"))
  const heapBound = Math.max(after.heapMb * 0.2, 30)
  const rssBound = Math.max(after.rssMb * 0.5, 150)
  const failures = [...statuses].filter(([name]) => /:(5\d\d|reset)$/.test(name))
  const f = (value: number) => value.toFixed(0)
  yield* report("soak", {
    seconds,
    warmupSeconds,
    concurrency,
    requests,
    heapStartMb: f(start.heapMb),
    heapWarmMb: f(after.heapMb),
    heapEndMb: f(end.heapMb),
    rssStartMb: f(start.rssMb),
    rssWarmMb: f(after.rssMb),
    rssEndMb: f(end.rssMb),
    heapSeries: samples.map((s) => `${s.at}s:${f(s.heapMb)}`).join(","),
    jobsOpen,
    load: os.loadavg()[0]!.toFixed(1),
    statuses: [...statuses].sort().map(([name, n]) => `${name}=${n}`).join(","),
    failures: failures.reduce((sum, [, n]) => sum + n, 0)
  })
  expect(failures).toEqual([])
  expect(end.heapMb - after.heapMb).toBeLessThanOrEqual(heapBound)
  expect(end.rssMb - after.rssMb).toBeLessThanOrEqual(rssBound)
})

describe("reliability: soak", () => {
  it.scopedLive(
    `${concurrency} clients for ${seconds} s on writes, search, uploads, chat and conversations: heap flat after warm-up`,
    () => soak,
    seconds * 1000 + 300_000
  )
})
