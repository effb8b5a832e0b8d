import * as SqlClient from "@effect/sql/SqlClient"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { layerPglite } from "../../src/Database/Database"

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
