/**
 * `pnpm bench:preauth`: what unauthenticated requests with big bodies cost the
 * compiled server (`pnpm build`). Ten and a hundred concurrent 9.8 MB JSON
 * bodies of `[0,0,…]`, sent at once with no credential, to an unknown path
 * (`POST /v1/nowhere`) and to a keyed route (`POST …/documents/text`); for each,
 * the server's idle RSS before, its peak RSS during (the kernel's high-water
 * mark, reset before each round), the answers and the time to the last one.
 *
 * Bounded: a round stops at 60 s, and a server whose RSS passes `--cap-mb`
 * (default 3072) is killed (reported as over the cap) and restarted for the next
 * round, so a server that does not hold cannot take the machine down with it. Each round has a server of its own.
 * Uses `DATABASE_URL` (a fresh database, dropped after) when set, else embedded mode.
 */
import { execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import { setMaxListeners } from "node:events"
import * as fs from "node:fs"
import * as http from "node:http"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { serverNodeFlags } from "../../packages/server/src/Platform/NodeFlags"
import { freePort, freshDatabase } from "./Harness"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const serverDir = path.join(root, "packages/server")

const capArgument = process.argv.find((arg) => arg.startsWith("--cap-mb="))
const capMb = capArgument === undefined ? 3072 : Number(capArgument.slice("--cap-mb=".length))
const roundTimeoutMs = 60_000

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const statusMb = (pid: number, field: "VmRSS" | "VmHWM"): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024
}

/** Resets the kernel's peak-RSS mark of the process, so `VmHWM` is the peak of what follows. */
const resetPeak = (pid: number) => fs.writeFileSync(`/proc/${pid}/clear_refs`, "5")

interface Server {
  readonly pid: number
  readonly port: number
  readonly stop: () => Promise<void>
}

const startServer = async (env: Record<string, string | undefined>): Promise<Server> => {
  const port = await freePort()
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DASTYAR_LOG_LEVEL: "Error",
    DASTYAR_SEED_DEMO: "false",
    ...env
  }
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name]
  const child = spawn(process.execPath, [...serverNodeFlags, "dist/js/main.js"], {
    cwd: serverDir,
    env: childEnv,
    stdio: ["ignore", "ignore", "inherit"]
  })
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL")
    await exited
  }
  const deadline = Date.now() + 120_000
  for (;;) {
    const status = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5000) }).then(
      (response) => response.status,
      () => 0
    )
    if (status === 200) break
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop()
      throw new Error(`the server did not start (exit ${child.exitCode})`)
    }
    await sleep(50)
  }
  // Idle: background workers have run their first passes.
  await sleep(3000)
  return { pid: child.pid ?? 0, port, stop }
}

/** One POST of `body` with no credential on a connection of its own: the status, or the socket error. */
const post = (port: number, target: string, body: Buffer, deadline: AbortSignal) =>
  new Promise<string>((resolve) => {
    const request = http.request({
      host: "127.0.0.1",
      port,
      path: target,
      method: "POST",
      agent: false,
      signal: deadline,
      headers: { "content-type": "application/json", "content-length": String(body.length) }
    }, (response) => {
      response.resume()
      response.on("end", () => resolve(String(response.statusCode)))
    })
    request.on("error", (error: NodeJS.ErrnoException) =>
      resolve(deadline.aborted ? "timeout" : error.code ?? error.message))
    request.end(body)
  })

interface Round {
  readonly idleMb: number
  readonly peakMb: number
  readonly overCap: boolean
  readonly answers: string
  readonly seconds: number
}

const round = async (server: Server, target: string, concurrency: number, body: Buffer): Promise<Round> => {
  const idleMb = statusMb(server.pid, "VmRSS")
  resetPeak(server.pid)
  let overCap = false
  const watch = setInterval(() => {
    if (!overCap && statusMb(server.pid, "VmRSS") > capMb) {
      overCap = true
      void server.stop()
    }
  }, 20)
  const started = performance.now()
  const deadline = AbortSignal.timeout(roundTimeoutMs)
  setMaxListeners(concurrency + 10, deadline)
  const answers = await Promise.all(
    Array.from({ length: concurrency }, () => post(server.port, target, body, deadline))
  )
  const seconds = (performance.now() - started) / 1000
  clearInterval(watch)
  const peakMb = overCap ? capMb : statusMb(server.pid, "VmHWM")
  const counts = new Map<string, number>()
  for (const answer of answers) counts.set(answer, (counts.get(answer) ?? 0) + 1)
  return {
    idleMb,
    peakMb,
    overCap,
    answers: Array.from(counts, ([answer, n]) => `${n}× ${answer}`).join(", "),
    seconds
  }
}

const main = async () => {
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs"), "--if-needed"], { stdio: "inherit" })
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-bench-preauth-"))
  const baseUrl = process.env.DATABASE_URL
  const database = baseUrl === undefined ? undefined : await freshDatabase(baseUrl, "dastyar_bench_preauth")
  const env = {
    DATABASE_URL: database?.url,
    DASTYAR_DATA_DIR: dataDir,
    DASTYAR_ADMIN_TOKEN: `bench_${randomBytes(24).toString("base64url")}`
  }
  // 9.8 MB of `[0,0,…]`: under the 10 MB cap on JSON bodies, one array element per two bytes.
  const elements = 4_900_000
  const body = Buffer.from(`[${"0,".repeat(elements - 1)}0]`)
  const targets: ReadonlyArray<readonly [string, string]> = [
    ["unknown path", "/v1/nowhere"],
    ["keyed route, no key", `/v1/assistants/${"0".repeat(32)}/documents/text`]
  ]
  console.log(`\nload average ${os.loadavg().map((n) => n.toFixed(1)).join(" ")} on ${os.cpus().length} cores`)
  console.log(
    `${(body.length / 1e6).toFixed(1)} MB bodies; RSS cap ${capMb} MB; ${baseUrl ? "Postgres" : "embedded"}\n`
  )
  console.log("| target | concurrent | idle RSS | peak RSS | peak − idle | answers | time |")
  console.log("|---|---|---|---|---|---|---|")
  try {
    for (const [label, target] of targets) {
      for (const concurrency of [10, 100]) {
        // A fresh server per round: each starts from idle, and one killed at the cap harms no other round.
        const server = await startServer(env)
        try {
          const result = await round(server, target, concurrency, body)
          const peak = result.overCap ? `> ${capMb} MB (killed)` : `${result.peakMb.toFixed(0)} MB`
          const growth = result.overCap ?
            `> ${(capMb - result.idleMb).toFixed(0)} MB` :
            `${(result.peakMb - result.idleMb).toFixed(0)} MB`
          console.log(
            `| ${label} \`POST ${target.length > 24 ? `${target.slice(0, 24)}…` : target}\` | ${concurrency} | ${
              result.idleMb.toFixed(0)
            } MB | ${peak} | ${growth} | ${result.answers} | ${result.seconds.toFixed(1)} s |`
          )
        } finally {
          await server.stop()
        }
      }
    }
  } finally {
    await database?.drop()
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

await main()
