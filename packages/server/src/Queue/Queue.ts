/**
 * Durable background work in Postgres: `@effect/sql`'s persisted queue
 * (leases refreshed while a worker runs; a dead worker's element is taken
 * again once its lease expires). Elements can be offered inside a transaction,
 * so a row and its queued work commit together.
 *
 * Claims are fair across tenants (`fairStore`): a shop that queues thousands
 * of jobs does not make another shop's few jobs wait behind all of them.
 */
import { PersistedQueue } from "@effect/experimental"
import { SqlClient, SqlPersistedQueue } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { createHash } from "node:crypto"

export const tableName = "dastyar_queue"

/**
 * Whose work an element is: its `assistantId`, or for messenger traffic (whose
 * assistant is looked up when it is handled) its connection's code. Elements
 * with neither are claimed in plain arrival order.
 */
const Tenanted = Schema.Union(
  Schema.Struct({ assistantId: Schema.String }),
  Schema.Struct({ connectionCode: Schema.String })
)
const decodeTenant = Schema.decodeUnknownOption(Tenanted)

export const tenantOf = (element: unknown): Option.Option<string> =>
  Option.map(decodeTenant(element), (tenanted) => "assistantId" in tenanted ? tenanted.assistantId : tenanted.connectionCode)

/**
 * A store whose claims take turns between tenants, outside the library: it
 * claims in `updated_at` order, so an offer sets its element's `updated_at`
 * to a start tag (start-time fair queueing). A tenant's next element starts
 * one tick after its latest element still waiting, and never before the
 * queue's head (its oldest element not done): a tenant with nothing waiting
 * joins right behind the head, and tenants with backlogs alternate, each
 * keeping its own order. The claim itself, its leases and its `FOR UPDATE
 * SKIP LOCKED` are the library's, unchanged; a retried element goes back
 * to the library's place for it (`updated_at` now).
 */
export const fairStore = (options: Parameters<typeof SqlPersistedQueue.make>[0]) =>
  Layer.scoped(
    PersistedQueue.PersistedQueueStore,
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const store = yield* SqlPersistedQueue.make(options)
      const table = sql(options?.tableName ?? tableName)
      const placeFairly = (id: string, name: string, tenant: string) =>
        sql`
          UPDATE ${table} AS q SET tenant_key = ${tenant}, updated_at = greatest(
            coalesce((SELECT min(h.updated_at) FROM ${table} h
              WHERE h.queue_name = ${name} AND NOT h.completed AND h.id <> q.id), q.updated_at),
            (SELECT max(t.updated_at) FROM ${table} t
              WHERE t.queue_name = ${name} AND t.tenant_key = ${tenant} AND NOT t.completed AND t.id <> q.id)
              + interval '1 millisecond')
          WHERE q.id = ${id} AND q.tenant_key IS NULL AND NOT q.completed AND q.acquired_at IS NULL`
      return PersistedQueue.PersistedQueueStore.of({
        ...store,
        offer: (offered) =>
          Effect.zipRight(
            store.offer(offered),
            Option.match(tenantOf(offered.element), {
              onNone: () => Effect.void,
              onSome: (tenant) =>
                placeFairly(offered.id, offered.name, tenant).pipe(
                  Effect.mapError((cause) =>
                    new PersistedQueue.PersistedQueueError({ message: "Failed to place a queue element", cause })
                  )
                )
            })
          )
      })
    })
  )

export const layer = PersistedQueue.layer.pipe(
  Layer.provide(
    fairStore({
      tableName,
      pollInterval: "250 millis",
      lockRefreshInterval: "5 seconds",
      lockExpiration: "30 seconds"
    })
  )
)

/**
 * A deterministic element id (offering the same id twice queues it once).
 * The queue's ids are at most 36 characters and unique across all queues.
 */
export const elementId = (...parts: ReadonlyArray<string>): string =>
  createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, 32)
