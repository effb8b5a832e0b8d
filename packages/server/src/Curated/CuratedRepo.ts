/** Curated answers in SQL. Every statement names the assistant (whose ownership the caller checked). */
import { SqlClient } from "@effect/sql"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ReadSql } from "../Database/Replicas"
import type { QuestionKey } from "../Search/QuestionSimilarity"

export interface Variant extends QuestionKey {
  readonly question: string
}

export interface CuratedRow {
  readonly id: string
  readonly questions: ReadonlyArray<string>
  readonly answer: string
  readonly language: string | null
  readonly modelId: string
  readonly variants: ReadonlyArray<Variant>
  readonly hitCount: number
  readonly lastHitAt: Date | null
  readonly createdAt: Date
  readonly updatedAt: Date
}

export interface CuratedWrite {
  readonly questions: ReadonlyArray<string>
  readonly answer: string
  readonly language: string | null
  readonly modelId: string
  readonly variants: ReadonlyArray<Variant>
}

const columns = "id, questions, answer, language, model_id, variants, hit_count, last_hit_at, created_at, updated_at"

/** The wire shape of a row. */
export const toCuratedAnswer = (row: CuratedRow) => ({
  id: row.id,
  questions: row.questions,
  answer: row.answer,
  language: row.language,
  hitCount: row.hitCount,
  lastHitAt: row.lastHitAt === null ? null : DateTime.unsafeFromDate(row.lastHitAt),
  createdAt: DateTime.unsafeFromDate(row.createdAt),
  updatedAt: DateTime.unsafeFromDate(row.updatedAt)
})

export class CuratedRepo extends Effect.Service<CuratedRepo>()("CuratedRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // The list page may be served by a replica (Database/Replicas.ts); the cap check counts on the primary.
    const readSql = yield* ReadSql
    const select = sql.unsafe(columns)
    const countWith = (client: SqlClient.SqlClient, assistantId: string) =>
      client<{ readonly n: number }>`SELECT count(*)::int AS n FROM curated_answers WHERE assistant_id = ${assistantId}`
        .pipe(Effect.map((rows) => rows[0]?.n ?? 0), Effect.orDie)

    return {
      count: (assistantId: string) => countWith(sql, assistantId),
      countListed: (assistantId: string) => countWith(readSql, assistantId),

      page: (assistantId: string, limit: number, offset: number) =>
        readSql<CuratedRow>`
          SELECT ${select} FROM curated_answers WHERE assistant_id = ${assistantId}
          ORDER BY updated_at DESC, id LIMIT ${limit} OFFSET ${offset}`.pipe(Effect.orDie),

      /** Every answer of the assistant, for matching and the CSV export (bounded by `maxCuratedPerAssistant`). */
      all: (assistantId: string) =>
        sql<
          CuratedRow
        >`SELECT ${select} FROM curated_answers WHERE assistant_id = ${assistantId} ORDER BY created_at, id`
          .pipe(Effect.orDie),

      find: (assistantId: string, id: string) =>
        sql<CuratedRow>`SELECT ${select} FROM curated_answers WHERE assistant_id = ${assistantId} AND id = ${id}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),

      insert: (owner: { readonly accountId: string; readonly assistantId: string }, id: string, write: CuratedWrite) =>
        sql<CuratedRow>`
          INSERT INTO curated_answers ${
          sql.insert({
            id,
            accountId: owner.accountId,
            assistantId: owner.assistantId,
            questions: JSON.stringify(write.questions),
            answer: write.answer,
            language: write.language,
            modelId: write.modelId,
            variants: JSON.stringify(write.variants)
          })
        } RETURNING ${select}`.pipe(Effect.map((rows) => rows[0]), Effect.flatMap(Effect.fromNullable), Effect.orDie),

      update: (assistantId: string, id: string, write: CuratedWrite) =>
        sql<CuratedRow>`
          UPDATE curated_answers SET questions = ${JSON.stringify(write.questions)}, answer = ${write.answer},
            language = ${write.language}, model_id = ${write.modelId}, variants = ${JSON.stringify(write.variants)},
            updated_at = now()
          WHERE assistant_id = ${assistantId} AND id = ${id}
          RETURNING ${select}`.pipe(Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie),

      remove: (assistantId: string, id: string) =>
        sql`DELETE FROM curated_answers WHERE assistant_id = ${assistantId} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),

      recordHit: (assistantId: string, id: string) =>
        sql`
          UPDATE curated_answers SET hit_count = hit_count + 1, last_hit_at = now()
          WHERE assistant_id = ${assistantId} AND id = ${id}`.pipe(Effect.asVoid, Effect.orDie)
    } as const
  })
}) {}
