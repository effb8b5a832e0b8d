/**
 * Durable background work in Postgres: `@effect/sql`'s persisted queue
 * (leases refreshed while a worker runs; a dead worker's element is taken
 * again once its lease expires). Elements can be offered inside a transaction,
 * so a row and its queued work commit together.
 */
import { PersistedQueue } from "@effect/experimental"
import { SqlPersistedQueue } from "@effect/sql"
import * as Layer from "effect/Layer"
import { createHash } from "node:crypto"

export const layer = PersistedQueue.layer.pipe(
  Layer.provide(
    SqlPersistedQueue.layerStore({
      tableName: "dastyar_queue",
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
