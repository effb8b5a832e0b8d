/** Conversations and their messages. Every lookup names account, assistant and principal together. */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { HistoryMessage } from "./History"

export interface Owner {
  readonly accountId: string
  readonly assistantId: string
  readonly principal: string
}

export interface NewMessage {
  readonly role: "user" | "assistant"
  readonly content: string
  readonly tokens: number
  readonly meta: Readonly<Record<string, unknown>>
}

/** History rows read per turn; the token budget then trims them further. */
const historyRows = 100
/** A conversation's title in the log: the start of its first question. */
const titleChars = 200

export class ConversationsRepo extends Effect.Service<ConversationsRepo>()("ConversationsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    return {
      /** The conversation only if it belongs to this account, assistant and principal. */
      findOwned: (id: string, owner: Owner) =>
        sql<{ readonly id: string }>`
          SELECT id FROM conversations
          WHERE id = ${id} AND account_id = ${owner.accountId}
            AND assistant_id = ${owner.assistantId} AND principal = ${owner.principal}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.id)),
          Effect.orDie
        ),

      create: (id: string, owner: Owner, log: { readonly channel: string; readonly title: string }) =>
        sql`INSERT INTO conversations ${
          sql.insert({
            id,
            accountId: owner.accountId,
            assistantId: owner.assistantId,
            principal: owner.principal,
            channel: log.channel,
            title: log.title.slice(0, titleChars)
          })
        }`.pipe(Effect.asVoid, Effect.orDie),

      /** The newest messages, oldest first. */
      recent: (conversationId: string) =>
        sql<HistoryMessage>`
          SELECT role, content, tokens FROM (
            SELECT id, role, content, tokens FROM chat_messages
            WHERE conversation_id = ${conversationId} ORDER BY id DESC LIMIT ${historyRows}
          ) AS newest ORDER BY id`.pipe(Effect.orDie),

      /** The newest messages with what was stored beside them (the sources of an answer), oldest first. */
      transcript: (conversationId: string) =>
        sql<
          { readonly id: string; readonly role: "user" | "assistant"; readonly content: string; readonly meta: unknown }
        >`
          SELECT newest.id::text AS id, role, content, meta FROM (
            SELECT id, role, content, meta FROM chat_messages
            WHERE conversation_id = ${conversationId} ORDER BY id DESC LIMIT ${historyRows}
          ) AS newest ORDER BY newest.id`.pipe(Effect.orDie),

      /** Appends the messages (returning their ids, in order); `needsAttention` flags the conversation for the log. */
      append: (conversationId: string, needsAttention: boolean, messages: ReadonlyArray<NewMessage>) =>
        Effect.gen(function*() {
          // One statement for all the messages, inserted in their order (ids are increasing); the tenant key
          // comes from the conversation (see Database/Distribution.ts).
          const rows = yield* sql<{ readonly id: string }>`
            INSERT INTO chat_messages (assistant_id, conversation_id, role, content, tokens, meta)
            SELECT c.assistant_id, c.id, m.role, m.content, m.tokens, m.meta
            FROM conversations c, ROWS FROM (
              jsonb_to_recordset(${JSON.stringify(messages)}::jsonb)
                AS (role text, content text, tokens integer, meta jsonb)
            ) WITH ORDINALITY AS m(role, content, tokens, meta, n)
            WHERE c.id = ${conversationId}
            ORDER BY m.n
            RETURNING id::text AS id`
          yield* sql`
            UPDATE conversations SET updated_at = now(), message_count = message_count + ${messages.length},
              needs_attention = needs_attention OR ${needsAttention}
            WHERE id = ${conversationId}`
          return rows.map((row) => row.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))
        }).pipe(Effect.orDie)
    } as const
  })
}) {}
