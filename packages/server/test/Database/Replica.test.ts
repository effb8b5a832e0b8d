/**
 * Reads on a streaming replica (Database/Replicas.ts), against a real one
 * started by `scripts/replica.sh` on its own port: search and list pages are
 * served there, a replica behind the bound or stopped is skipped, and no
 * route fails for it. Skipped, saying why, when no replica can be started
 * (no `DATABASE_URL`, or a primary that refuses replication).
 */
import { expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import pg from "pg"
import { Replicas } from "../../src/Database/Replicas"
import { freshPostgresDatabase } from "../../src/Testing"
import { productCall, waitUntilSynced } from "../Products/support"
import { pick, setupAccount, TestApp } from "../support/TestApp"

const script = fileURLToPath(new URL("../../../../scripts/replica.sh", import.meta.url))
const replicaEnv = { ...process.env, REPLICA_PORT: "5434", REPLICA_DIR: "/tmp/dastyar-replica-test-5434" }
const runScript = (command: string) =>
  execFileSync("bash", [script, command], { env: replicaEnv, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] })

/** The replica's base URL, or why there is none. */
const started = ((): { readonly url: string } | { readonly reason: string } => {
  if (process.env.DATABASE_URL === undefined) return { reason: "no DATABASE_URL (the embedded database has no replicas)" }
  try {
    const line = runScript("start").trim().split("\n").at(-1) ?? ""
    return { url: line.replace(/^REPLICA_URL=/, "") }
  } catch (error) {
    return { reason: `scripts/replica.sh start failed: ${error instanceof Error ? error.message : String(error)}` }
  }
})()

if ("reason" in started) {
  it.skip(`read replicas: skipped, ${started.reason}`, () => {})
} else {
  const replicaUrl = started.url
  const app = Layer.unwrapScoped(Effect.gen(function*() {
    const { name, url } = yield* freshPostgresDatabase(process.env.DATABASE_URL ?? "")
    yield* Effect.addFinalizer(() => Effect.sync(() => runScript("remove")))
    return TestApp({
      DATABASE_URL: url,
      DATABASE_REPLICA_URLS: `${replicaUrl}${name}`,
      DATABASE_REPLICA_MAX_LAG: "1 second"
    })
  }))

  /** One statement on the replica's copy of the test database. */
  const onReplica = (database: string, text: string) =>
    Effect.promise(async () => {
      const client = new pg.Client({ connectionString: `${replicaUrl}${database}` })
      await client.connect()
      try {
        return (await client.query(text)).rows
      } finally {
        await client.end()
      }
    })

  const until = (what: string, condition: Effect.Effect<boolean>) =>
    Effect.gen(function*() {
      for (let attempt = 0; attempt < 300; attempt++) {
        if (yield* condition) return
        yield* Effect.sleep("50 millis")
      }
      return yield* Effect.die(new Error(`never: ${what}`))
    })

  layer(app, { excludeTestServices: true, timeout: 120_000 })("read replicas", (it) => {
    const shop = Effect.gen(function*() {
      const s = yield* setupAccount()
      yield* productCall(s, "POST", "/import", {
        products: [
          { externalId: "board-1", title: "Walnut cutting board" },
          { externalId: "knife-1", title: "Chef knife" }
        ]
      })
      yield* waitUntilSynced(s)
      return s
    }).pipe(Effect.cached, Effect.runSync)

    const replica = Effect.map(Replicas, (all) => {
      const first = all[0]
      if (first === undefined) throw new Error("no replica configured")
      return first
    })
    const databaseOf = Effect.map(replica, (r) => new URL(r.url).pathname.slice(1))

    it.effect("search and list pages are served by the replica, seen in its own statistics", () =>
      Effect.gen(function*() {
        const s = yield* shop
        const r = yield* replica
        yield* until("the replica is usable", Effect.sync(() => r.usable))
        const database = yield* databaseOf
        const commits = onReplica(database, `SELECT xact_commit::int AS n FROM pg_stat_database WHERE datname = current_database()`)
          .pipe(Effect.map((rows) => Number(rows[0]?.n ?? 0)))
        const before = yield* commits
        const served = r.served
        for (let i = 0; i < 5; i++) {
          const found = yield* productCall(s, "POST", "/search", { query: "walnut board" })
          expect(found.status).toBe(200)
          expect(JSON.stringify(pick(found.json, "data", "list"))).toContain("board-1")
          expect((yield* productCall(s, "GET", "?limit=10")).status).toBe(200)
        }
        expect(r.served).toBeGreaterThan(served)
        // The replica's statistics reach its view within a second or so.
        yield* until("the replica counts the reads", Effect.map(commits, (after) => after >= before + 5))
      }))

    it.effect("a replica behind the bound is skipped: a product just written is listed from the primary", () =>
      Effect.gen(function*() {
        const s = yield* shop
        const r = yield* replica
        const database = yield* databaseOf
        yield* onReplica(database, "SELECT pg_wal_replay_pause()")
        yield* Effect.ensuring(
          Effect.gen(function*() {
            expect((yield* productCall(s, "PUT", "/mug-1", { title: "Clay mug" })).status).toBeLessThan(300)
            yield* until("the lagging replica is skipped", Effect.sync(() => !r.usable))
            const served = r.served
            const listed = yield* productCall(s, "GET", "?limit=10")
            expect(JSON.stringify(pick(listed.json, "data", "list"))).toContain("mug-1")
            expect(r.served).toBe(served)
          }),
          onReplica(database, "SELECT pg_wal_replay_resume()").pipe(Effect.orDie)
        )
        yield* until("the replica is usable again", Effect.sync(() => r.usable))
      }))

    it.effect("a stopped replica leaves every route working", () =>
      Effect.gen(function*() {
        const s = yield* shop
        yield* Effect.sync(() => runScript("stop"))
        for (let i = 0; i < 3; i++) {
          expect((yield* productCall(s, "POST", "/search", { query: "knife" })).status).toBe(200)
          expect((yield* productCall(s, "GET", "?limit=10")).status).toBe(200)
          expect((yield* productCall(s, "GET", "/board-1")).status).toBe(200)
        }
        const r = yield* replica
        expect(r.usable).toBe(false)
      }))
  })
}
