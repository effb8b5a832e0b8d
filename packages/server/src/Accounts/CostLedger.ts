/**
 * The per-account cost ledger: one row per chat turn with the tokens it took
 * (prompt, completion, the query's embedding, transcribed voice) and the model
 * that answered, and one per assistant for each provider call of background
 * work (`meter`: document and product embeddings, audio transcription).
 * Sums run per calendar month (UTC) against the plan's `monthlyTokens`.
 *
 * A turn is admitted by `reserve`, which counts the month and writes the turn's
 * row with an estimate under a lock on the account's row: concurrent turns are
 * admitted one after another, each seeing the others' estimates, so the month
 * is overshot by at most the last admitted turn (as one turn always could),
 * not by one turn per concurrent request. `settle` replaces the estimate with
 * what was spent. The snapshot is the reply's `quota`, documented as opaque.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { AppConfig } from "../Config"

export interface LedgerEntry {
  readonly accountId: string
  readonly assistantId: string
  readonly conversationId: string | null
  readonly model: string
  readonly promptTokens: number
  readonly completionTokens: number
  readonly embeddingTokens: number
  readonly transcriptionTokens?: number
}

/** A turn's row, written before the provider is called. */
export interface Reservation {
  readonly id: string
  readonly estimate: number
}

export interface MonthTotals {
  readonly prompt: number
  readonly completion: number
  readonly embedding: number
  readonly transcription: number
  readonly reserved: number
  readonly rows: number
  readonly period: string
}

/** `tokens` split by weight per assistant, in whole tokens that add up to `tokens` (the rest to the largest). */
const shareOut = (
  tokens: number,
  shares: ReadonlyArray<{ readonly assistantId: string; readonly weight: number }>
): ReadonlyArray<{ readonly assistantId: string; readonly tokens: number }> => {
  const weights = new Map<string, number>()
  for (const share of shares) weights.set(share.assistantId, (weights.get(share.assistantId) ?? 0) + share.weight)
  const total = [...weights.values()].reduce((a, b) => a + b, 0)
  const split = [...weights].map(([assistantId, weight]) => ({
    assistantId,
    tokens: total === 0 ? 0 : Math.floor(tokens * weight / total)
  })).sort((a, b) => b.tokens - a.tokens)
  const rest = tokens - split.reduce((sum, share) => sum + share.tokens, 0)
  return split.map((share, i) => (i === 0 ? { ...share, tokens: share.tokens + rest } : share))
}

const spent = (totals: MonthTotals) => totals.prompt + totals.completion + totals.embedding + totals.transcription
/** What the month has used, reservations included. */
const total = (totals: MonthTotals) => spent(totals) + totals.reserved

/** A transcript's length in tokens (four characters each): what a transcription is billed as. */
export const transcriptTokens = (text: string) => Math.ceil(text.length / 4)

/** The reply's `quota` from the month's totals: this turn, the month so far and what is left of the allowance. */
const quotaOf = (month: MonthTotals, allowance: number | null, turn: LedgerEntry) => {
  const used = total(month)
  return {
    period: month.period,
    turn: {
      model: turn.model,
      promptTokens: turn.promptTokens,
      completionTokens: turn.completionTokens,
      embeddingTokens: turn.embeddingTokens,
      transcriptionTokens: turn.transcriptionTokens ?? 0
    },
    month: {
      promptTokens: month.prompt,
      completionTokens: month.completion,
      embeddingTokens: month.embedding,
      transcriptionTokens: month.transcription,
      reservedTokens: month.reserved,
      totalTokens: used
    },
    allowanceTokens: allowance,
    remainingTokens: allowance === null ? null : Math.max(0, allowance - used)
  }
}

export class CostLedger extends Effect.Service<CostLedger>()("CostLedger", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const config = yield* AppConfig
    // The offline embedder costs nothing; a provider's embeddings are billed to the accounts they were made for.
    const embeddingsMetered = Option.isSome(config.embeddings.baseUrl)

    const monthTotals = (accountId: string) =>
      sql<MonthTotals>`
        SELECT coalesce(sum(prompt_tokens), 0)::int AS prompt,
               coalesce(sum(completion_tokens), 0)::int AS completion,
               coalesce(sum(embedding_tokens), 0)::int AS embedding,
               coalesce(sum(transcription_tokens), 0)::int AS transcription,
               coalesce(sum(reserved_tokens), 0)::int AS reserved,
               count(*)::int AS rows,
               to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM') AS period
        FROM cost_ledger
        WHERE account_id = ${accountId}
          AND created_at >= date_trunc('month', now() AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'`.pipe(
        Effect.map((rows) =>
          rows[0] ?? { prompt: 0, completion: 0, embedding: 0, transcription: 0, reserved: 0, rows: 0, period: "" }
        ),
        Effect.orDie
      )

    const spentColumns = (entry: LedgerEntry) => ({
      conversationId: entry.conversationId,
      model: entry.model,
      promptTokens: entry.promptTokens,
      completionTokens: entry.completionTokens,
      embeddingTokens: entry.embeddingTokens,
      transcriptionTokens: entry.transcriptionTokens ?? 0,
      reservedTokens: 0
    })

    return {
      /** The account's totals this month, for a turn that checks its allowance and quotes them back. */
      month: monthTotals,
      /** Tokens used (and reserved) in a month's totals. */
      used: total,
      /** The reply's `quota` from totals read earlier, for a turn that spends nothing the month has not counted. */
      quotaOf,

      /**
       * Writes a turn's row with what it spent, without a reservation first: for a turn whose cost is known
       * before it runs (a curated answer: no model, no embedding billed), inside the caller's transaction.
       */
      record: (entry: LedgerEntry) =>
        sql`INSERT INTO cost_ledger ${
          sql.insert({ accountId: entry.accountId, assistantId: entry.assistantId, ...spentColumns(entry) })
        }`.pipe(Effect.asVoid, Effect.orDie),

      /** The operator's month-to-date summary of an account: its ledger rows and tokens this month. */
      monthToDate: (accountId: string) =>
        Effect.map(monthTotals(accountId), (month) => ({
          period: month.period,
          turns: month.rows,
          promptTokens: month.prompt,
          completionTokens: month.completion,
          embeddingTokens: month.embedding,
          totalTokens: month.prompt + month.completion + month.embedding
        })),

      /**
       * Admits a turn while the month's spent and reserved tokens are under `allowance` (null: no cap), writing
       * its row with `estimate` reserved; none when the allowance is used up.
       */
      reserve: (
        turn: { readonly accountId: string; readonly assistantId: string; readonly model: string },
        estimate: number,
        allowance: number | null
      ) =>
        Effect.gen(function*() {
          // The account's row is the lock: admissions of one account run one after another.
          yield* sql`SELECT id FROM accounts WHERE id = ${turn.accountId} FOR UPDATE`
          if (allowance !== null && total(yield* monthTotals(turn.accountId)) >= allowance) {
            return Option.none<Reservation>()
          }
          const [row] = yield* sql<{ readonly id: string }>`
            INSERT INTO cost_ledger ${
            sql.insert({
              accountId: turn.accountId,
              assistantId: turn.assistantId,
              model: turn.model,
              promptTokens: 0,
              completionTokens: 0,
              embeddingTokens: 0,
              reservedTokens: estimate
            })
          } RETURNING id::text AS id`
          return Option.some<Reservation>({ id: row?.id ?? "", estimate })
        }).pipe(sql.withTransaction, Effect.orDie, Effect.withSpan("CostLedger.reserve")),

      /** Replaces the reservation's estimate with what the turn spent. */
      settle: (reservation: Reservation, entry: LedgerEntry) =>
        sql`UPDATE cost_ledger SET ${sql.update(spentColumns(entry))} WHERE id = ${reservation.id}::bigint`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      /**
       * Bills a provider call of background work: `tokens` shared among the assistants it served in proportion
       * to their `weight` (their texts' lengths), one row per assistant on its account. Embeddings are billed
       * only when they come from a provider.
       */
      meter: (usage: {
        readonly kind: "embedding" | "transcription"
        readonly model: string
        readonly tokens: number
        readonly shares: ReadonlyArray<{ readonly assistantId: string; readonly weight: number }>
      }) =>
        Effect.suspend(() => {
          if (usage.tokens <= 0 || (usage.kind === "embedding" && !embeddingsMetered)) return Effect.void
          const rows = shareOut(usage.tokens, usage.shares).map(({ assistantId, tokens }) => ({
            assistant_id: assistantId,
            embedding: usage.kind === "embedding" ? tokens : 0,
            transcription: usage.kind === "transcription" ? tokens : 0
          }))
          return sql`
            INSERT INTO cost_ledger (account_id, assistant_id, model, kind,
              prompt_tokens, completion_tokens, embedding_tokens, transcription_tokens)
            SELECT a.account_id, a.id, ${usage.model}, ${usage.kind}, 0, 0, x.embedding, x.transcription
            FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb)
              AS x(assistant_id text, embedding integer, transcription integer)
            JOIN assistants a ON a.id = x.assistant_id`.pipe(Effect.asVoid, Effect.orDie)
        }).pipe(Effect.withSpan("CostLedger.meter")),

      /** The reply's `quota`: this turn, the month so far and what is left of the allowance. */
      snapshot: (accountId: string, allowance: number | null, turn: LedgerEntry) =>
        Effect.map(monthTotals(accountId), (month) => quotaOf(month, allowance, turn))
    } as const
  })
}) {}
