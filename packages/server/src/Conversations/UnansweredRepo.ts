/**
 * The unanswered-questions report in SQL: the question groups of an
 * assistant (`question_groups`: a label, keywords and the sum of their
 * questions' vectors) and one row per unanswered answer
 * (`unanswered_questions`), counted per group over a date range.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

export interface GroupRow {
  readonly groupId: string
  readonly label: string
  readonly count: number
  readonly firstSeen: Date
  readonly lastSeen: Date
  readonly channels: Record<string, number>
  readonly reasons: Record<string, number>
}

/** A row of the report: the answer, its group and why it counts as unanswered. */
export interface UnansweredRow {
  readonly answerMessageId: string
  readonly groupId: string
  readonly assistantId: string
  readonly conversationId: string
  readonly question: string
  readonly reasons: ReadonlyArray<string>
  readonly channel: string
}

export class UnansweredRepo extends Effect.Service<UnansweredRepo>()("UnansweredRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return {
      /** The assistant's `limit` groups nearest to `vector` by meaning (for `modelId`'s vectors). */
      nearestGroups: (assistantId: string, modelId: string, vector: string, limit: number) =>
        sql<{ readonly id: string; readonly terms: ReadonlyArray<string>; readonly cosine: number }>`
          SELECT id::text AS id, terms, 1 - (vector <=> ${vector}::vector) AS cosine FROM question_groups
          WHERE assistant_id = ${assistantId} AND model_id = ${modelId}
          ORDER BY vector <=> ${vector}::vector LIMIT ${limit}`,

      /** Adds a question's vector to its group. */
      joinGroup: (groupId: string, vector: string) =>
        sql`
          UPDATE question_groups SET vector = vector + ${vector}::vector, size = size + 1, last_seen = now()
          WHERE id = ${groupId}::bigint`.pipe(Effect.asVoid),

      /** A group of one question; its id. */
      createGroup: (group: {
        readonly assistantId: string
        readonly modelId: string
        readonly label: string
        readonly terms: ReadonlyArray<string>
        readonly vector: string
      }) =>
        sql<{ readonly id: string }>`
          INSERT INTO question_groups (assistant_id, model_id, label, terms, vector, size)
          VALUES (${group.assistantId}, ${group.modelId}, ${group.label}, ${group.terms}, ${group.vector}::vector, 1)
          RETURNING id::text AS id`.pipe(Effect.map(([created]) => created?.id ?? "")),

      /** Adds reasons to the answer's row; false when it has none yet. */
      addReasons: (answerMessageId: string, reasons: ReadonlyArray<string>) =>
        sql`
          UPDATE unanswered_questions
          SET reasons = ARRAY(SELECT DISTINCT unnest(reasons || ${reasons}::text[]))
          WHERE message_id = ${answerMessageId}::bigint RETURNING message_id`.pipe(
          Effect.map((rows) => rows.length > 0)
        ),

      insert: (row: UnansweredRow) =>
        sql`
          INSERT INTO unanswered_questions
            (message_id, group_id, assistant_id, conversation_id, question, reasons, channel)
          VALUES (${row.answerMessageId}::bigint, ${row.groupId}::bigint, ${row.assistantId}, ${row.conversationId},
            ${row.question}, ${row.reasons}::text[], ${row.channel})
          ON CONFLICT (message_id, assistant_id) DO NOTHING`.pipe(Effect.asVoid),

      /** Takes the negative feedback off the answer's row, and the row away when no reason is left. */
      clearNegative: (answerMessageId: string) =>
        Effect.gen(function*() {
          yield* sql`
            UPDATE unanswered_questions SET reasons = array_remove(reasons, 'negative_feedback')
            WHERE message_id = ${answerMessageId}::bigint`
          yield* sql`DELETE FROM unanswered_questions WHERE message_id = ${answerMessageId}::bigint AND reasons = '{}'`
        }),

      /** The assistant's `limit` largest groups of `[from, to)`, with their counts by channel and reason. */
      groups: (assistantId: string, from: Date, to: Date, limit: number) =>
        sql<GroupRow>`
          WITH rows AS (
            SELECT group_id, channel, reasons, created_at FROM unanswered_questions
            WHERE assistant_id = ${assistantId} AND created_at >= ${from} AND created_at < ${to}
          ), by_channel AS (
            SELECT group_id, channel, count(*)::int AS n FROM rows GROUP BY group_id, channel
          ), by_reason AS (
            SELECT group_id, reason, count(*)::int AS n FROM rows, unnest(reasons) AS reason GROUP BY group_id, reason
          ), totals AS (
            SELECT group_id, count(*)::int AS count, min(created_at) AS first_seen, max(created_at) AS last_seen
            FROM rows GROUP BY group_id ORDER BY count DESC, last_seen DESC LIMIT ${limit}
          )
          SELECT t.group_id::text AS group_id, g.label, t.count, t.first_seen, t.last_seen,
            (SELECT jsonb_object_agg(channel, n) FROM by_channel c WHERE c.group_id = t.group_id) AS channels,
            (SELECT jsonb_object_agg(reason, n) FROM by_reason r WHERE r.group_id = t.group_id) AS reasons
          FROM totals t JOIN question_groups g ON g.id = t.group_id
          ORDER BY t.count DESC, t.last_seen DESC`,

      /** Up to `perGroup` distinct questions of each group in `[from, to)`, most recent first. */
      examples: (groupIds: ReadonlyArray<string>, from: Date, to: Date, perGroup: number) =>
        sql<{ readonly groupId: string; readonly question: string }>`
          SELECT group_id::text AS group_id, question FROM (
            SELECT group_id, question, row_number() OVER (PARTITION BY group_id ORDER BY max(created_at) DESC) AS n
            FROM unanswered_questions
            WHERE group_id IN ${sql.in(groupIds)} AND created_at >= ${from} AND created_at < ${to}
            GROUP BY group_id, question
          ) distinct_questions WHERE n <= ${perGroup}`,

      /** The group's distinct phrasings, most recent first, when it is this assistant's. */
      phrasings: (assistantId: string, groupId: string, limit: number) =>
        sql<{ readonly question: string }>`
          SELECT question FROM unanswered_questions
          WHERE group_id = ${groupId}::bigint AND assistant_id = ${assistantId}
          GROUP BY question ORDER BY max(created_at) DESC LIMIT ${limit}`.pipe(
          Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(rows.map((row) => row.question))),
          Effect.orDie
        )
    } as const
  })
}) {}
