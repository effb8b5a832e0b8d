/**
 * Fair claims across tenants (Queue/Queue.ts `fairStore`) on a real, migrated
 * database: a shop that queued a big backlog does not make another shop's few
 * jobs wait behind all of it, and each shop's own jobs keep their order. The
 * library's own store, with the same offers, serves the backlog first.
 */
import { PersistedQueue } from "@effect/experimental"
import { NodeContext } from "@effect/platform-node"
import { SqlClient, SqlPersistedQueue } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import { layerPglite, layerPostgres } from "../../src/Database/Database"
import * as Migrator from "../../src/Database/Migrator"
import { fairStore, tableName } from "../../src/Queue/Queue"
import { freshPostgresDatabase } from "../../src/Testing"

const database = Layer.unwrapScoped(Effect.gen(function*() {
  const baseUrl = process.env.DATABASE_URL
  if (baseUrl === undefined) return layerPglite(undefined)
  const { url } = yield* freshPostgresDatabase(baseUrl)
  return layerPostgres(Redacted.make(url), 10)
}))

const migrated = Layer.provideMerge(Migrator.layer, Layer.merge(database, NodeContext.layer))

const options = {
  tableName,
  pollInterval: Duration.millis(50),
  lockRefreshInterval: Duration.seconds(5),
  lockExpiration: Duration.seconds(30)
}

const Job = Schema.Struct({ assistantId: Schema.String, n: Schema.Number })
type Job = typeof Job.Type

const backlog = 2_000
const few = 5
const workers = 16

/** Offers the big shop's backlog then the small shop's few jobs, and runs them all; the order they finished in. */
const runAll = (name: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const queue = yield* PersistedQueue.make({ name, schema: Job })
    // One transaction per hundred offers, as an import's requests would offer them.
    for (let start = 0; start < backlog; start += 100) {
      yield* Effect.forEach(
        Array.from({ length: 100 }, (_, i) => start + i),
        (n) => queue.offer({ assistantId: "big", n }, { id: `${name}-big-${n}` }),
        { discard: true }
      ).pipe(sql.withTransaction)
    }
    for (let n = 0; n < few; n++) yield* queue.offer({ assistantId: "small", n }, { id: `${name}-small-${n}` })
    const finished: Array<Job> = []
    yield* Effect.all(
      Array.from({ length: workers }, () =>
        Effect.gen(function*() {
          while (finished.length < backlog + few) {
            yield* queue.take((job) => Effect.sync(() => finished.push(job))).pipe(Effect.timeoutOption("2 seconds"))
          }
        })),
      { concurrency: "unbounded", discard: true }
    )
    return finished
  })

const finishedAt = (finished: ReadonlyArray<Job>, shop: string) =>
  finished.flatMap((job, index) => (job.assistantId === shop ? [index] : []))

describe("fair queue", () => {
  it.live("a small shop's jobs finish among the first 50, before half of a big shop's earlier backlog", () =>
    Effect.gen(function*() {
      const finished = yield* runAll("fair").pipe(Effect.provide(PersistedQueue.layer.pipe(Layer.provide(fairStore(options)))))
      const small = finishedAt(finished, "small")
      expect(small).toHaveLength(few)
      // Far within the spec's bound (before half the backlog): they take turns with the backlog's first jobs.
      expect(Math.max(...small)).toBeLessThan(50)
    }).pipe(Effect.scoped, Effect.provide(migrated)), 180_000)

  it.live("each shop's own jobs are claimed in the order they were offered", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const queue = yield* PersistedQueue.make({ name: "order", schema: Job })
      for (let n = 0; n < 20; n++) {
        yield* queue.offer({ assistantId: n % 2 === 0 ? "even" : "odd", n }, { id: `order-${n}` })
      }
      const rows = yield* sql<{ readonly element: string }>`
        SELECT element FROM ${sql(tableName)} WHERE queue_name = 'order' ORDER BY updated_at, sequence`
      const claimOrder = rows.map((row) => Schema.decodeUnknownSync(Schema.parseJson(Job))(row.element))
      for (const shop of ["even", "odd"]) {
        const own = claimOrder.filter((job) => job.assistantId === shop).map((job) => job.n)
        expect(own).toEqual([...own].sort((a, b) => a - b))
      }
      // Turns alternate between the two shops.
      expect(claimOrder.slice(0, 4).map((job) => job.assistantId)).toEqual(["even", "odd", "even", "odd"])
    }).pipe(
      Effect.scoped,
      Effect.provide(PersistedQueue.layer.pipe(Layer.provide(fairStore(options)))),
      Effect.provide(migrated)
    ), 60_000)

  it.live("the library's own store, given the same offers, serves the backlog first", () =>
    Effect.gen(function*() {
      const finished = yield* runAll("plain").pipe(
        Effect.provide(PersistedQueue.layer.pipe(Layer.provide(SqlPersistedQueue.layerStore(options))))
      )
      expect(Math.min(...finishedAt(finished, "small"))).toBeGreaterThan(backlog / 2)
    }).pipe(Effect.scoped, Effect.provide(migrated)), 180_000)
})
