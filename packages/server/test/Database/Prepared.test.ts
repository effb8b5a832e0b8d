/**
 * Statements marked `prepared` run as named prepared statements on Postgres, and nothing else does; sessions
 * plan without parallel workers or JIT.
 */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { prepared } from "../../src/Database/Database"
import { TestApp } from "../support/TestApp"

layer(TestApp(), { excludeTestServices: true })("prepared statements", (it) => {
  it.effect("a marked statement is parsed once per connection and planned from its cache; unmarked ones stay unnamed", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      // Texts of their own, to find them among the connection's prepared statements.
      const probe = `prepared_probe_${Date.now()}`
      const plans = yield* Effect.gen(function*() {
        for (const n of [1, 2, 3, 4, 5, 6, 7]) {
          const rows = yield* prepared(
            sql,
            sql<{ readonly n: number }>`SELECT ${n}::int AS n, ${sql.literal(`'${probe}'`)} AS probe`
          )
          expect(rows).toEqual([{ n, probe }])
        }
        yield* sql`SELECT 1 AS one, ${sql.literal(`'${probe}_unmarked'`)} AS probe`
        return yield* sql<{ readonly statement: string; readonly runs: number }>`
          SELECT statement, (generic_plans + custom_plans)::int AS runs FROM pg_prepared_statements
          WHERE statement LIKE ${`%${probe}%`}`
      }).pipe(sql.withTransaction)
      if (process.env.DATABASE_URL === undefined) {
        // Embedded mode sends every statement unnamed: its one session outlives a client that could forget names.
        expect(plans).toEqual([])
      } else {
        expect(plans).toHaveLength(1)
        expect(plans[0]?.statement).toContain(`'${probe}' AS probe`)
        expect(plans[0]?.runs).toBe(7)
      }
    }))
})

layer(TestApp(), { excludeTestServices: true })("session settings", (it) => {
  it.effect("the service's Postgres sessions plan no parallel query and compile no expressions", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const [setting] = yield* sql<{ readonly workers: string; readonly jit: string }>`
        SELECT current_setting('max_parallel_workers_per_gather') AS workers, current_setting('jit') AS jit`
      // Embedded mode runs no worker processes and has no JIT, whatever the settings say.
      if (process.env.DATABASE_URL !== undefined) expect(setting).toEqual({ workers: "0", jit: "off" })
    }))
})
