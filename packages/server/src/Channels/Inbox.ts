/**
 * Messages the hooks accepted, waiting for an answer: a durable queue in
 * Postgres. An update's key (Telegram's `update_id`, a webhook's message id or
 * signature) is recorded in the same transaction as the queued task, so a
 * redelivered update is acknowledged but never queued twice (WhatsApp: by message id).
 */
import { PersistedQueue } from "@effect/experimental"
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { elementId } from "../Queue/Queue"
import { currentTraceLink, TraceLink } from "../Telemetry"
import { ConnectionsRepo } from "./ConnectionsRepo"

/** A Bot API update: Telegram's, or Bale's (same shape). */
export const TelegramTask = Schema.TaggedStruct("Telegram", {
  connectionCode: Schema.String,
  /** Absent in tasks queued before Bale existed: Telegram. */
  platform: Schema.optional(Schema.Literal("telegram", "bale")),
  updateId: Schema.Number,
  chatId: Schema.Number,
  /** The sender's Telegram language, for the texts the channel itself writes. */
  languageCode: Schema.NullOr(Schema.String),
  text: Schema.NullOr(Schema.String),
  voice: Schema.NullOr(Schema.Struct({
    fileId: Schema.String,
    mimeType: Schema.NullOr(Schema.String),
    fileSize: Schema.NullOr(Schema.Number)
  })),
  /** A press of an inline button under an answer (`callback_query`): its id and `callback_data`. */
  callback: Schema.optional(Schema.Struct({ id: Schema.String, data: Schema.String })),
  queuedBy: Schema.optional(TraceLink)
})
export type TelegramTask = typeof TelegramTask.Type

export const WebhookTask = Schema.TaggedStruct("Webhook", {
  connectionCode: Schema.String,
  principal: Schema.String,
  message: Schema.String,
  messageId: Schema.NullOr(Schema.String),
  queuedBy: Schema.optional(TraceLink)
})
export type WebhookTask = typeof WebhookTask.Type

/** One message of a WhatsApp Cloud API notification. */
export const WhatsAppTask = Schema.TaggedStruct("WhatsApp", {
  connectionCode: Schema.String,
  /** The message's `wamid`. */
  messageId: Schema.String,
  /** The customer's WhatsApp ID (their phone number), the reply's `to`. */
  from: Schema.String,
  /** The message type (`text`, `audio`, `image`, ...); only text is answered from its words. */
  kind: Schema.String,
  text: Schema.NullOr(Schema.String),
  /** When the customer sent it (Unix seconds): replies are possible for 24 hours after. */
  sentAt: Schema.Number,
  queuedBy: Schema.optional(TraceLink)
})
export type WhatsAppTask = typeof WhatsAppTask.Type

export const InboundTask = Schema.Union(TelegramTask, WebhookTask, WhatsAppTask)
export type InboundTask = typeof InboundTask.Type

type Unqueued<T> = T extends InboundTask ? Omit<T, "queuedBy"> : never

export class Inbox extends Effect.Service<Inbox>()("Inbox", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const repo = yield* ConnectionsRepo
    const queue = yield* PersistedQueue.make({ name: "channel-inbound", schema: InboundTask })

    return {
      /** Queues the task unless `key` was seen on this connection; false for a redelivery. */
      accept: Effect.fn("Inbox.accept")(function*(task: Unqueued<InboundTask>, key: string) {
        const queuedBy = yield* currentTraceLink
        return yield* Effect.gen(function*() {
          const fresh = yield* repo.recordUpdate(task.connectionCode, key)
          if (fresh) {
            yield* queue.offer({ ...task, queuedBy }, { id: elementId("channel-inbound", task.connectionCode, key) })
          }
          return fresh
        }).pipe(sql.withTransaction, Effect.orDie)
      }),

      /** Processes one task (waits while there is none); a failure leaves it for another attempt. */
      take: <E, R>(handle: (task: InboundTask) => Effect.Effect<void, E, R>) => queue.take(handle, { maxAttempts: 5 })
    } as const
  }),
  dependencies: [ConnectionsRepo.Default]
}) {}
