/**
 * The per-account cost ledger: one row per chat turn with the tokens it took
 * (prompt, completion, the query's embedding) and the model that answered.
 * Sums run per calendar month (UTC) against the plan's `monthlyTokens`.
 * The snapshot is the reply's `quota`, documented as opaque to clients.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

export interface LedgerEntry {
  readonly accountId: string
  readonly assistantId: string
  readonly conversationId: string
  readonly model: string
  readonly promptTokens: number
  readonly completionTokens: number
  readonly embeddingTokens: number
}

interface MonthTotals {
  readonly prompt: number
  readonly completion: number
  readonly embedding: number
  readonly period: string
}

export class CostLedger extends Effect.Service<CostLedger>()("CostLedger", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const monthTotals = (accountId: string) =>
      sql<MonthTotals>`
        SELECT coalesce(sum(prompt_tokens), 0)::int AS prompt,
               coalesce(sum(completion_tokens), 0)::int AS completion,
               coalesce(sum(embedding_tokens), 0)::int AS embedding,
               to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM') AS period
        FROM cost_ledger
        WHERE account_id = ${accountId}
          AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`.pipe(
        Effect.map((rows) => rows[0] ?? { prompt: 0, completion: 0, embedding: 0, period: "" }),
        Effect.orDie
      )

    const total = (totals: MonthTotals) => totals.prompt + totals.completion + totals.embedding

    return {
      /** Tokens the account has used this month. */
      usedThisMonth: (accountId: string) => Effect.map(monthTotals(accountId), total),

      record: (entry: LedgerEntry) =>
        sql`INSERT INTO cost_ledger ${sql.insert({ ...entry })}`.pipe(Effect.asVoid, Effect.orDie),

      /** The reply's `quota`: this turn, the month so far and what is left of the allowance. */
      snapshot: (accountId: string, allowance: number | null, turn: LedgerEntry) =>
        Effect.map(monthTotals(accountId), (month) => {
          const used = total(month)
          return {
            period: month.period,
            turn: {
              model: turn.model,
              promptTokens: turn.promptTokens,
              completionTokens: turn.completionTokens,
              embeddingTokens: turn.embeddingTokens
            },
            month: {
              promptTokens: month.prompt,
              completionTokens: month.completion,
              embeddingTokens: month.embedding,
              totalTokens: used
            },
            allowanceTokens: allowance,
            remainingTokens: allowance === null ? null : Math.max(0, allowance - used)
          }
        })
    } as const
  })
}) {}
