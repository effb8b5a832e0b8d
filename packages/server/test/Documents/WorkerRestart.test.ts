/**
 * A server killed (SIGKILL) while it processes a job: a second instance on the
 * same database takes the job again once the dead worker's lease expires and
 * finishes it. Needs a shared Postgres (`DATABASE_URL`); embedded PGlite is one process.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { spawn } from "node:child_process"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { freshPostgresDatabase } from "../../src/Testing"
import { freePort } from "../support/Ports"
import { adminToken, pick, TestApp } from "../support/TestApp"
import { transcriptionServer, voiceJobInFlight, waitForJob } from "./support"

const baseUrl = process.env.DATABASE_URL
const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

/** A database of its own on the server of `DATABASE_URL`, shared by the killed server and its successor. */
const database = Effect.suspend(() => freshPostgresDatabase(baseUrl ?? ""))

const json = async (response: Response): Promise<unknown> => response.json()

describe("ingest after a worker was killed", () => {
  it.live.skipIf(baseUrl === undefined)(
    "the job is taken again after the lease expires and finishes",
    () =>
      Effect.gen(function*() {
        const db = yield* database
        const { state: provider } = yield* transcriptionServer
        provider.hang = true
        const port = yield* Effect.promise(freePort)
        const child = spawn(process.execPath, ["--import", "tsx", "src/main.ts"], {
          cwd: serverDir,
          env: {
            ...process.env,
            PORT: String(port),
            DATABASE_URL: db.url,
            DASTYAR_ADMIN_TOKEN: adminToken,
            DASTYAR_SEED_DEMO: "false",
            DASTYAR_LOG_LEVEL: "Error",
            DASTYAR_TRANSCRIPTION_BASE_URL: provider.url
          },
          stdio: ["ignore", "pipe", "pipe"]
        })
        // Kept for the failure message: why the child never became ready, if it did not.
        let childOutput = ""
        child.stdout.on("data", (data: Buffer) => (childOutput = (childOutput + data.toString("utf8")).slice(-4000)))
        child.stderr.on("data", (data: Buffer) => (childOutput = (childOutput + data.toString("utf8")).slice(-4000)))
        yield* Effect.addFinalizer(() => Effect.sync(() => child.kill("SIGKILL")))
        const base = `http://127.0.0.1:${port}`
        // The child starts (compiling the app, migrating) within two minutes, even on a busy machine.
        let ready = false
        for (let i = 0; i < 240 && !ready; i++) {
          ready = yield* Effect.promise(() =>
            fetch(`${base}/ready`, { signal: AbortSignal.timeout(5000) }).then((r) => r.ok, () => false)
          )

          if (!ready) yield* Effect.sleep("250 millis")
        }
        expect(ready, childOutput).toBe(true)
        // The child's worker is inside the job (waiting on the provider) when it is killed.
        const { assistantId, jobId, key } = yield* voiceJobInFlight(base, provider)
        expect(provider.requests.length).toBeGreaterThan(0)
        const during = yield* Effect.promise(() =>
          fetch(`${base}/v1/assistants/${assistantId}/documents/jobs/${jobId}`, {
            headers: { authorization: `Bearer ${key}` }
          }).then(json)
        )
        expect(pick(during, "data", "status")).toBe("processing")
        child.kill("SIGKILL")
        yield* Effect.async<void>((resume) => {
          if (child.exitCode !== null || child.signalCode !== null) resume(Effect.void)
          else child.once("exit", () => resume(Effect.void))
        })

        // A second instance on the same database, with a provider that answers now.
        provider.hang = false
        const finished = yield* waitForJob(key, assistantId, jobId, 90_000).pipe(
          Effect.provide(
            TestApp({ DATABASE_URL: db.url, DASTYAR_TRANSCRIPTION_BASE_URL: provider.url }).pipe(Layer.orDie)
          )
        )
        expect(finished).toMatchObject({ status: "ready", errorMessage: null })
      }).pipe(Effect.scoped),
    { timeout: 300_000 }
  )
})
