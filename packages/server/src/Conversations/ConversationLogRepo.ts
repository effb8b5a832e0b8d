/**
 * The conversation log in SQL: what chat stored (`conversations`,
 * `chat_messages`), read for the shop and the operator, and deleted on
 * request; feedback on answers. Lists are keyset pages in the order of
 * `conversations_list_idx` (newest start first, id breaking ties), or of the
 * filter's own index in that order (channel, principal, attention, negative
 * feedback). Retention deletes what is past its account's
 * `conversation_retention_days`.
 */
import { Chat, type Conversations } from "@dastyar/domain"
import { SqlClient } from "@effect/sql"
import type { Fragment } from "@effect/sql/Statement"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { ReadSql } from "../Database/Replicas"

/** Who may see a conversation: an account's assistant, or (operator) anyone. */
export interface Scope {
  readonly accountId?: string | undefined
  readonly assistantId?: string | undefined
}

export interface Filters {
  readonly channel?: string | undefined
  readonly from?: DateTime.Utc | undefined
  readonly to?: DateTime.Utc | undefined
  readonly principal?: string | undefined
  readonly negativeFeedback?: "true" | "false" | undefined
  readonly needsAttention?: "true" | "false" | undefined
}

/** A position in the list: the start as Postgres prints it (microseconds kept) and the id. */
export interface Position {
  readonly at: string
  readonly id: string
}

export interface ConversationRow {
  readonly id: string
  readonly accountId: string
  readonly assistantId: string
  readonly principal: string
  readonly channel: Conversations.Channel
  readonly title: string
  readonly messageCount: number
  readonly negativeFeedback: boolean
  readonly needsAttention: boolean
  readonly createdAt: Date
  readonly updatedAt: Date
  readonly position: string
}

interface MessageRow {
  readonly id: string
  readonly conversationId: string
  readonly role: "user" | "assistant"
  readonly content: string
  readonly meta: unknown
  readonly createdAt: Date
  readonly rating: "up" | "down" | null
  readonly comment: string | null
  readonly ratedAt: Date | null
}

/** What chat keeps in a message's `meta` (older rows lack the newer fields). */
const Meta = Schema.Struct({
  sources: Schema.optional(Schema.Array(Chat.Source)),
  products: Schema.optional(Schema.Array(Schema.String)),
  productTitles: Schema.optional(Schema.Array(Schema.String)),
  model: Schema.optional(Schema.String),
  degraded: Schema.optional(Schema.Boolean),
  declined: Schema.optional(Schema.Boolean),
  usage: Schema.optional(Schema.Struct({
    promptTokens: Schema.Number,
    completionTokens: Schema.Number,
    embeddingTokens: Schema.Number
  })),
  curatedId: Schema.optional(Schema.String)
})
const decodeMeta = Schema.decodeUnknownOption(Meta)
const emptyMeta: typeof Meta.Type = {}

const summaryColumns = `id, account_id, assistant_id, principal, channel, title, message_count, negative_feedback,
  needs_attention, created_at, updated_at, created_at::text AS position`

export const toSummary = (row: ConversationRow) => ({
  id: row.id,
  assistantId: row.assistantId,
  principal: row.principal,
  channel: row.channel,
  title: row.title,
  messageCount: row.messageCount,
  negativeFeedback: row.negativeFeedback,
  needsAttention: row.needsAttention,
  createdAt: DateTime.unsafeFromDate(row.createdAt),
  updatedAt: DateTime.unsafeFromDate(row.updatedAt)
})

const toMessage = (row: MessageRow): Conversations.ConversationMessage => {
  const meta = Option.getOrElse(decodeMeta(row.meta), () => emptyMeta)
  const assistant = row.role === "assistant"
  const titles = meta.productTitles ?? []
  return {
    id: row.id,
    role: row.role,
    content: row.content,
    createdAt: DateTime.unsafeFromDate(row.createdAt),
    sources: meta.sources ?? [],
    products: (meta.products ?? []).map((externalId, i) => ({ externalId, title: titles[i] ?? null })),
    model: assistant ? meta.model ?? null : null,
    degraded: assistant ? meta.degraded ?? false : null,
    declined: assistant ? meta.declined ?? null : null,
    usage: assistant ? meta.usage ?? null : null,
    curatedId: meta.curatedId ?? null,
    feedback: row.rating === null
      ? null
      : { rating: row.rating, comment: row.comment, updatedAt: DateTime.unsafeFromDate(row.ratedAt ?? row.createdAt) }
  }
}

/** Messages read per conversation at most (a thread longer than this shows its start). */
const maxMessages = 2000

export class ConversationLogRepo extends Effect.Service<ConversationLogRepo>()("ConversationLogRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // List pages and their messages may be served by a replica (Database/Replicas.ts).
    const readSql = yield* ReadSql
    const summary = sql.unsafe(summaryColumns)

    const where = (scope: Scope, filters: Filters, after: Option.Option<Position>) => {
      const clauses: Array<Fragment> = []
      if (scope.accountId !== undefined) clauses.push(sql`account_id = ${scope.accountId}`)
      if (scope.assistantId !== undefined) clauses.push(sql`assistant_id = ${scope.assistantId}`)
      if (filters.channel !== undefined) clauses.push(sql`channel = ${filters.channel}`)
      if (filters.principal !== undefined) clauses.push(sql`principal = ${filters.principal}`)
      if (filters.from !== undefined) clauses.push(sql`created_at >= ${DateTime.toDateUtc(filters.from)}`)
      if (filters.to !== undefined) clauses.push(sql`created_at < ${DateTime.toDateUtc(filters.to)}`)
      if (filters.negativeFeedback === "true") clauses.push(sql`negative_feedback`)
      if (filters.needsAttention === "true") clauses.push(sql`needs_attention`)
      if (Option.isSome(after)) {
        clauses.push(sql`(created_at, id) < (${after.value.at}::timestamptz, ${after.value.id})`)
      }
      return clauses.length === 0 ? sql`true` : sql.and(clauses)
    }

    const page = (scope: Scope, filters: Filters, after: Option.Option<Position>, limit: number) =>
      readSql<ConversationRow>`
        SELECT ${summary} FROM conversations WHERE ${where(scope, filters, after)}
        ORDER BY created_at DESC, id DESC LIMIT ${limit}`.pipe(Effect.orDie)

    const messagesOf = (conversationIds: ReadonlyArray<string>) =>
      conversationIds.length === 0
        ? Effect.succeed<ReadonlyArray<MessageRow>>([])
        : readSql<MessageRow>`
          SELECT m.id::text AS id, m.conversation_id, m.role, m.content, m.meta, m.created_at,
                 f.rating, f.comment, f.updated_at AS rated_at
          FROM chat_messages m LEFT JOIN message_feedback f ON f.message_id = m.id
          WHERE m.conversation_id IN ${sql.in(conversationIds)}
          ORDER BY m.conversation_id, m.id LIMIT ${maxMessages * conversationIds.length}`.pipe(Effect.orDie)

    const find = (scope: Scope, id: string) =>
      sql<ConversationRow>`SELECT ${summary} FROM conversations WHERE ${where(scope, {}, Option.none())} AND id = ${id}`
        .pipe(Effect.map((rows) => Option.fromNullable(rows[0])), Effect.orDie)

    /** Conversations with their messages, in the order given. */
    const withMessages = (rows: ReadonlyArray<ConversationRow>) =>
      Effect.map(messagesOf(rows.map((row) => row.id)), (messages) => {
        const byConversation = new Map<string, Array<Conversations.ConversationMessage>>()
        for (const message of messages) {
          const list = byConversation.get(message.conversationId) ?? []
          list.push(toMessage(message))
          byConversation.set(message.conversationId, list)
        }
        return rows.map((row) => ({ row, messages: byConversation.get(row.id) ?? [] }))
      })

    return {
      page,
      find,
      withMessages,

      remove: (scope: Scope, id: string) =>
        sql`DELETE FROM conversations WHERE ${where(scope, {}, Option.none())} AND id = ${id} RETURNING id`.pipe(
          Effect.map((rows) => rows.length > 0),
          Effect.orDie
        ),

      removePrincipal: (scope: Scope, principal: string) =>
        sql`DELETE FROM conversations WHERE ${where(scope, { principal }, Option.none())} RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          Effect.orDie
        ),

      /**
       * Deletes up to `limit` conversations idle for longer than their account's retention as of `now`, across
       * the accounts that have one; the number deleted.
       */
      removeExpired: (now: Date, limit: number) =>
        sql<{ readonly id: string }>`
          DELETE FROM conversations WHERE id IN (
            SELECT expired.id FROM accounts a
            CROSS JOIN LATERAL (
              SELECT c.id FROM conversations c
              WHERE c.account_id = a.id
                AND c.updated_at < ${now}::timestamptz - make_interval(days => a.conversation_retention_days)
              LIMIT ${limit}
            ) expired
            WHERE a.conversation_retention_days IS NOT NULL
            LIMIT ${limit}
          ) RETURNING id`.pipe(Effect.map((rows) => rows.length)),

      /** The assistant message `messageId` of the conversation, with the user's question before it. */
      answerWithQuestion: (conversationId: string, messageId: string) =>
        sql<{ readonly id: string; readonly question: string | null }>`
          SELECT m.id::text AS id, (
            SELECT q.content FROM chat_messages q
            WHERE q.conversation_id = m.conversation_id AND q.id < m.id AND q.role = 'user'
            ORDER BY q.id DESC LIMIT 1
          ) AS question
          FROM chat_messages m
          WHERE m.id = ${messageId}::bigint AND m.conversation_id = ${conversationId} AND m.role = 'assistant'`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0])),
          Effect.orDie
        ),

      /** One vote per answer (the last counts); the conversation's flag follows its votes. */
      setFeedback: (conversationId: string, messageId: string, rating: "up" | "down", comment: string | null) =>
        Effect.gen(function*() {
          const [row] = yield* sql<{ readonly updatedAt: Date }>`
            INSERT INTO message_feedback (assistant_id, message_id, conversation_id, rating, comment)
            SELECT assistant_id, ${messageId}::bigint, id, ${rating}, ${comment} FROM conversations
            WHERE id = ${conversationId}
            ON CONFLICT (message_id, assistant_id) DO UPDATE
              SET rating = EXCLUDED.rating, comment = EXCLUDED.comment, updated_at = now()
            RETURNING updated_at`
          yield* sql`
            UPDATE conversations SET negative_feedback = EXISTS (
              SELECT 1 FROM message_feedback WHERE conversation_id = ${conversationId} AND rating = 'down'
            ) WHERE id = ${conversationId}`
          return row?.updatedAt ?? new Date()
        }).pipe(sql.withTransaction, Effect.orDie)
    } as const
  })
}) {}
