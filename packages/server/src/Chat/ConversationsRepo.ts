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

      create: (id: string, owner: Owner) =>
        sql`INSERT INTO conversations ${
          sql.insert({ id, accountId: owner.accountId, assistantId: owner.assistantId, principal: owner.principal })
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
        sql<{ readonly role: "user" | "assistant"; readonly content: string; readonly meta: unknown }>`
          SELECT role, content, meta FROM (
            SELECT id, role, content, meta FROM chat_messages
            WHERE conversation_id = ${conversationId} ORDER BY id DESC LIMIT ${historyRows}
          ) AS newest ORDER BY id`.pipe(Effect.orDie),

      append: (conversationId: string, messages: ReadonlyArray<NewMessage>) =>
        Effect.gen(function*() {
          for (const message of messages) {
            yield* sql`INSERT INTO chat_messages ${
              sql.insert({
                conversationId,
                role: message.role,
                content: message.content,
                tokens: message.tokens,
                meta: JSON.stringify(message.meta)
              })
            }`
          }
          yield* sql`UPDATE conversations SET updated_at = now() WHERE id = ${conversationId}`
        }).pipe(Effect.orDie)
    } as const
  })
}) {}
