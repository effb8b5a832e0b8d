/**
 * An account's month-to-date usage for the console: the cost ledger summed
 * over the calendar month (UTC), as the quota check sums it.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

export class Usage extends Effect.Service<Usage>()("AdminUsage", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return {
      monthToDate: (accountId: string) =>
        sql<{
          readonly period: string
          readonly turns: number
          readonly promptTokens: number
          readonly completionTokens: number
          readonly embeddingTokens: number
        }>`
          SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM') AS period, count(*)::int AS turns,
                 coalesce(sum(prompt_tokens), 0)::int AS prompt_tokens,
                 coalesce(sum(completion_tokens), 0)::int AS completion_tokens,
                 coalesce(sum(embedding_tokens), 0)::int AS embedding_tokens
          FROM cost_ledger
          WHERE account_id = ${accountId}
            AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`.pipe(
          Effect.map(([row]) => {
            const totals = row ?? { period: "", turns: 0, promptTokens: 0, completionTokens: 0, embeddingTokens: 0 }
            return { ...totals, totalTokens: totals.promptTokens + totals.completionTokens + totals.embeddingTokens }
          }),
          Effect.orDie
        )
    } as const
  })
}) {}
