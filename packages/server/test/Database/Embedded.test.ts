import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { spawn, spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { EmbeddedDatabaseInUse, layerPglite } from "../../src/Database/Database"

describe("embedded database", () => {
  it.scoped("gives the event loop a turn between statements, so a backlog of queries cannot starve I/O", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql`SELECT 1`
      // Counts turns of the event loop (each turn is where sockets are accepted and read) while 40 queries run.
      let turns = 0
      let counting = true
      const count = () => {
        if (!counting) return
        turns++
        setImmediate(count)
      }
      setImmediate(count)
      yield* Effect.all(Array.from({ length: 40 }, (_, index) => sql`SELECT ${index}::int AS n`), {
        concurrency: "unbounded"
      })
      counting = false
      expect(turns).toBeGreaterThanOrEqual(40)
    }).pipe(Effect.provide(layerPglite(undefined))))
})

describe("embedded data directory lock", () => {
  const dataDir = () => path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-lock-")), "pgdata")
  const opened = (dir: string) =>
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`SELECT 1 AS one`).pipe(Effect.provide(layerPglite(dir)))

  it.scoped("a second open of a directory in use fails with EmbeddedDatabaseInUse naming the holder", () =>
    Effect.gen(function*() {
      const dir = dataDir()
      const holder = spawn("sleep", ["60"])
      yield* Effect.addFinalizer(() => Effect.sync(() => holder.kill()))
      fs.mkdirSync(path.dirname(dir), { recursive: true })
      fs.writeFileSync(`${dir}.lock`, `${holder.pid}`)
      const error = yield* Effect.flip(opened(dir))
      expect(error).toBeInstanceOf(EmbeddedDatabaseInUse)
      expect(error.message).toContain(`pid ${holder.pid}`)
    }))

  it.scoped("a lock left by a process that is gone is taken over, and released at close", () =>
    Effect.gen(function*() {
      const dir = dataDir()
      const gone = spawnSync("true").pid
      fs.mkdirSync(path.dirname(dir), { recursive: true })
      fs.writeFileSync(`${dir}.lock`, `${gone}`)
      yield* Effect.scoped(Effect.gen(function*() {
        const sql = Context.get(yield* Layer.build(layerPglite(dir)), SqlClient.SqlClient)
        yield* sql`SELECT 1 AS one`
        expect(fs.readFileSync(`${dir}.lock`, "utf8")).toBe(`${process.pid}`)
        // Held by this process: opening it again in the same process is refused too.
        expect(yield* Effect.flip(opened(dir))).toBeInstanceOf(EmbeddedDatabaseInUse)
      }))
      expect(fs.existsSync(`${dir}.lock`)).toBe(false)
    }), 60_000)
})
