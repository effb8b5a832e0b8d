/**
 * The service under test for the catalog benchmark: the compiled server (`packages/server/dist/js/main.js`)
 * in a child process (its own event loop, its own indexer, as in production)
 * on a fresh Postgres database, or on embedded PGlite in a temporary data
 * directory; a JSON client for its API; cleanup that runs once, whatever happens.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as http from "node:http"
import { createRequire } from "node:module"
import * as net from "node:net"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import * as zlib from "node:zlib"
import type PgModule from "pg"
import { serverNodeFlags } from "../../../packages/server/src/Platform/NodeFlags"

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..")
// pnpm does not hoist `pg` to the root: load the server package's own copy, the driver the service runs.
export const pg: typeof PgModule = createRequire(path.join(repoRoot, "packages/server/package.json"))("pg")

const host = "127.0.0.1"
const requestTimeoutMs = 120_000

/**
 * The bench's HTTP client: `node:http` on kept-alive connections, asking for
 * compressed bodies as `fetch` and browsers do (the service's compression
 * stays in what is measured). The client shares the machine's cores with the
 * service and Postgres, and Node's `fetch` spends several times the CPU per
 * request of this client, which then shows in the service's measured tail.
 */
const agent = new http.Agent({ keepAlive: true })

const decoded = (body: Buffer, encoding: string | undefined): Buffer =>
  encoding === "br"
    ? zlib.brotliDecompressSync(body)
    : encoding === "gzip"
    ? zlib.gunzipSync(body)
    : encoding === "deflate"
    ? zlib.inflateSync(body)
    : body

const send = (url: string, method: string, headers: Record<string, string>, body: string | undefined) =>
  new Promise<{ readonly status: number; readonly text: string }>((resolve, reject) => {
    const request = http.request(url, {
      method,
      agent,
      timeout: requestTimeoutMs,
      headers: {
        ...headers,
        "accept-encoding": "gzip, deflate, br",
        ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) })
      }
    }, (response) => {
      const chunks: Array<Buffer> = []
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("error", reject)
      response.on("end", () => {
        try {
          const text = decoded(Buffer.concat(chunks), response.headers["content-encoding"]).toString("utf8")
          resolve({ status: response.statusCode ?? 0, text })
        } catch (error) {
          reject(error)
        }
      })
    })
    request.on("timeout", () => request.destroy(new Error(`no answer within ${requestTimeoutMs} ms`)))
    request.on("error", reject)
    request.end(body)
  })

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Cleanup steps, last registered first, run once on success, failure or signal. */
const cleanups: Array<{ readonly what: string; readonly run: () => Promise<unknown> }> = []
let cleaningUp: Promise<void> | undefined
export const onCleanup = (what: string, run: () => Promise<unknown>) => {
  cleanups.push({ what, run })
}
export const cleanUp = () => {
  cleaningUp ??= (async () => {
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

export interface Reply {
  readonly status: number
  readonly text: string
  readonly json: unknown
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** A nested field of parsed JSON: `field(reply.json, "data", "list")`. */
export const field = (value: unknown, ...keys: ReadonlyArray<string>): unknown =>
  keys.reduce<unknown>((current, key) => (isRecord(current) ? current[key] : undefined), value)

export const stringField = (value: unknown, ...keys: ReadonlyArray<string>): string => {
  const found = field(value, ...keys)
  if (typeof found !== "string") throw new Error(`no string at ${keys.join(".")} in ${JSON.stringify(value)}`)
  return found
}

export const listField = (value: unknown): ReadonlyArray<unknown> => {
  const list = field(value, "data", "list")
  if (!Array.isArray(list)) throw new Error(`no data.list in ${JSON.stringify(value).slice(0, 500)}`)
  return list
}

export interface Service {
  readonly baseUrl: string
  readonly adminToken: string
  /** The service's own database, for the SQL steps (null on PGlite, which only the service can open). */
  readonly databaseUrl: string | null
  readonly postgresVersion: string | null
  readonly pid: number | undefined
  /** The service's event-loop delay and GC pauses since the previous call (see eventLoopProbe.mjs). */
  readonly probe: () => Promise<ProbeFigures>
  /** One API call; fails on a transport error, returns any HTTP status. */
  readonly call: (method: string, pathname: string, token: string, body?: unknown) => Promise<Reply>
  /** One API call that must answer `status`. */
  readonly expect: (status: number, method: string, pathname: string, token: string, body?: unknown) => Promise<unknown>
}

/** What eventLoopProbe.mjs reports for a stretch of the service's life. */
export interface ProbeFigures {
  readonly loop: { readonly p50: number; readonly p99: number; readonly max: number; readonly mean: number }
  readonly gc: {
    readonly count: number
    readonly totalMs: number
    readonly maxMs: number
    readonly major: number
    readonly majorMs: number
  }
  readonly cpuMs: number
  readonly heapUsedMb: number
  readonly uptimeS: number
  /** The statements the service sent in the stretch (each a round trip), most frequent first. */
  readonly statements?: ReadonlyArray<{
    readonly text: string
    readonly count: number
    readonly texts: number
    /** Send to callback, over the statement's calls with a callback (the service's are). */
    readonly ms?: { readonly p50: number; readonly p99: number; readonly max: number }
  }>
}

const isProbeFigures = (value: unknown): value is ProbeFigures & { readonly seq: number } =>
  typeof field(value, "seq") === "number" && typeof field(value, "loop", "p99") === "number" &&
  typeof field(value, "gc", "totalMs") === "number" && typeof field(value, "cpuMs") === "number"

/** Asks the service's probe for its figures (SIGUSR2) and waits until it has written them. */
const readProbe = (pid: number, file: string) => {
  let seq = 0
  return async (): Promise<ProbeFigures> => {
    process.kill(pid, "SIGUSR2")
    const deadline = performance.now() + 10_000
    for (;;) {
      const figures: unknown = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : undefined
      if (isProbeFigures(figures) && figures.seq > seq) {
        seq = figures.seq
        return figures
      }
      if (performance.now() > deadline) throw new Error("the service's event-loop probe did not answer in 10 s")
      await sleep(10)
    }
  }
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

const stopChild = async (child: ChildProcess) => {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  child.kill("SIGTERM")
  if (!(await Promise.race([exited.then(() => true), sleep(10_000).then(() => false)]))) {
    child.kill("SIGKILL")
    await exited
  }
}

/** A fresh database on the server of `baseUrl`, dropped at cleanup. */
const freshDatabase = async (baseUrl: string, prefix: string) => {
  const admin = new pg.Client({ connectionString: baseUrl })
  await admin.connect()
  onCleanup("close the admin connection", () => admin.end())
  const version = (await admin.query<{ server_version: string }>("SHOW server_version")).rows[0]?.server_version ?? "?"
  const name = `${prefix}_${Date.now()}_${process.pid}`
  await admin.query(`CREATE DATABASE ${pg.escapeIdentifier(name)}`)
  // DASTYAR_BENCH_KEEP_DATABASE=1 keeps it, to look at the plans afterwards (drop it by hand).
  if (process.env.DASTYAR_BENCH_KEEP_DATABASE === "1") console.error(`[bench] keeping database ${name}`)
  else {
    onCleanup(
      `drop database ${name}`,
      () => admin.query(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`)
    )
  }
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return { url: url.toString(), version }
}

/**
 * Starts the service with the offline embedder (the default the targets are
 * stated for), a rate limit it never reaches, and logs at Warn (indexer
 * failures stay visible in the tail shown on failure).
 */
export const startService = async (
  databaseBaseUrl: string | undefined,
  databasePrefix = "dastyar_bench_catalog"
): Promise<Service> => {
  const adminToken = `bench_${randomBytes(24).toString("base64url")}`
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-bench-catalog-"))
  onCleanup("remove the data dir", async () => fs.rmSync(dataDir, { recursive: true, force: true }))
  const database = databaseBaseUrl === undefined ? null : await freshDatabase(databaseBaseUrl, databasePrefix)
  const port = await freePort()
  const env: Record<string, string | undefined> = { ...process.env }
  for (const name of Object.keys(env)) if (name.startsWith("DASTYAR_EMBEDDINGS_")) delete env[name]
  delete env.DATABASE_URL
  // DASTYAR_BENCH_NODE_ARGS adds flags for the service's node (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
  const nodeArgs = (process.env.DASTYAR_BENCH_NODE_ARGS ?? "").split(" ").filter((arg) => arg !== "")
  // The compiled server, as `pnpm start` runs it (built first when its sources changed).
  execFileSync(process.execPath, [path.join(repoRoot, "scripts/build.mjs"), "--if-needed"], { stdio: "inherit" })
  const probeFile = path.join(dataDir, "event-loop-probe.json")
  const probeModule = pathToFileURL(path.join(repoRoot, "scripts/bench/catalog/eventLoopProbe.mjs")).href
  const child = spawn(process.execPath, [
    ...serverNodeFlags,
    ...nodeArgs,
    "--import",
    probeModule,
    "packages/server/dist/js/main.js"
  ], {
    cwd: repoRoot,
    env: {
      ...env,
      DASTYAR_BENCH_PROBE_FILE: probeFile,
      ...(database === null ? {} : { DATABASE_URL: database.url }),
      PORT: String(port),
      DASTYAR_DATA_DIR: dataDir,
      DASTYAR_ADMIN_TOKEN: adminToken,
      DASTYAR_RATE_LIMIT_PER_MINUTE: "100000000",
      DASTYAR_LOG_LEVEL: "Warn",
      DASTYAR_SEED_DEMO: "false",
      DASTYAR_DB_POOL_SIZE: "10"
    },
    stdio: ["ignore", "pipe", "pipe"]
  })
  const tail: Array<string> = []
  const keep = (chunk: Buffer) => {
    tail.push(...chunk.toString("utf8").split("\n").filter((line) => line.trim() !== ""))
    tail.splice(0, Math.max(0, tail.length - 40))
  }
  child.stdout?.on("data", keep)
  child.stderr?.on("data", keep)
  // DASTYAR_BENCH_SERVICE_LOG=<file> keeps all of the service's output (e.g. with --trace-gc in the node args).
  const log = process.env.DASTYAR_BENCH_SERVICE_LOG
  if (log !== undefined && log !== "") {
    const file = fs.createWriteStream(log)
    child.stdout?.pipe(file, { end: false })
    child.stderr?.pipe(file, { end: false })
  }
  onCleanup("stop the service", () => stopChild(child))
  onCleanup("close the client's connections", async () => agent.destroy())
  const describeExit = () =>
    `the service exited (code ${child.exitCode}, signal ${child.signalCode}). Last output:\n  ${tail.join("\n  ")}`

  const baseUrl = `http://${host}:${port}`
  const call = async (method: string, pathname: string, token: string, body?: unknown): Promise<Reply> => {
    const { status, text } = await send(
      `${baseUrl}${pathname}`,
      method,
      {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      body === undefined ? undefined : JSON.stringify(body)
    ).catch((error: unknown) => {
      throw child.exitCode === null ? error : new Error(describeExit())
    })
    let json: unknown = undefined
    try {
      json = JSON.parse(text)
    } catch {
      // Left undefined: `expect` reports the raw text.
    }
    return { status, text, json }
  }
  const expect = async (status: number, method: string, pathname: string, token: string, body?: unknown) => {
    const reply = await call(method, pathname, token, body)
    if (reply.status !== status) {
      throw new Error(
        `${method} ${pathname}: expected HTTP ${status}, got ${reply.status}: ${reply.text.slice(0, 500)}`
      )
    }
    return reply.json
  }

  const deadline = performance.now() + 180_000
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(describeExit())
    const status = await fetch(`${baseUrl}/ready`, { signal: AbortSignal.timeout(2_000) })
      .then(async (response) => {
        await response.arrayBuffer()
        return response.status
      })
      .catch(() => 0)
    if (status === 200) break
    if (performance.now() > deadline) throw new Error(`the service was not ready after 180 s. ${describeExit()}`)
    await sleep(200)
  }
  return {
    baseUrl,
    adminToken,
    databaseUrl: database?.url ?? null,
    postgresVersion: database?.version ?? null,
    pid: child.pid,
    probe: readProbe(child.pid ?? 0, probeFile),
    call,
    expect
  }
}

export interface Shop {
  readonly accountId: string
  readonly key: string
  readonly assistantIds: ReadonlyArray<string>
}

/** An account on `plan` with a key and `assistants` active assistants, made through the operator API. */
export const createShop = async (service: Service, name: string, plan: string, assistants = 1): Promise<Shop> => {
  const admin = (status: number, method: string, pathname: string, body?: unknown) =>
    service.expect(status, method, `/admin/v1${pathname}`, service.adminToken, body)
  const accountId = stringField(await admin(201, "POST", "/accounts", { name, plan }), "data", "id")
  const key = stringField(await admin(201, "POST", `/accounts/${accountId}/keys`, { name: "bench" }), "data", "key")
  const assistantIds: Array<string> = []
  for (let i = 0; i < assistants; i++) {
    const created = await admin(201, "POST", `/accounts/${accountId}/assistants`, { name: `${name} ${i + 1}` })
    assistantIds.push(stringField(created, "data", "id"))
  }
  // Provisioning runs in the background; products need an active assistant.
  for (const assistantId of assistantIds) {
    const deadline = performance.now() + 60_000
    while (stringField(await admin(200, "GET", `/assistants/${assistantId}`), "data", "status") === "provisioning") {
      if (performance.now() > deadline) throw new Error(`assistant ${assistantId} still provisioning after 60 s`)
      await sleep(100)
    }
  }
  return { accountId, key, assistantIds }
}

/**
 * Runs a benchmark's `main`, then cleans up whatever it started: also on SIGINT/SIGTERM and past `deadlineMinutes`,
 * so an interrupted run leaves no server or database behind. Exits 0 when `main` finished, else 1 (130 on a signal).
 */
export const runBench = (main: () => Promise<void>, deadlineMinutes: number) => {
  const run = async () => {
    let code = 1
    try {
      await main()
      code = 0
    } catch (error) {
      console.error("[bench] FAILED:", error instanceof Error ? error.message : error)
    } finally {
      await cleanUp()
    }
    process.exit(code)
  }
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    process.once(signal, () => {
      console.error(`[bench] ${signal}: cleaning up…`)
      void cleanUp().finally(() => process.exit(130))
    })
  }
  setTimeout(() => {
    console.error(`[bench] FAILED: overall deadline (${deadlineMinutes} min) passed; cleaning up…`)
    void cleanUp().finally(() => process.exit(1))
  }, deadlineMinutes * 60_000).unref()
  void run()
}
