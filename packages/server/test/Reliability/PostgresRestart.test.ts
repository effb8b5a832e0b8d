/**
 * Postgres stopped and started again under load. The test runs its own
 * Postgres instance (initdb into a temporary directory, its own port), so
 * stopping it disturbs nothing else on the machine; `pg_ctl stop -m
 * immediate` is a crash as the server sees it. While the database is down
 * `/ready` answers 503 and `/health` 200, and every request is answered
 * (none cut or hung) with 503 `service.not_ready` where it needs the database;
 * once it is back, `/ready` returns to 200 by itself and no request answers 5xx. Skipped where the Postgres
 * binaries (`initdb`, `pg_ctl`) are not installed.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { freePort } from "../support/Ports"
import { adminToken } from "../support/TestApp"
import { kill, startServer } from "./ChildServer"
import { report } from "./Fixture"

const binDir = ["/usr/lib/postgresql/17/bin", "/usr/lib/postgresql/16/bin", "/usr/lib/postgresql/15/bin"].find((dir) =>
  fs.existsSync(path.join(dir, "initdb"))
)

/** Postgres refuses to run as root: there it runs as the `postgres` user. */
const asPostgres = (command: string, args: ReadonlyArray<string>) => {
  const root = process.getuid?.() === 0
  execFileSync(root ? "runuser" : command, root ? ["-u", "postgres", "--", command, ...args] : [...args], {
    stdio: "pipe",
    timeout: 120_000
  })
}

const privatePostgres = Effect.acquireRelease(
  Effect.promise(async () => {
    const bin = binDir ?? ""
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-pg-"))
    if (process.getuid?.() === 0) execFileSync("chown", ["postgres", dir])
    const port = await freePort()
    asPostgres(path.join(bin, "initdb"), ["-D", path.join(dir, "data"), "-U", "postgres", "--auth=trust", "-E", "UTF8"])
    const pgCtl = (...args: ReadonlyArray<string>) =>
      asPostgres(path.join(bin, "pg_ctl"), ["-D", path.join(dir, "data"), "-w", "-t", "60", ...args])
    const start = () =>
      pgCtl(
        "-o",
        `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
        "-l",
        path.join(dir, "log"),
        "start"
      )
    start()
    return {
      dir,
      url: `postgres://postgres@127.0.0.1:${port}/postgres`,
      start,
      stop: () => pgCtl("-m", "immediate", "stop")
    }
  }),
  ({ dir, stop }) =>
    Effect.sync(() => {
      try {
        stop()
      } catch {
        // Already stopped.
      }
      fs.rmSync(dir, { recursive: true, force: true })
    })
)

const status = (url: string, init: RequestInit = {}) =>
  fetch(url, { ...init, signal: AbortSignal.timeout(15_000) }).then(
    async (response) => ({ status: response.status, body: await response.text() }),
    (error: unknown) => ({ status: 0, body: String(error) })
  )

describe("reliability: Postgres restart", () => {
  it.live.skipIf(binDir === undefined)(
    "/ready is 503 while Postgres is down and 200 again after; no 5xx once it is back",
    () =>
      Effect.gen(function*() {
        const postgres = yield* privatePostgres
        const server = yield* Effect.acquireRelease(
          startServer({ env: { DATABASE_URL: postgres.url }, databaseUrl: postgres.url }),
          kill
        )
        const base = server.base
        const admin = { authorization: `Bearer ${adminToken}`, "content-type": "application/json" }
        const created = yield* Effect.promise(() =>
          status(`${base}/admin/v1/accounts`, { method: "POST", headers: admin, body: JSON.stringify({ name: "R" }) })
        )
        const accountId = String(JSON.parse(created.body).data.id)
        const keyReply = yield* Effect.promise(() =>
          status(`${base}/admin/v1/accounts/${accountId}/keys`, {
            method: "POST",
            headers: admin,
            body: JSON.stringify({ name: "k" })
          })
        )
        const key = String(JSON.parse(keyReply.body).data.key)
        const api = { authorization: `Bearer ${key}` }

        // Load through the whole run: what each answer was, by phase.
        const phase = { value: "before" as "before" | "down" | "after" }
        const seen: Record<string, Array<number>> = { before: [], down: [], after: [] }
        const running = { value: true }
        const load = Promise.all(Array.from({ length: 3 }, async () => {
          while (running.value) {
            const answer = await status(`${base}/v1/assistants`, { headers: api })
            seen[phase.value]?.push(answer.status)
            if (phase.value === "down") await new Promise((resolve) => setTimeout(resolve, 50))
          }
        }))
        yield* Effect.sleep("1 second")

        phase.value = "down"
        postgres.stop()
        const downStarted = Date.now()
        let ready = yield* Effect.promise(() => status(`${base}/ready`))
        while (ready.status !== 503 && Date.now() - downStarted < 30_000) {
          yield* Effect.sleep("100 millis")
          ready = yield* Effect.promise(() => status(`${base}/ready`))
        }
        const readyDownMs = Date.now() - downStarted
        const health = yield* Effect.promise(() => status(`${base}/health`))
        yield* Effect.sleep("2 seconds")

        postgres.start()
        const upStarted = Date.now()
        let back = yield* Effect.promise(() => status(`${base}/ready`))
        while (back.status !== 200 && Date.now() - upStarted < 60_000) {
          yield* Effect.sleep("100 millis")
          back = yield* Effect.promise(() => status(`${base}/ready`))
        }
        const readyUpMs = Date.now() - upStarted
        phase.value = "after"
        yield* Effect.sleep("3 seconds")
        running.value = false
        yield* Effect.promise(() => load)

        const count = (statuses: ReadonlyArray<number>) =>
          [...new Set(statuses)].sort().map((s) => `${s}:${statuses.filter((x) => x === s).length}`).join(",")
        yield* report("postgres-restart", {
          requests: seen.before.length + seen.down.length + seen.after.length,
          failures: [...(seen.down ?? []), ...(seen.after ?? [])].filter((s) => (s >= 500 && s !== 503) || s === 0)
            .length,
          readyDownMs,
          readyUpMs,
          before: count(seen.before ?? []),
          down: count(seen.down ?? []),
          after: count(seen.after ?? [])
        })
        expect(ready.status).toBe(503)
        expect(health.status).toBe(200)
        expect(back.status).toBe(200)
        expect((seen.after ?? []).filter((s) => s !== 200)).toEqual([])
        // While down, API requests that need the database answer 503 service.not_ready (retry), never 500 or nothing.
        expect((seen.down ?? []).filter((s) => s !== 200 && s !== 503)).toEqual([])
      }).pipe(Effect.scoped),
    300_000
  )
})
