/**
 * What `patches/@effect__sql@0.52.1.patch` fixes and adds in `SqlPersistedQueue`, on a real database:
 * - a lease is refreshed while its element is worked on (unpatched, nothing registered the element, so any job
 *   running longer than `lockExpiration` was taken and run a second time by another worker);
 * - a store that closes hands back every lease it still holds, also one whose element never reached a worker;
 * - an offer in the same process wakes a waiting worker at once instead of after the poll interval.
 * Each case fails on the unpatched library (see patches/README.md).
 */
import { PersistedQueue } from "@effect/experimental"
import { SqlClient, SqlPersistedQueue } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import * as Deferred from "effect/Deferred"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Fiber from "effect/Fiber"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as Scope from "effect/Scope"
import { layerPglite, layerPostgres } from "../../src/Database/Database"
import { freshPostgresDatabase } from "../../src/Testing"

const tableName = "patch_queue"

const database = Layer.unwrapScoped(Effect.gen(function*() {
  const baseUrl = process.env.DATABASE_URL
  if (baseUrl === undefined) return layerPglite(undefined)
  const { url } = yield* freshPostgresDatabase(baseUrl)
  return layerPostgres(Redacted.make(url), 4)
}))

/** One queue store, as one server instance has it; `pollInterval` long unless a case needs polling. */
const store = (options: { readonly pollInterval: Duration.DurationInput }) =>
  PersistedQueue.layer.pipe(
    Layer.provide(SqlPersistedQueue.layerStore({
      tableName,
      pollInterval: options.pollInterval,
      lockRefreshInterval: "100 millis",
      lockExpiration: "1 second"
    }))
  )

/** A store built in a scope of its own, so a case can close it as a stopping instance would. */
const openStore = (options: { readonly pollInterval: Duration.DurationInput }) =>
  Effect.gen(function*() {
    const scope = yield* Scope.make()
    const context = yield* Layer.buildWithScope(store(options), scope)
    return { scope, queue: (name: string) => Effect.provide(queueOf(name), context) }
  })

const queueOf = (name: string) => PersistedQueue.make({ name, schema: Schema.String })

/** Leases held in the table, by element id. */
const leases = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<{ readonly id: string; readonly acquiredBy: string | null }>`
    SELECT id, acquired_by FROM ${sql(tableName)} ORDER BY sequence`
})

describe("@effect/sql patch", () => {
  it.live("keeps the lease of an element worked on for longer than the lease", () =>
    Effect.gen(function*() {
      const first = yield* openStore({ pollInterval: "100 millis" })
      const second = yield* openStore({ pollInterval: "100 millis" })
      const queueA = yield* first.queue("long-job")
      const queueB = yield* second.queue("long-job")
      yield* queueA.offer("job", { id: "long-1" })
      const started = yield* Deferred.make<void>()
      const finish = yield* Deferred.make<void>()
      const work = Effect.zipRight(Deferred.succeed(started, undefined), Deferred.await(finish))
      const worker = yield* queueA.take(() => work).pipe(Effect.fork)
      yield* Deferred.await(started)
      // Past two and a half lease expirations, another instance must still not get the element.
      const stolen = yield* queueB.take((value) => Effect.succeed(value)).pipe(Effect.timeoutOption("2500 millis"))
      expect(stolen).toEqual(Option.none())
      yield* Deferred.succeed(finish, undefined)
      yield* Fiber.join(worker)
      yield* Scope.close(first.scope, Exit.void)
      yield* Scope.close(second.scope, Exit.void)
    }).pipe(Effect.scoped, Effect.provide(database)), 60_000)

  it.live("hands back every lease it holds when its store closes", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const instance = yield* openStore({ pollInterval: "100 millis" })
      const queue = yield* instance.queue("stopping")
      yield* queue.offer("held", { id: "held-1" })
      yield* queue.offer("lost", { id: "lost-1" })
      const started = yield* Deferred.make<void>()
      yield* queue.take(() => Effect.zipRight(Deferred.succeed(started, undefined), Effect.never)).pipe(Effect.fork)
      yield* Deferred.await(started)
      // A poll whose UPDATE committed but whose rows never reached a worker (the instance was told to stop in
      // between) leaves a lease in this instance's name on an element no worker holds.
      const [held] = (yield* leases).filter((lease) => lease.id === "held-1")
      yield* sql`UPDATE ${sql(tableName)} SET acquired_at = now(), acquired_by = ${held?.acquiredBy ?? ""}
                 WHERE id = 'lost-1'`
      yield* Scope.close(instance.scope, Exit.void)
      expect(yield* leases).toEqual([{ id: "held-1", acquiredBy: null }, { id: "lost-1", acquiredBy: null }])
    }).pipe(Effect.scoped, Effect.provide(database)), 60_000)

  it.live("wakes a waiting worker when the same process offers, without waiting for the next poll", () =>
    Effect.gen(function*() {
      const instance = yield* openStore({ pollInterval: "1 minute" })
      const queue = yield* instance.queue("nudged")
      const taken = yield* queue.take((value) => Effect.succeed(value)).pipe(Effect.fork)
      // Let the worker's first poll find the queue empty, so that only a wake-up can bring the element; a poll
      // that finds nothing leaves no trace to wait for.
      yield* Effect.sleep("500 millis")
      yield* queue.offer("now", { id: "nudged-1" })
      // Far below the poll interval: only the offer's nudge can explain the wake-up.
      expect(yield* Fiber.join(taken).pipe(Effect.timeoutOption("10 seconds"))).toEqual(Option.some("now"))
      yield* Scope.close(instance.scope, Exit.void)
    }).pipe(Effect.scoped, Effect.provide(database)), 60_000)
})

