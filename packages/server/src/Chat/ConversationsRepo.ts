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

      /**
       * Appends the messages, starting the conversation first when `start` is given; their ids, in order.
       * `needsAttention` flags the conversation for the log. One statement: the conversation's row (inserted or
       * updated) gives the messages their tenant key (see Database/Distribution.ts), and they are inserted in
       * their order, so their ids increase.
       */
      append: (
        conversationId: string,
        needsAttention: boolean,
        messages: ReadonlyArray<NewMessage>,
        start: Option.Option<{ readonly owner: Owner; readonly channel: string; readonly title: string }>
      ) => {
        const conversation = Option.match(start, {
          onNone: () =>
            sql`
              UPDATE conversations SET updated_at = now(), message_count = message_count + ${messages.length},
                needs_attention = needs_attention OR ${needsAttention}
              WHERE id = ${conversationId} RETURNING assistant_id, id`,
          onSome: ({ channel, owner, title }) =>
            sql`INSERT INTO conversations ${
              sql.insert({
                id: conversationId,
                accountId: owner.accountId,
                assistantId: owner.assistantId,
                principal: owner.principal,
                channel,
                title: title.slice(0, titleChars),
                messageCount: messages.length,
                needsAttention
              })
            } RETURNING assistant_id, id`
        })
        return sql<{ readonly id: string }>`
          WITH c AS (${conversation})
          INSERT INTO chat_messages (assistant_id, conversation_id, role, content, tokens, meta)
          SELECT c.assistant_id, c.id, m.role, m.content, m.tokens, m.meta
          FROM c, ROWS FROM (
            jsonb_to_recordset(${JSON.stringify(messages)}::jsonb) AS (role text, content text, tokens integer, meta jsonb)
          ) WITH ORDINALITY AS m(role, content, tokens, meta, n)
          ORDER BY m.n
          RETURNING id::text AS id`.pipe(
          Effect.map((rows) => rows.map((row) => row.id).sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1))),
          Effect.orDie
        )
      }
    } as const
  })
}) {}
