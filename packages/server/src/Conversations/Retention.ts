/**
 * Retention: each account may keep its conversations for a number of days
 * (`accounts.conversation_retention_days`, set through `AccountsRepo`; null
 * keeps them). A pass deletes conversations idle for longer, in batches, at
 * most `maxBatches` per pass so a backlog is worked off over several passes
 * instead of one long statement.
 */
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Worker from "../Platform/Worker"
import { ConversationLogRepo } from "./ConversationLogRepo"

const batchSize = 500
const maxBatches = 20
const passInterval = "1 hour"

export class Retention extends Effect.Service<Retention>()("Retention", {
  effect: Effect.gen(function*() {
    const repo = yield* ConversationLogRepo

    return {
      /** Deletes what is past its account's retention as of the clock's now; the number deleted. */
      purge: Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        let total = 0
        for (let i = 0; i < maxBatches; i++) {
          const deleted = yield* repo.removeExpired(now, batchSize)
          total += deleted
          if (deleted < batchSize) break
        }
        return total
      }).pipe(Effect.withSpan("Conversations.retention"))
    } as const
  }),
  dependencies: [ConversationLogRepo.Default]
}) {}

/** The hourly pass (the first at start). */
export const layer = Layer.scopedDiscard(
  Effect.flatMap(Retention, (retention) =>
    Worker.every("conversation-retention", retention.purge, {
      interval: passInterval,
      failureMessage: "conversation retention pass failed"
    }))
).pipe(Layer.provide(Retention.Default))
