/**
 * Wake-ups for the product indexer, offered in the same transaction as the
 * write. An element names an assistant; the indexer then takes every due
 * product of it (the rows themselves hold what to index, with leases).
 */
import { PersistedQueue } from "@effect/experimental"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { randomUUID } from "node:crypto"
import { elementId } from "../Queue/Queue"

export const IndexRequest = Schema.Struct({
  assistantId: Schema.String,
  /** A turn queued by the indexer itself after a full turn (`ProductIndexer`): more of this shop may be due. */
  continued: Schema.optional(Schema.Boolean)
})

/** The queue's name in `Queue.tableName` (the indexer's sweeper reads which shops have a wake-up waiting). */
export const queueName = "product-index"

export const make = PersistedQueue.make({ name: queueName, schema: IndexRequest })

/**
 * Asks for indexing; a fresh element id each time, so no wake-up is merged
 * into one already taken. A queue failure is a defect (the transaction rolls back).
 */
export const request = (queue: Effect.Effect.Success<typeof make>, assistantId: string, continued = false) =>
  queue.offer({ assistantId, ...(continued ? { continued } : {}) }, {
    id: elementId("product-index", assistantId, randomUUID())
  }).pipe(Effect.orDie)
