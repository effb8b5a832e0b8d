/**
 * The compiled server (`dist/js/main.js`, built before the suite) as a
 * deployment sees it: every request sent while it starts gets an answer
 * (refused connection before the socket exists, `503 service.not_ready` with
 * `Retry-After` until the app is served, then 200), and SIGTERM cuts no
 * request in flight, exits 0, and hands an ingest job back so the next
 * instance finishes it at once instead of after the queue lease (30 s).
 * Needs a shared Postgres (`DATABASE_URL`) for the second instance.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { serverNodeFlags } from "../../src/Platform/NodeFlags"
import { freshPostgresDatabase } from "../../src/Testing"
import { adminCallAt, transcriptionServer, voiceJobInFlight, waitForJob } from "../Documents/support"
import { freePort } from "../support/Ports"
import { adminToken, pick, pickString, TestApp } from "../support/TestApp"

const baseUrl = process.env.DATABASE_URL
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

type Answer =
  | { readonly kind: "status"; readonly status: number; readonly body: unknown; readonly retryAfter: string | null }
  | { readonly kind: "refused" }
  | { readonly kind: "other"; readonly error: string }

/** One request with a generous timeout: a hang shows as `other`, never as a pass. */
const probe = async (url: string, init: RequestInit = {}): Promise<Answer> => {
  try {
    const response = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) })
    const body: unknown = await response.json()
    return { kind: "status", status: response.status, body, retryAfter: response.headers.get("retry-after") }
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause : undefined
    if (cause !== undefined && "code" in cause && cause.code === "ECONNREFUSED") return { kind: "refused" }
    return { kind: "other", error: String(cause ?? error) }
  }
}

const startServer = (port: number, env: Record<string, string>) =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const child = spawn(process.execPath, [...serverNodeFlags, "dist/js/main.js"], {
        cwd: serverDir,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: "127.0.0.1",
          DASTYAR_ADMIN_TOKEN: adminToken,
          DASTYAR_SEED_DEMO: "false",
          DASTYAR_LOG_LEVEL: "Error",
          // The request streams below send hundreds of calls with one key.
          DASTYAR_RATE_LIMIT_PER_MINUTE: "1000000",
          ...env
        },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let output = ""
      child.stdout.on("data", (data: Buffer) => (output = (output + data.toString("utf8")).slice(-4000)))
      child.stderr.on("data", (data: Buffer) => (output = (output + data.toString("utf8")).slice(-4000)))
      return { child, output: () => output }
    }),
    ({ child }) => Effect.sync(() => child.kill("SIGKILL"))
  )

const exited = (child: ChildProcess) =>
  Effect.async<number | null>((resume) => {
    if (child.exitCode !== null || child.signalCode !== null) resume(Effect.succeed(child.exitCode))
    else child.once("exit", (code) => resume(Effect.succeed(code)))
  })

/** Probes `/health` every 50 ms from the first moment until it answers 200. */
const probeUntilUp = (base: string) =>
  Effect.promise(async () => {
    const answers: Array<Answer> = []
    const deadline = Date.now() + 180_000
    while (Date.now() < deadline) {
      const answer = await probe(`${base}/health`)
      answers.push(answer)
      if (answer.kind === "status" && answer.status === 200) break
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
    return answers
  })

describe("compiled server start and stop", () => {
  it("`pnpm start` runs the server with its production node flags (Platform/NodeFlags.ts)", () => {
    const startScript = (packageJson: string) => {
      const parsed: unknown = JSON.parse(fs.readFileSync(packageJson, "utf8"))
      const scripts: unknown = typeof parsed === "object" && parsed !== null
        ? Reflect.get(parsed, "scripts")
        : undefined
      const start: unknown = typeof scripts === "object" && scripts !== null ? Reflect.get(scripts, "start") : undefined
      return String(start)
    }
    for (const packageJson of [path.join(serverDir, "package.json"), path.join(serverDir, "../../package.json")]) {
      const start = startScript(packageJson)
      expect(start).toMatch(new RegExp(`node ${serverNodeFlags.join(" ")} (packages/server/)?dist/js/main\\.js`))
    }
  })

  it.live.skipIf(baseUrl === undefined)(
    "answers every request during start; SIGTERM cuts no request and exits 0",
    () =>
      Effect.gen(function*() {
        const db = yield* freshPostgresDatabase(baseUrl ?? "")
        const port = yield* Effect.promise(freePort)
        const base = `http://127.0.0.1:${port}`
        const server = yield* startServer(port, { DATABASE_URL: db.url })

        const answers = yield* probeUntilUp(base)
        expect(answers.filter((a) => a.kind === "other"), server.output()).toEqual([])
        for (const answer of answers) {
          if (answer.kind !== "status" || answer.status === 200) continue
          expect(answer.status).toBe(503)
          expect(answer.retryAfter).toBe("1")
          expect(pick(answer.body, "response", "code")).toBe("service.not_ready")
        }
        expect(answers.at(-1)).toMatchObject({ kind: "status", status: 200 })

        const accountId = pickString(yield* adminCallAt(base, "POST", "/accounts", { name: "Stop" }), "data", "id")
        const key = pickString(
          yield* adminCallAt(base, "POST", `/accounts/${accountId}/keys`, { name: "k" }),
          "data",
          "key"
        )

        // Four clients request without pause; SIGTERM lands in the middle of the stream.
        let stopping = false
        let answered = 0
        const client = async () => {
          const seen: Array<Answer> = []
          while (!stopping || seen.length < 5) {
            const answer = await probe(`${base}/v1/assistants`, { headers: { authorization: `Bearer ${key}` } })
            seen.push(answer)
            if (answer.kind === "status" && answer.status === 200) answered++
            if (answer.kind === "refused") break
          }
          return seen
        }
        const clients = Promise.all([client(), client(), client(), client()])
        // The stream is under way once every client has been answered a few times.
        while (answered < 20) yield* Effect.sleep("20 millis")
        stopping = true
        server.child.kill("SIGTERM")
        const code = yield* exited(server.child)
        const seen = (yield* Effect.promise(() => clients)).flat()
        expect(code, server.output()).toBe(0)
        expect(seen.filter((a) => a.kind === "status" && a.status === 200).length).toBeGreaterThan(0)
        // Each request is answered (200, or 503 while the app is withdrawn) or refused before it is sent; none is cut.
        expect(seen.filter((a) => a.kind === "other" || (a.kind === "status" && a.status !== 200 && a.status !== 503)))
          .toEqual([])
      }).pipe(Effect.scoped),
    { timeout: 300_000 }
  )

  it.live.skipIf(baseUrl === undefined)(
    "SIGTERM during an ingest job: the next instance takes it at once",
    () =>
      Effect.gen(function*() {
        const db = yield* freshPostgresDatabase(baseUrl ?? "")
        const { state: provider } = yield* transcriptionServer
        provider.hang = true
        const port = yield* Effect.promise(freePort)
        const base = `http://127.0.0.1:${port}`
        const server = yield* startServer(port, { DATABASE_URL: db.url, DASTYAR_TRANSCRIPTION_BASE_URL: provider.url })
        const answers = yield* probeUntilUp(base)
        expect(answers.at(-1), server.output()).toMatchObject({ kind: "status", status: 200 })

        // The worker is inside the job (waiting on the provider) when the server is told to stop.
        const { assistantId, jobId, key } = yield* voiceJobInFlight(base, provider)
        expect(provider.requests.length).toBeGreaterThan(0)
        server.child.kill("SIGTERM")
        expect(yield* exited(server.child), server.output()).toBe(0)
        // No queue element is left leased by the stopped instance.
        const leased = yield* Effect.promise(async () => {
          const client = new pg.Client({ connectionString: db.url })
          await client.connect()
          const { rows } = await client.query(
            "SELECT count(*)::int AS n FROM dastyar_queue WHERE acquired_by IS NOT NULL"
          )
          await client.end()
          return pick(rows, 0, "n")
        })
        expect(leased).toBe(0)

        // The lease was handed back: the next instance finishes well before the 30 s lease would expire.
        provider.hang = false
        const finished = yield* waitForJob(key, assistantId, jobId, 25_000).pipe(
          Effect.provide(
            TestApp({ DATABASE_URL: db.url, DASTYAR_TRANSCRIPTION_BASE_URL: provider.url }).pipe(Layer.orDie)
          )
        )
        expect(finished).toMatchObject({ status: "ready", errorMessage: null })
      }).pipe(Effect.scoped),
    { timeout: 300_000 }
  )
})
