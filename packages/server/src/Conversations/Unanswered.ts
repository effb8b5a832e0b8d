/**
 * The questions nobody answered. Grouping is incremental: when a turn is
 * stored declined, degraded or with weak retrieval (or its answer is later
 * rated down), its question joins the most similar group of the assistant
 * (`groupThreshold`, by keyword and meaning) or starts one. The report then
 * only counts rows of a date range per group, through an index: no
 * clustering runs per request.
 */
import type { Conversations } from "@dastyar/domain"
import { SqlClient } from "@effect/sql"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type StoredTurn, TurnObserver } from "../Chat/TurnHooks"
import { Embedder, vectorLiteral } from "../Search/Embedder"
import { groupThreshold, meaningWeight, questionTerms, termOverlap } from "../Search/QuestionSimilarity"

/** Nearest groups (by meaning) whose keywords are then compared too. */
const candidates = 5
const exampleCount = 5
const defaultRangeDays = 30

interface GroupRow {
  readonly groupId: string
  readonly label: string
  readonly count: number
  readonly firstSeen: Date
  readonly lastSeen: Date
  readonly channels: Record<string, number>
  readonly reasons: Record<string, number>
}

export interface Entry {
  readonly assistantId: string
  readonly conversationId: string
  readonly channel: string
  readonly answerMessageId: string
  readonly question: string
  readonly reasons: ReadonlyArray<Conversations.Reason>
}

export class Unanswered extends Effect.Service<Unanswered>()("Unanswered", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const embedder = yield* Embedder

    /** The group the question joins (made when none is close enough). */
    const groupFor = Effect.fn("Unanswered.group")(function*(assistantId: string, question: string) {
      const { vectors } = yield* embedder.embed([question.slice(0, 2000)])
      const vector = vectorLiteral(vectors[0] ?? [])
      const terms = questionTerms(question)
      const near = yield* sql<{ readonly id: string; readonly terms: ReadonlyArray<string>; readonly cosine: number }>`
        SELECT id::text AS id, terms, 1 - (vector <=> ${vector}::vector) AS cosine FROM question_groups
        WHERE assistant_id = ${assistantId} AND model_id = ${embedder.modelId}
        ORDER BY vector <=> ${vector}::vector LIMIT ${candidates}`
      const scored = near
        .map((group) => ({
          id: group.id,
          score: meaningWeight * Math.max(0, group.cosine) + (1 - meaningWeight) * termOverlap(terms, group.terms)
        }))
        .filter((group) => group.score >= groupThreshold)
        .sort((a, b) => b.score - a.score)
      const best = scored[0]
      if (best !== undefined) {
        yield* sql`
          UPDATE question_groups SET vector = vector + ${vector}::vector, size = size + 1, last_seen = now()
          WHERE id = ${best.id}::bigint`
        return best.id
      }
      const [created] = yield* sql<{ readonly id: string }>`
        INSERT INTO question_groups (assistant_id, model_id, label, terms, vector, size)
        VALUES (${assistantId}, ${embedder.modelId}, ${question.slice(0, 500)}, ${terms}, ${vector}::vector, 1)
        RETURNING id::text AS id`
      return created?.id ?? ""
    })

    /** Adds the answer's question to the report (or adds reasons to its row). */
    const record = Effect.fn("Unanswered.record")(function*(entry: Entry) {
      if (entry.reasons.length === 0 || entry.question.trim().length === 0) return
      const existing =
        yield* sql`SELECT 1 FROM unanswered_questions WHERE message_id = ${entry.answerMessageId}::bigint`
      if (existing.length > 0) {
        yield* sql`
          UPDATE unanswered_questions
          SET reasons = ARRAY(SELECT DISTINCT unnest(reasons || ${entry.reasons}::text[]))
          WHERE message_id = ${entry.answerMessageId}::bigint`
        return
      }
      const groupId = yield* groupFor(entry.assistantId, entry.question)
      yield* sql`
        INSERT INTO unanswered_questions
          (message_id, group_id, assistant_id, conversation_id, question, reasons, channel)
        VALUES (${entry.answerMessageId}::bigint, ${groupId}::bigint, ${entry.assistantId}, ${entry.conversationId},
          ${entry.question.slice(0, 2000)}, ${entry.reasons}::text[], ${entry.channel})
        ON CONFLICT (message_id, assistant_id) DO NOTHING`
    })

    /** An answer rated up again is no longer unanswered for its feedback. */
    const clearNegative = (answerMessageId: string) =>
      Effect.gen(function*() {
        yield* sql`
          UPDATE unanswered_questions SET reasons = array_remove(reasons, 'negative_feedback')
          WHERE message_id = ${answerMessageId}::bigint`
        yield* sql`DELETE FROM unanswered_questions WHERE message_id = ${answerMessageId}::bigint AND reasons = '{}'`
      })

    const range = (query: Conversations.ReportQuery) => {
      const to = query.to === undefined ? new Date() : DateTime.toDateUtc(query.to)
      const from = query.from === undefined
        ? new Date(to.getTime() - defaultRangeDays * 86_400_000)
        : DateTime.toDateUtc(query.from)
      return { from, to }
    }

    const report = Effect.fn("Unanswered.report")(function*(assistantId: string, query: Conversations.ReportQuery) {
      const { from, to } = range(query)
      const groups = yield* sql<GroupRow>`
        WITH rows AS (
          SELECT group_id, channel, reasons, created_at FROM unanswered_questions
          WHERE assistant_id = ${assistantId} AND created_at >= ${from} AND created_at < ${to}
        ), by_channel AS (
          SELECT group_id, channel, count(*)::int AS n FROM rows GROUP BY group_id, channel
        ), by_reason AS (
          SELECT group_id, reason, count(*)::int AS n FROM rows, unnest(reasons) AS reason GROUP BY group_id, reason
        ), totals AS (
          SELECT group_id, count(*)::int AS count, min(created_at) AS first_seen, max(created_at) AS last_seen
          FROM rows GROUP BY group_id ORDER BY count DESC, last_seen DESC LIMIT ${query.limit ?? 50}
        )
        SELECT t.group_id::text AS group_id, g.label, t.count, t.first_seen, t.last_seen,
          (SELECT jsonb_object_agg(channel, n) FROM by_channel c WHERE c.group_id = t.group_id) AS channels,
          (SELECT jsonb_object_agg(reason, n) FROM by_reason r WHERE r.group_id = t.group_id) AS reasons
        FROM totals t JOIN question_groups g ON g.id = t.group_id
        ORDER BY t.count DESC, t.last_seen DESC`
      if (groups.length === 0) return { list: [], count: 0 }
      const examples = yield* sql<{ readonly groupId: string; readonly question: string }>`
        SELECT group_id::text AS group_id, question FROM (
          SELECT group_id, question, row_number() OVER (PARTITION BY group_id ORDER BY max(created_at) DESC) AS n
          FROM unanswered_questions
          WHERE group_id IN ${sql.in(groups.map((group) => group.groupId))}
            AND created_at >= ${from} AND created_at < ${to}
          GROUP BY group_id, question
        ) distinct_questions WHERE n <= ${exampleCount}`
      const list = groups.map((group) => ({
        id: group.groupId,
        label: group.label,
        count: group.count,
        examples: examples.filter((example) => example.groupId === group.groupId).map((example) => example.question),
        firstSeen: DateTime.unsafeFromDate(group.firstSeen),
        lastSeen: DateTime.unsafeFromDate(group.lastSeen),
        channels: group.channels,
        reasons: group.reasons
      }))
      return { list, count: list.length }
    })

    /** The group's distinct phrasings, most recent first, when it is this assistant's. */
    const phrasings = (assistantId: string, groupId: string, limit: number) =>
      sql<{ readonly question: string }>`
        SELECT question FROM unanswered_questions
        WHERE group_id = ${groupId}::bigint AND assistant_id = ${assistantId}
        GROUP BY question ORDER BY max(created_at) DESC LIMIT ${limit}`.pipe(
        Effect.map((rows) => rows.length === 0 ? Option.none() : Option.some(rows.map((row) => row.question))),
        Effect.orDie
      )

    return {
      record,
      clearNegative,
      report: (assistantId: string, query: Conversations.ReportQuery) => report(assistantId, query).pipe(Effect.orDie),
      phrasings
    } as const
  })
}) {}

/** Chat's `TurnObserver`: every stored turn with a reason goes to the report. */
export const observerLayer = Layer.effect(
  TurnObserver,
  Effect.map(Unanswered, (unanswered) =>
    TurnObserver.of({
      stored: (turn: StoredTurn) =>
        unanswered.record(turn).pipe(
          Effect.catchAll((error) => Effect.logWarning("could not add the question to the report", error))
        )
    }))
)
