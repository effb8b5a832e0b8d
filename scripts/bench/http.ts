/**
 * HTTP benchmark: requests/s and latency of an authenticated `GET /v1/assistants`
 * on loopback, for the real service and for a bare `node:http` + `pg` handler
 * doing the same queries on the same rows, and the ratio between the two.
 *
 *   pnpm bench:http [-- --duration 10 --warmup 2 --concurrency 50]
 *
 * Both servers run as child processes (this file, with `--baseline-server`, is
 * the baseline) so neither shares an event loop with the load generator. Each
 * is measured alone, one after the other, on a fresh Postgres database that is
 * dropped at the end. See scripts/bench/README.md.
 */
import { type ChildProcess, execFile, execFileSync, spawn } from "node:child_process"
import { createHash, randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import { createRequire } from "node:module"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { isDeepStrictEqual, parseArgs, promisify } from "node:util"
import type PgModule from "pg"
import type { Pool, QueryResultRow } from "pg"
import { serverNodeFlags } from "../../packages/server/src/Platform/NodeFlags"

const thisFile = fileURLToPath(import.meta.url)
const repoRoot = path.resolve(path.dirname(thisFile), "../..")
// pnpm does not hoist `pg` to the root (only `@types/pg` is there), so load the
// server package's own copy: the baseline then runs the very same driver.
const pg: typeof PgModule = createRequire(path.join(repoRoot, "packages/server/package.json"))("pg")

const host = "127.0.0.1"
/** The service's default `DASTYAR_DB_POOL_SIZE`; passed explicitly so both sides stay equal. */
const poolSize = 10
const assistantsPerAccount = 3
const requestTimeoutMs = 10_000

// ---------------------------------------------------------------------------
// Baseline server (child process role)
// ---------------------------------------------------------------------------

/** Same cheap syntax check as the service, so malformed keys never reach the database. */
const keyShape = /^dsk_[A-Za-z0-9_-]{43}$/

interface KeyOwner extends QueryResultRow {
  readonly key_id: string
  readonly account_id: string
  readonly plan: string
}

interface AssistantDbRow extends QueryResultRow {
  readonly id: string
  readonly name: string
  readonly instruction: string | null
  readonly model: string
  readonly reasoning: string
  readonly status: string
  readonly description: string | null
  readonly personality: string | null
  readonly language: string | null
  readonly identity_settings: unknown
  readonly rag_k: number | null
  readonly max_output_tokens: number | null
  readonly image_detail: string | null
  readonly operators_can_view_customer_files: boolean
  readonly avatar_url: string | null
  readonly accept_voice: boolean
  readonly product_search: boolean
  readonly created_at: Date
}

/** The public assistant shape, field for field as the service encodes it. */
const toAssistant = (row: AssistantDbRow) => ({
  id: row.id,
  name: row.name,
  instruction: row.instruction,
  model: row.model,
  reasoning: row.reasoning,
  status: row.status,
  description: row.description,
  personality: row.personality,
  language: row.language,
  identitySettings: row.identity_settings,
  ragK: row.rag_k,
  maxOutputTokens: row.max_output_tokens,
  imageDetail: row.image_detail,
  operatorsCanViewCustomerFiles: row.operators_can_view_customer_files,
  avatarUrl: row.avatar_url,
  acceptVoice: row.accept_voice,
  productSearch: row.product_search,
  planLimits: null,
  createdAt: row.created_at.toISOString()
})

const invalidKeyBody = JSON.stringify({
  data: null,
  response: { status: "bad_request", message: "Invalid or revoked API key", code: "api_key.invalid" }
})

const send = (res: http.ServerResponse, status: number, body: string) => {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) })
  res.end(body)
}

const listAssistants = async (pool: Pool, authorization: string | undefined): Promise<[number, string]> => {
  const key = authorization?.startsWith("Bearer ") ? authorization.slice("Bearer ".length) : ""
  if (!keyShape.test(key)) return [401, invalidKeyBody]
  const secretHash = createHash("sha256").update(key).digest()
  const owner = await pool.query<KeyOwner>(
    `SELECT k.id AS key_id, k.account_id, a.plan
     FROM api_keys k JOIN accounts a ON a.id = k.account_id
     WHERE k.secret_hash = $1 AND k.revoked_at IS NULL`,
    [secretHash]
  )
  const account = owner.rows[0]
  if (account === undefined) return [401, invalidKeyBody]
  const rows = await pool.query<AssistantDbRow>(
    "SELECT * FROM assistants WHERE account_id = $1 ORDER BY created_at, id",
    [account.account_id]
  )
  const list = rows.rows.map(toAssistant)
  return [
    200,
    JSON.stringify({ data: { list, count: list.length }, response: { status: "success", message: "Success" } })
  ]
}

const runBaselineServer = async () => {
  const port = Number(process.env.PORT)
  const pool = new pg.Pool({ connectionString: process.env.DATABASE_URL, max: poolSize })
  const server = http.createServer((req, res) => {
    const route = `${req.method} ${req.url}`
    const reply = route === "GET /v1/assistants"
      ? listAssistants(pool, req.headers.authorization)
      : route === "GET /ready"
      ? pool.query("SELECT 1").then((): [number, string] => [200, "{\"status\":\"ready\"}"])
      : Promise.resolve<[number, string]>([404, "{}"])
    reply.then(
      ([status, body]) => send(res, status, body),
      (error: unknown) => {
        console.error(error)
        send(res, 500, "{}")
      }
    )
  })
  let stopping = false
  const stop = () => {
    if (stopping) return
    stopping = true
    server.closeAllConnections()
    server.close()
    pool.end().finally(() => process.exit(0))
  }
  process.on("SIGTERM", stop)
  process.on("SIGINT", stop)
  // The IPC channel closes when the bench dies, even by SIGKILL: never outlive it.
  process.on("disconnect", stop)
  server.listen(port, host)
}

// ---------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** `data.<name>` of an envelope, as a string. */
const dataString = (envelope: unknown, name: string): string => {
  const data = isRecord(envelope) ? envelope.data : undefined
  const value = isRecord(data) ? data[name] : undefined
  if (typeof value !== "string") throw new Error(`response has no data.${name}: ${JSON.stringify(envelope)}`)
  return value
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = net.createServer()
    server.on("error", reject)
    server.listen(0, host, () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("no free port"))))
    })
  })

interface JsonResponse {
  readonly status: number
  readonly text: string
  readonly json: unknown
}

/** Setup and checks only (not the measured load): plain fetch is fine here. */
const callJson = async (port: number, method: string, pathname: string, token: string, body?: unknown) => {
  const response = await fetch(`http://${host}:${port}${pathname}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(requestTimeoutMs)
  })
  const text = await response.text()
  let json: unknown = undefined
  try {
    json = JSON.parse(text)
  } catch {
    // Left undefined: callers check the shape and report the raw text.
  }
  const result: JsonResponse = { status: response.status, text, json }
  return result
}

const expectStatus = (response: JsonResponse, status: number, what: string) => {
  if (response.status !== status) {
    throw new Error(`${what}: expected HTTP ${status}, got ${response.status}: ${response.text.slice(0, 500)}`)
  }
  return response.json
}

/** Runs `f` over `items` with at most `limit` calls in flight, keeping order. */
const mapLimit = async <A, B>(items: ReadonlyArray<A>, limit: number, f: (item: A, index: number) => Promise<B>) => {
  const results: Array<B> = []
  let next = 0
  const lane = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await f(items[index], index)
    }
  }
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane))
  return results
}

// ---------------------------------------------------------------------------
// Child processes
// ---------------------------------------------------------------------------

interface Child {
  readonly name: string
  readonly process: ChildProcess
  readonly port: number
  /** The last lines the child wrote, shown when it fails. */
  readonly tail: Array<string>
  readonly exited: Promise<void>
}

const startChild = (name: string, args: ReadonlyArray<string>, port: number, env: Record<string, string>): Child => {
  const child = spawn(process.execPath, [...args], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe", "ipc"]
  })
  const tail: Array<string> = []
  const keep = (chunk: Buffer) => {
    tail.push(...chunk.toString("utf8").split("\n").filter((line) => line.trim() !== ""))
    tail.splice(0, Math.max(0, tail.length - 40))
  }
  child.stdout?.on("data", keep)
  child.stderr?.on("data", keep)
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  return { name, process: child, port, tail, exited }
}

const describeExit = (child: Child) =>
  `${child.name} exited (code ${child.process.exitCode}, signal ${child.process.signalCode}). Last output:\n  ` +
  (child.tail.join("\n  ") || "(none)")

const stopChild = async (child: Child) => {
  if (child.process.exitCode !== null || child.process.signalCode !== null) return
  child.process.kill("SIGTERM")
  const gone = await Promise.race([child.exited.then(() => true), sleep(10_000).then(() => false)])
  if (!gone) {
    console.error(`${child.name} ignored SIGTERM for 10 s; killing it`)
    child.process.kill("SIGKILL")
    await child.exited
  }
}

/** Polls `GET /ready` until it answers 200; fails early if the child dies. */
const waitReady = async (child: Child, timeoutMs: number) => {
  const started = performance.now()
  let dead = false
  void child.exited.then(() => (dead = true))
  while (performance.now() - started < timeoutMs) {
    if (dead) throw new Error(describeExit(child))
    const status = await fetch(`http://${host}:${child.port}/ready`, { signal: AbortSignal.timeout(2_000) })
      .then(async (response) => {
        await response.arrayBuffer()
        return response.status
      })
      .catch(() => 0)
    if (status === 200) return performance.now() - started
    await sleep(200)
  }
  throw new Error(`${child.name} not ready after ${timeoutMs / 1000} s. ${describeExit(child)}`)
}

// ---------------------------------------------------------------------------
// CPU accounting (Linux /proc; "n/a" elsewhere)
// ---------------------------------------------------------------------------

const clockTicks = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100
  } catch {
    return 100
  }
})()

/** user + system CPU seconds a process has used so far (all its threads). */
const processCpuSeconds = (pid: number): number | undefined => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8")
    // Fields after the command name (which may contain spaces) start at field 3.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
    return (Number(fields[11]) + Number(fields[12])) / clockTicks
  } catch {
    return undefined
  }
}

/** Busy CPU seconds of the whole machine so far (all cores), from the first line of /proc/stat. */
const machineBusySeconds = (): number | undefined => {
  try {
    const fields = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]?.trim().split(/\s+/).slice(1).map(Number) ?? []
    // user nice system idle iowait irq softirq steal (guest time is already inside user).
    const busy = fields.slice(0, 8).reduce((sum, value, i) => (i === 3 || i === 4 ? sum : sum + value), 0)
    return fields.length >= 8 ? busy / clockTicks : undefined
  } catch {
    return undefined
  }
}

type CpuSnapshot = ReadonlyMap<number, number>

const cpuSnapshot = (pids: ReadonlyArray<number>): CpuSnapshot => {
  const snapshot = new Map<number, number>()
  for (const pid of pids) {
    const seconds = processCpuSeconds(pid)
    if (seconds !== undefined) snapshot.set(pid, seconds)
  }
  return snapshot
}

/** CPU seconds used between two snapshots; undefined when /proc was unreadable. */
const cpuBetween = (before: CpuSnapshot, after: CpuSnapshot): number | undefined => {
  if (after.size === 0) return undefined
  let total = 0
  for (const [pid, seconds] of after) total += seconds - (before.get(pid) ?? 0)
  return total
}

// ---------------------------------------------------------------------------
// Load generator
// ---------------------------------------------------------------------------

interface Options {
  readonly durationS: number
  readonly warmupS: number
  readonly concurrency: number
  readonly maxRequests: number
  readonly serviceNodeArgs: ReadonlyArray<string>
  readonly serviceOnly: boolean
}

interface PhaseResult {
  readonly label: string
  readonly ok: number
  readonly elapsedS: number
  readonly latenciesMs: Float64Array
  readonly errors: number
  readonly warmupErrors: number
  readonly errorKinds: ReadonlyMap<string, number>
  readonly cpu: {
    readonly server: number | undefined
    readonly postgres: number | undefined
    readonly loadgen: number | undefined
    /** Everything else on the machine: other people's processes, the kernel. */
    readonly other: number | undefined
  }
  /** The phase stopped at `--max-requests` before its duration. */
  readonly capped: boolean
}

/** Aborted on cleanup, so a server being stopped is not kept busy by the load. */
const loadAbort = new AbortController()

const getAssistants = (agent: http.Agent, port: number, authorization: string) =>
  new Promise<number>((resolve, reject) => {
    const request = http.request(
      { host, port, path: "/v1/assistants", method: "GET", agent, headers: { authorization } },
      (response) => {
        response.on("error", reject)
        response.on("end", () => resolve(response.statusCode ?? 0))
        response.resume()
      }
    )
    request.setTimeout(requestTimeoutMs, () => request.destroy(new Error(`no response within ${requestTimeoutMs} ms`)))
    request.on("error", reject)
    request.end()
  })

/**
 * One warm-up plus one measured phase against `port`: `concurrency` workers,
 * one key each, each sending its next request as soon as the last one ends.
 * Only requests started inside the measured window count; the phase ends at
 * the duration or at `maxRequests`, whichever comes first.
 */
const runPhase = async (
  label: string,
  port: number,
  keys: ReadonlyArray<string>,
  options: Options,
  cpuPids: () => Promise<{ server: ReadonlyArray<number>; postgres: ReadonlyArray<number> }>
): Promise<PhaseResult> => {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.concurrency })
  // Destroying the agent fails the requests in flight at once.
  const onAbort = () => agent.destroy()
  loadAbort.signal.addEventListener("abort", onAbort)
  const latencies = new Float64Array(options.maxRequests)
  const errorKinds = new Map<string, number>()
  let ok = 0
  let errors = 0
  let warmupErrors = 0
  let lastEnd = 0
  const start = performance.now()
  const measureStart = start + options.warmupS * 1000
  const measureEnd = measureStart + options.durationS * 1000

  const worker = async (key: string) => {
    const authorization = `Bearer ${key}`
    for (;;) {
      const begin = performance.now()
      if (begin >= measureEnd || ok >= options.maxRequests || loadAbort.signal.aborted) return
      let failure: string | undefined
      try {
        const status = await getAssistants(agent, port, authorization)
        if (status !== 200) failure = `HTTP ${status}`
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error)
      }
      const end = performance.now()
      if (begin < measureStart) {
        if (failure !== undefined) warmupErrors++
        continue
      }
      lastEnd = Math.max(lastEnd, end)
      if (failure === undefined) {
        if (ok < latencies.length) latencies[ok++] = end - begin
      } else {
        errors++
        errorKinds.set(failure, (errorKinds.get(failure) ?? 0) + 1)
      }
    }
  }

  // CPU snapshots bracket the measured window, taken from a timer so the
  // workers keep the server busy meanwhile.
  const snapshotAll = async () => {
    const pids = await cpuPids()
    return {
      at: performance.now(),
      machine: machineBusySeconds(),
      server: cpuSnapshot(pids.server),
      postgres: cpuSnapshot(pids.postgres),
      loadgen: process.cpuUsage()
    }
  }
  let before: Awaited<ReturnType<typeof snapshotAll>> | undefined
  const beforeTimer = setTimeout(() => {
    void snapshotAll().then((snapshot) => (before = snapshot))
  }, options.warmupS * 1000)

  console.error(`[bench] ${label}: warm-up ${options.warmupS} s, then measuring ${options.durationS} s…`)
  await Promise.all(keys.map(worker))
  const after = await snapshotAll()
  clearTimeout(beforeTimer)
  loadAbort.signal.removeEventListener("abort", onAbort)
  agent.destroy()

  const elapsedMs = Math.max(lastEnd, measureStart) - measureStart
  // CPU per wall-clock second between the two snapshots (1 = one full core).
  const windowS = before === undefined ? 0 : (after.at - before.at) / 1000
  const share = (seconds: number | undefined) => seconds === undefined || windowS <= 0 ? undefined : seconds / windowS
  const loadgenCpu = before === undefined
    ? undefined
    : (after.loadgen.user + after.loadgen.system - before.loadgen.user - before.loadgen.system) / 1e6
  const server = before === undefined ? undefined : share(cpuBetween(before.server, after.server))
  const postgres = before === undefined ? undefined : share(cpuBetween(before.postgres, after.postgres))
  const loadgen = share(loadgenCpu)
  const machine = before?.machine === undefined || after.machine === undefined
    ? undefined
    : share(after.machine - before.machine)
  const other = machine === undefined || server === undefined || postgres === undefined || loadgen === undefined
    ? undefined
    : Math.max(0, machine - server - postgres - loadgen)
  return {
    label,
    ok,
    elapsedS: elapsedMs / 1000,
    latenciesMs: latencies.subarray(0, ok).sort(),
    errors,
    warmupErrors,
    errorKinds,
    cpu: { server, postgres, loadgen, other },
    capped: ok >= options.maxRequests
  }
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: Float64Array, p: number) =>
  sorted.length === 0
    ? Number.NaN
    : sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]

// ---------------------------------------------------------------------------
// Orchestration
// ---------------------------------------------------------------------------

const parseOptions = (): Options => {
  // `pnpm bench:http -- --duration 5` may pass the `--` through.
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
    options: {
      duration: { type: "string", default: "10" },
      warmup: { type: "string", default: "2" },
      concurrency: { type: "string", default: "50" },
      "max-requests": { type: "string", default: "5000000" },
      // Extra node flags for the service only, e.g. "--cpu-prof --cpu-prof-dir=/some/dir" to profile it under load.
      "service-node-args": { type: "string", default: "" },
      // Measure the service alone (quicker when profiling; no ratio printed).
      "service-only": { type: "boolean", default: false }
    }
  })
  const number = (name: string, raw: string, min: number, max: number) => {
    const value = Number(raw)
    if (!Number.isFinite(value) || value < min || value > max) {
      throw new Error(`--${name} must be a number from ${min} to ${max} (got ${raw})`)
    }
    return value
  }
  return {
    durationS: number("duration", values.duration, 1, 600),
    warmupS: number("warmup", values.warmup, 0, 60),
    concurrency: Math.round(number("concurrency", values.concurrency, 1, 500)),
    maxRequests: Math.round(number("max-requests", values["max-requests"], 1000, 20_000_000)),
    serviceOnly: values["service-only"],
    serviceNodeArgs: values["service-node-args"].split(/\s+/).filter((arg) => arg !== "")
  }
}

const execFileText = promisify(execFile)

/** `DATABASE_URL`, else the local Postgres the repo's setup script prepares (and prints). */
const resolveDatabaseUrl = async () => {
  const fromEnv = process.env.DATABASE_URL
  if (fromEnv !== undefined && fromEnv !== "") return { url: fromEnv, source: "DATABASE_URL" }
  console.error("[bench] DATABASE_URL not set; running scripts/setup-postgres.sh for the local Postgres…")
  try {
    const { stdout } = await execFileText("bash", [path.join(repoRoot, "scripts/setup-postgres.sh")], {
      cwd: repoRoot,
      timeout: 15 * 60_000,
      maxBuffer: 16 * 1024 * 1024
    })
    const line = stdout.trim().split("\n").at(-1) ?? ""
    const match = /^DATABASE_URL=(.+)$/.exec(line)
    if (match?.[1] === undefined) throw new Error(`unexpected output: ${stdout}`)
    return { url: match[1], source: "scripts/setup-postgres.sh" }
  } catch (error) {
    throw new Error(
      `no database: set DATABASE_URL to a Postgres server whose user may CREATE DATABASE (${String(error)})`
    )
  }
}

/** Cleanup steps, run last-registered first, once, on success, failure or signal. */
const cleanups: Array<{ readonly what: string; readonly run: () => Promise<unknown> }> = []
let cleaningUp: Promise<void> | undefined
const cleanUp = () => {
  cleaningUp ??= (async () => {
    loadAbort.abort()
    for (let step = cleanups.pop(); step !== undefined; step = cleanups.pop()) {
      try {
        await step.run()
      } catch (error) {
        console.error(`[bench] cleanup: ${step.what} failed:`, error)
      }
    }
  })()
  return cleaningUp
}

const gitDescription = () => {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim()
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: repoRoot,
      encoding: "utf8"
    }).trim() !== ""
    return dirty ? `${commit} + uncommitted changes` : commit
  } catch {
    return "unknown"
  }
}

const formatMs = (ms: number) => (Number.isNaN(ms) ? "-" : ms.toFixed(2))
const formatCpu = (share: number | undefined) => (share === undefined ? "n/a" : `${Math.round(share * 100)}%`)

const requestsPerSecond = (r: PhaseResult) => r.ok / r.elapsedS

/** Server CPU time per request: unlike req/s, barely moved by other load on the machine. */
const serverCpuPerRequestMs = (r: PhaseResult) =>
  r.cpu.server === undefined || r.ok === 0 ? Number.NaN : (r.cpu.server / requestsPerSecond(r)) * 1000

const printReport = (
  header: ReadonlyArray<readonly [string, string]>,
  results: ReadonlyArray<PhaseResult>,
  checks: ReadonlyArray<string>
) => {
  const lines: Array<string> = []
  lines.push("", "HTTP benchmark: authenticated GET /v1/assistants on loopback", "")
  const width = Math.max(...header.map(([name]) => name.length))
  for (const [name, value] of header) lines.push(`  ${name.padEnd(width)}  ${value}`)
  lines.push("")
  for (const check of checks) lines.push(`  check: ${check}`)
  lines.push("")

  const columns = [
    "server",
    "req/s",
    "p50 ms",
    "p90 ms",
    "p99 ms",
    "max ms",
    "errors",
    "CPU srv",
    "CPU pg",
    "CPU load",
    "CPU other",
    "srv CPU ms/req"
  ]
  const rows = results.map((r) => [
    r.label,
    requestsPerSecond(r).toFixed(0),
    formatMs(percentile(r.latenciesMs, 50)),
    formatMs(percentile(r.latenciesMs, 90)),
    formatMs(percentile(r.latenciesMs, 99)),
    formatMs(r.latenciesMs.length === 0 ? Number.NaN : r.latenciesMs[r.latenciesMs.length - 1]),
    String(r.errors),
    formatCpu(r.cpu.server),
    formatCpu(r.cpu.postgres),
    formatCpu(r.cpu.loadgen),
    formatCpu(r.cpu.other),
    formatMs(serverCpuPerRequestMs(r))
  ])
  const widths = columns.map((column, i) => Math.max(column.length, ...rows.map((row) => row[i].length)))
  const render = (cells: ReadonlyArray<string>) =>
    "  " + cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ")
  lines.push(render(columns))
  lines.push("  " + widths.map((w) => "-".repeat(w)).join("  "))
  for (const row of rows) lines.push(render(row))
  lines.push("")

  const [service, baseline] = results
  if (service !== undefined && baseline !== undefined) {
    const ratio = (a: number, b: number) => (b > 0 && Number.isFinite(a / b) ? `${(a / b).toFixed(2)}x` : "-")
    lines.push("  ratio service / baseline")
    lines.push(`    throughput           ${ratio(requestsPerSecond(service), requestsPerSecond(baseline))}`)
    lines.push(
      `    p50 latency          ${ratio(percentile(service.latenciesMs, 50), percentile(baseline.latenciesMs, 50))}`
    )
    lines.push(
      `    p99 latency          ${ratio(percentile(service.latenciesMs, 99), percentile(baseline.latenciesMs, 99))}`
    )
    lines.push(`    server CPU/request   ${ratio(serverCpuPerRequestMs(service), serverCpuPerRequestMs(baseline))}`)
    lines.push("")
  }

  for (const r of results) {
    if (r.capped) lines.push(`  note: ${r.label} reached --max-requests before the end of its measured phase.`)
  }
  for (const r of results) {
    if (r.errors === 0 && r.warmupErrors === 0) continue
    const kinds = Array.from(r.errorKinds, ([kind, count]) => `${count} x ${kind}`).join(", ")
    lines.push(
      `  !!! ${r.label}: ${r.errors} FAILED REQUESTS in the measured phase` +
        (kinds === "" ? "" : ` (${kinds})`) + `, ${r.warmupErrors} during warm-up.`
    )
    lines.push("  !!! Figures for a server with errors are NOT comparable.")
  }
  console.log(lines.join("\n"))
}

const main = async () => {
  const options = parseOptions()
  const adminToken = `bench_${randomBytes(24).toString("base64url")}`
  const { url: baseUrl, source } = await resolveDatabaseUrl()

  // The server the DATABASE_URL points at: create (and later drop) a fresh database there.
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  cleanups.push({ what: "close the admin connection", run: () => admin.end() })
  const postgresVersion = (await admin.query<{ server_version: string }>("SHOW server_version")).rows[0]?.server_version
  const dbName = `dastyar_bench_${Date.now()}_${process.pid}`
  await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(dbName)}`)
  cleanups.push({
    what: `drop database ${dbName}`,
    run: () => admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(dbName)} WITH (FORCE)`)
  })
  const benchUrl = new URL(baseUrl)
  benchUrl.pathname = `/${dbName}`
  const databaseUrl = benchUrl.toString()
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-bench-"))
  cleanups.push({ what: "remove the data dir", run: async () => fs.rmSync(dataDir, { recursive: true, force: true }) })

  const backendPids = async () =>
    (await admin.query<{ pid: number }>("SELECT pid FROM pg_stat_activity WHERE datname = $1", [dbName])).rows
      .map((row) => row.pid)

  // --- The service: start, seed through the operator API, measure, stop. ---
  // The compiled server, as `pnpm start` runs it.
  execFileSync(process.execPath, [path.join(repoRoot, "scripts/build.mjs"), "--if-needed"], { stdio: "inherit" })
  const service = startChild(
    "service",
    [
      ...serverNodeFlags,
      ...options.serviceNodeArgs,
      "packages/server/dist/js/main.js"
    ],
    await freePort(),
    {
      DATABASE_URL: databaseUrl,
      DASTYAR_ADMIN_TOKEN: adminToken,
      // Counted on every request, as in production, but never reached.
      DASTYAR_RATE_LIMIT_PER_MINUTE: "1000000",
      // One INFO line per request would cost the service more than the request itself.
      DASTYAR_LOG_LEVEL: "Error",
      DASTYAR_SEED_DEMO: "false",
      DASTYAR_DB_POOL_SIZE: String(poolSize),
      DASTYAR_DATA_DIR: dataDir
    }
  )
  cleanups.push({ what: "stop the service", run: () => stopChild(service) })
  console.error("[bench] starting the service (migrating a fresh database)…")
  const serviceStartMs = await waitReady(service, 120_000)

  console.error(`[bench] creating ${options.concurrency} accounts x 1 key x ${assistantsPerAccount} assistants…`)
  const keys = await mapLimit(Array.from({ length: options.concurrency }, (_, i) => i), 8, async (i) => {
    const account = expectStatus(
      await callJson(service.port, "POST", "/admin/v1/accounts", adminToken, { name: `bench-${i}` }),
      201,
      "create account"
    )
    const accountId = dataString(account, "id")
    const key = dataString(
      expectStatus(
        await callJson(service.port, "POST", `/admin/v1/accounts/${accountId}/keys`, adminToken, { name: "bench" }),
        201,
        "create key"
      ),
      "key"
    )
    for (let j = 0; j < assistantsPerAccount; j++) {
      expectStatus(
        await callJson(service.port, "POST", `/admin/v1/accounts/${accountId}/assistants`, adminToken, {
          name: `bench-${i}-${j}`
        }),
        201,
        "create assistant"
      )
    }
    return key
  })

  // Provisioning runs in the background; wait until it is done so the rows
  // (and the work) are the same for both servers and the queue is idle.
  const seeded = new pg.Client({ connectionString: databaseUrl })
  await seeded.connect()
  try {
    const deadline = performance.now() + 60_000
    for (;;) {
      const pending = (await seeded.query<{ n: number }>(
        "SELECT count(*)::int AS n FROM assistants WHERE status <> 'active'"
      )).rows[0]?.n ?? 0
      if (pending === 0) break
      if (performance.now() > deadline) throw new Error(`${pending} assistants still not active after 60 s`)
      await sleep(200)
    }
  } finally {
    await seeded.end()
  }

  // The service's answers are the reference the baseline must reproduce exactly.
  const expected = await mapLimit(keys, 8, async (key) => {
    const response = await callJson(service.port, "GET", "/v1/assistants", key)
    expectStatus(response, 200, "service GET /v1/assistants")
    return response
  })
  const unknownKey = `dsk_${randomBytes(32).toString("base64url")}`
  const serviceUnknown = await callJson(service.port, "GET", "/v1/assistants", unknownKey)
  expectStatus(serviceUnknown, 401, "service GET /v1/assistants with an unknown key")
  const bodyBytes = Buffer.byteLength(expected[0]?.text ?? "")

  const results: Array<PhaseResult> = []
  const servicePid = service.process.pid
  results.push(
    await runPhase("Dastyar service", service.port, keys, options, async () => ({
      server: servicePid === undefined ? [] : [servicePid],
      postgres: await backendPids()
    }))
  )
  await stopChild(service)

  const checks: Array<string> = []
  if (!options.serviceOnly) {
    // --- The baseline: same database and rows, same checks, then the same load. ---
    const baseline = startChild("baseline", ["--import", "tsx", thisFile, "--baseline-server"], await freePort(), {
      DATABASE_URL: databaseUrl
    })
    cleanups.push({ what: "stop the baseline", run: () => stopChild(baseline) })
    await waitReady(baseline, 60_000)
    const mismatches = (await mapLimit(keys, 8, async (key, i) => {
      const response = await callJson(baseline.port, "GET", "/v1/assistants", key)
      return response.status === 200 && isDeepStrictEqual(response.json, expected[i]?.json) ? 0 : 1
    })).reduce((a: number, b) => a + b, 0)
    const baselineUnknown = await callJson(baseline.port, "GET", "/v1/assistants", unknownKey)
    checks.push(
      `baseline body equals the service's for ${keys.length - mismatches} of ${keys.length} keys` +
        (mismatches === 0 ? "" : "  <-- MISMATCH: the two servers do not do the same work"),
      `unknown key: service ${serviceUnknown.status}, baseline ${baselineUnknown.status}` +
        (baselineUnknown.status === 401 && isDeepStrictEqual(baselineUnknown.json, serviceUnknown.json)
          ? " (same body)"
          : "  <-- MISMATCH")
    )
    const baselinePid = baseline.process.pid
    results.push(
      await runPhase("bare node:http + pg", baseline.port, keys, options, async () => ({
        server: baselinePid === undefined ? [] : [baselinePid],
        postgres: await backendPids()
      }))
    )
    await stopChild(baseline)
  }

  const cpu = os.cpus()
  printReport(
    [
      ["node", `${process.version} (${os.platform()} ${os.arch()})`],
      ["cpus", `${cpu.length} x ${cpu[0]?.model.trim() ?? "unknown"}`],
      ["database", `PostgreSQL ${postgresVersion ?? "?"} (from ${source}), fresh database ${dbName}`],
      ["code", `git ${gitDescription()}`],
      ["data", `${keys.length} accounts x 1 key x ${assistantsPerAccount} assistants; ${bodyBytes} B per response`],
      ["load", `${options.concurrency} concurrent clients (one key each), keep-alive, ${host}`],
      ["timing", `${options.warmupS} s warm-up + ${options.durationS} s measured, per server`],
      ["pools", `${poolSize} Postgres connections for each server`],
      [
        "cpu columns",
        `100% = one core busy for the whole measured phase (max ${cpu.length * 100}%); ` +
        "srv = the server process, pg = its Postgres backends, load = this load generator, other = the rest of " +
        "the machine; a large 'other' means someone else's work skewed the run"
      ],
      ["service", `started in ${(serviceStartMs / 1000).toFixed(1)} s; rate limit counted (1e6/min), logs at Error`],
      [
        "note",
        `the load generator, the server and Postgres share the same ${cpu.length} CPUs; the two servers ` +
        "are measured one after the other, never at the same time"
      ]
    ],
    results,
    checks
  )

  const failed = results.some((r) => r.errors > 0 || r.warmupErrors > 0) || checks.some((c) => c.includes("MISMATCH"))
  return failed ? 1 : 0
}

if (process.argv.includes("--baseline-server")) {
  void runBaselineServer()
} else {
  // Whatever happens, the run ends by itself: a global deadline, and cleanup on signals.
  const run = async () => {
    let code = 1
    try {
      code = await main()
    } catch (error) {
      console.error("[bench] FAILED:", error instanceof Error ? error.message : error)
    } finally {
      await cleanUp()
    }
    process.exit(code)
  }
  const signals: ReadonlyArray<NodeJS.Signals> = ["SIGINT", "SIGTERM"]
  for (const signal of signals) {
    process.once(signal, () => {
      console.error(`[bench] ${signal}: cleaning up…`)
      void cleanUp().finally(() => process.exit(130))
    })
  }
  setTimeout(() => {
    console.error("[bench] FAILED: overall deadline passed; cleaning up…")
    void cleanUp().finally(() => process.exit(1))
  }, 30 * 60_000).unref()
  void run()
}
