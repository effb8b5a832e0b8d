/**
 * Retention: each account may keep its conversations for a number of days
 * (`accounts.conversation_retention_days`, null keeps them). A pass deletes
 * conversations idle for longer, in batches, at most `maxBatches` per pass so
 * a backlog is worked off over several passes instead of one long statement.
 */
import { SqlClient } from "@effect/sql"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Worker from "../Platform/Worker"

const batchSize = 500
const maxBatches = 20
const passInterval = "1 hour"

export class Retention extends Effect.Service<Retention>()("Retention", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    /** One batch across the accounts with a retention: the number deleted. */
    const batch = (now: Date) =>
      sql<{ readonly id: string }>`
        DELETE FROM conversations WHERE id IN (
          SELECT expired.id FROM accounts a
          CROSS JOIN LATERAL (
            SELECT c.id FROM conversations c
            WHERE c.account_id = a.id
              AND c.updated_at < ${now}::timestamptz - make_interval(days => a.conversation_retention_days)
            LIMIT ${batchSize}
          ) expired
          WHERE a.conversation_retention_days IS NOT NULL
          LIMIT ${batchSize}
        ) RETURNING id`.pipe(Effect.map((rows) => rows.length))

    return {
      setDays: (accountId: string, days: number | null) =>
        sql`UPDATE accounts SET conversation_retention_days = ${days} WHERE id = ${accountId} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),

      /** Deletes what is past its account's retention as of the clock's now; the number deleted. */
      purge: Effect.gen(function*() {
        const now = new Date(yield* Clock.currentTimeMillis)
        let total = 0
        for (let i = 0; i < maxBatches; i++) {
          const deleted = yield* batch(now)
          total += deleted
          if (deleted < batchSize) break
        }
        return total
      }).pipe(Effect.withSpan("Conversations.retention"))
    } as const
  })
}) {}

/** The hourly pass (the first at start). */
export const layer = Layer.scopedDiscard(
  Effect.flatMap(Retention, (retention) =>
    Worker.every("conversation-retention", retention.purge, {
      interval: passInterval,
      failureMessage: "conversation retention pass failed"
    }))
).pipe(Layer.provide(Retention.Default))
