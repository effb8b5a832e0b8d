/**
 * `pnpm bench:start`: start time (spawn → `/health` answers 200) and idle RSS
 * of the compiled server (`pnpm build`), in embedded mode (first start on an
 * empty data directory: migrations and demo seed; then a restart) and on
 * Postgres when `DATABASE_URL` is set (fresh database, then already migrated),
 * beside the same start from TypeScript sources through tsx as the baseline.
 * Then the memory each heavy part costs when loaded (`process.memoryUsage().rss`
 * before and after importing it in a fresh process).
 */
import { execFileSync, spawn } from "node:child_process"
import { randomBytes } from "node:crypto"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { serverNodeFlags } from "../../packages/server/src/Platform/NodeFlags"
import { freePort, freshDatabase } from "./Harness"

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const serverDir = path.join(root, "packages/server")

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

const rssKb = (pid: number): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
}

interface Measured {
  readonly startMs: number
  readonly idleRssMb: number
}

/** `env` values override the inherited ones; `undefined` removes one (embedded mode has no `DATABASE_URL`). */
const measure = async (args: ReadonlyArray<string>, env: Record<string, string | undefined>): Promise<Measured> => {
  const port = await freePort()
  const started = performance.now()
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DASTYAR_LOG_LEVEL: "Warn",
    ...env
  }
  for (const [name, value] of Object.entries(childEnv)) if (value === undefined) delete childEnv[name]
  const child = spawn(process.execPath, [...args], {
    cwd: serverDir,
    env: childEnv,
    stdio: ["ignore", "ignore", "inherit"]
  })
  const exited = new Promise((resolve) => child.once("exit", resolve))
  try {
    for (;;) {
      const status = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5000) }).then(
        (response) => response.status,
        () => 0
      )
      if (status === 200) break
      if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`)
      await sleep(20)
    }
    const startMs = performance.now() - started
    // Idle: background workers have run their first passes.
    await sleep(3000)
    return { startMs, idleRssMb: rssKb(child.pid ?? 0) / 1024 }
  } finally {
    child.kill("SIGTERM")
    await exited
  }
}

const compiled = [...serverNodeFlags, "dist/js/main.js"]
const fromSources = [...serverNodeFlags, "--import", "tsx", "src/main.ts"]

const row = (label: string, service: Measured, baseline: Measured) =>
  console.log(
    `| ${label} | ${Math.round(service.startMs)} ms | ${service.idleRssMb.toFixed(0)} MB | ${
      Math.round(baseline.startMs)
    } ms | ${baseline.idleRssMb.toFixed(0)} MB |`
  )

const main = async () => {
  execFileSync(process.execPath, [path.join(root, "scripts/build.mjs"), "--if-needed"], { stdio: "inherit" })
  console.log(`\nload average ${os.loadavg().map((n) => n.toFixed(1)).join(" ")} on ${os.cpus().length} cores\n`)
  console.log("| start | compiled: time to /health | idle RSS | tsx from sources (baseline): time | idle RSS |")
  console.log("|---|---|---|---|---|")

  const embedded = async (args: ReadonlyArray<string>) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-bench-start-"))
    const env = { DASTYAR_DATA_DIR: dataDir, DATABASE_URL: undefined }
    try {
      return { first: await measure(args, env), again: await measure(args, env) }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true })
    }
  }
  const embeddedService = await embedded(compiled)
  const embeddedBaseline = await embedded(fromSources)
  row("embedded, first start (migrate + demo seed)", embeddedService.first, embeddedBaseline.first)
  row("embedded, restart", embeddedService.again, embeddedBaseline.again)

  const baseUrl = process.env.DATABASE_URL
  if (baseUrl) {
    const postgres = async (args: ReadonlyArray<string>) => {
      const db = await freshDatabase(baseUrl, "dastyar_bench_start")
      const env = { DATABASE_URL: db.url, DASTYAR_ADMIN_TOKEN: `bench_${randomBytes(24).toString("base64url")}` }
      try {
        return { first: await measure(args, env), again: await measure(args, env) }
      } finally {
        await db.drop()
      }
    }
    const service = await postgres(compiled)
    const baseline = await postgres(fromSources)
    row("Postgres, fresh database", service.first, baseline.first)
    row("Postgres, already migrated", service.again, baseline.again)
  } else {
    console.log("| Postgres | set DATABASE_URL to measure | | | |")
  }

  // What each heavy part costs once loaded, in a fresh process each.
  const parts: ReadonlyArray<readonly [string, string]> = [
    ["OCR (tesseract.js)", "tesseract.js"],
    ["PDF (unpdf / pdf.js)", "unpdf"],
    ["Word .docx (mammoth)", "mammoth"],
    ["Word .doc (word-extractor)", "word-extractor"],
    ["markdown rendering (marked + sanitize-html)", "marked,sanitize-html"],
    ["OpenTelemetry SDK + OTLP exporter", "@effect/opentelemetry/NodeSdk,@opentelemetry/exporter-trace-otlp-http"],
    ["embedded Postgres (PGlite + pgvector)", "@electric-sql/pglite,@electric-sql/pglite-pgvector"]
  ]
  console.log("\n| part | RSS when loaded |")
  console.log("|---|---|")
  for (const [label, modules] of parts) {
    const script = `const before = process.memoryUsage().rss
for (const m of ${JSON.stringify(modules.split(","))}) await import(m)
globalThis.gc?.()
console.log(Math.round((process.memoryUsage().rss - before) / 1048576))`
    const mb = execFileSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
      cwd: serverDir,
      encoding: "utf8"
    }).trim()
    console.log(`| ${label} | +${mb} MB |`)
  }
}

await main()
