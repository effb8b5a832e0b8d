/** Connection rows, the updates already taken in, and the conversation of each chat. */
import { Channels } from "@dastyar/domain"
import { SqlClient, SqlSchema } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Struct from "effect/Struct"

/** The API's connection as stored: sealed secrets instead of the hook URL (built from the code), dates as dates. */
export const ConnectionRow = Schema.Struct({
  ...Struct.pick(
    Channels.Connection.fields,
    "driver",
    "status",
    "statusReason",
    "botUsername",
    "callbackUrl",
    "phoneNumberId"
  ),
  code: Schema.String,
  assistantId: Schema.String,
  secrets: Schema.Uint8ArrayFromSelf,
  createdAt: Schema.DateTimeUtcFromDate,
  updatedAt: Schema.DateTimeUtcFromDate
})
export type ConnectionRow = typeof ConnectionRow.Type

export interface NewConnection {
  readonly code: string
  readonly assistantId: string
  readonly driver: Channels.Driver
  readonly botUsername: string | null
  readonly callbackUrl: string | null
  readonly phoneNumberId: string | null
  readonly secrets: Uint8Array
}

/** A message no reply could be sent to, and why. */
export interface Unanswered {
  readonly code: string
  readonly messageKey: string
  readonly chatKey: string
  readonly text: string | null
  readonly reason: string
  readonly sentAt: Date
}

export class ConnectionsRepo extends Effect.Service<ConnectionsRepo>()("ConnectionsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const find = SqlSchema.findOne({
      Request: Schema.String,
      Result: ConnectionRow,
      execute: (code) => sql`SELECT * FROM channel_connections WHERE code = ${code}`
    })
    const listByAssistant = SqlSchema.findAll({
      Request: Schema.String,
      Result: ConnectionRow,
      execute: (assistantId) =>
        sql`SELECT * FROM channel_connections WHERE assistant_id = ${assistantId} ORDER BY created_at, code`
    })

    return {
      find: (code: string) => find(code).pipe(Effect.orDie),
      listByAssistant: (assistantId: string) => listByAssistant(assistantId).pipe(Effect.orDie),

      insert: (row: NewConnection) =>
        sql`
          INSERT INTO channel_connections
            (code, assistant_id, driver, status, bot_username, callback_url, phone_number_id, secrets)
          VALUES (${row.code}, ${row.assistantId}, ${row.driver}, 'active', ${row.botUsername}, ${row.callbackUrl},
            ${row.phoneNumberId}, ${row.secrets})`.pipe(Effect.asVoid, Effect.orDie),

      setStatus: (code: string, status: Channels.ConnectionStatus, reason: string | null) =>
        sql`
          UPDATE channel_connections SET status = ${status}, status_reason = ${reason}, updated_at = now()
          WHERE code = ${code}`.pipe(Effect.asVoid, Effect.orDie),

      /** Says why (a reply was not sent) while the status stays what it is. */
      setReason: (code: string, reason: string) =>
        sql`UPDATE channel_connections SET status_reason = ${reason}, updated_at = now() WHERE code = ${code}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      /** Keeps a message no reply could be sent to (once per message). */
      recordUnanswered: (entry: Unanswered) =>
        sql`
          INSERT INTO channel_unanswered (assistant_id, connection_code, message_key, chat_key, text, reason, sent_at)
          SELECT assistant_id, code, ${entry.messageKey}, ${entry.chatKey}, ${entry.text}, ${entry.reason}, ${entry.sentAt}::timestamptz
          FROM channel_connections WHERE code = ${entry.code}
          ON CONFLICT DO NOTHING`.pipe(Effect.asVoid, Effect.orDie),

      /** New secrets (a re-registered Telegram webhook), and the connection active again. */
      reactivate: (code: string, secrets: Uint8Array) =>
        sql`
          UPDATE channel_connections SET status = 'active', status_reason = NULL, secrets = ${secrets}, updated_at = now()
          WHERE code = ${code}`.pipe(Effect.asVoid, Effect.orDie),

      /** Every connection's sealed secrets. */
      allSecrets: sql<{ readonly code: string; readonly secrets: Uint8Array }>`
        SELECT code, secrets FROM channel_connections`.pipe(Effect.orDie),

      /** The same secrets sealed again (a key rotation), unless they changed meanwhile. */
      resealed: (code: string, previous: Uint8Array, secrets: Uint8Array) =>
        sql`UPDATE channel_connections SET secrets = ${secrets} WHERE code = ${code} AND secrets = ${previous}`.pipe(
          Effect.asVoid,
          Effect.orDie
        ),

      remove: (code: string) =>
        sql`DELETE FROM channel_connections WHERE code = ${code}`.pipe(Effect.asVoid, Effect.orDie),

      /** Records an update's key; false when it was seen before (a redelivery). */
      recordUpdate: (code: string, key: string) =>
        sql<{ readonly updateKey: string }>`
          INSERT INTO channel_updates (assistant_id, connection_code, update_key)
          SELECT assistant_id, code, ${key} FROM channel_connections WHERE code = ${code}
          ON CONFLICT DO NOTHING RETURNING update_key`.pipe(Effect.map((rows) => rows.length > 0)),

      /**
       * Update keys are only needed while a platform may still redeliver (Telegram: 24 hours; WhatsApp: up to 7
       * days, and a message that old is past its reply window, so it is never answered anyway).
       */
      forgetOldUpdates: sql`DELETE FROM channel_updates WHERE received_at < now() - interval '7 days'`.pipe(
        Effect.asVoid,
        Effect.orDie
      ),

      conversationOf: (code: string, chatKey: string) =>
        sql<{ readonly conversationId: string }>`
          SELECT conversation_id FROM channel_conversations WHERE connection_code = ${code} AND chat_key = ${chatKey}`
          .pipe(
            Effect.map((rows) => rows[0]?.conversationId),
            Effect.orDie
          ),

      saveConversation: (code: string, chatKey: string, conversationId: string) =>
        sql`
          INSERT INTO channel_conversations (assistant_id, connection_code, chat_key, conversation_id)
          SELECT assistant_id, code, ${chatKey}, ${conversationId} FROM channel_connections WHERE code = ${code}
          ON CONFLICT (connection_code, chat_key, assistant_id) DO UPDATE SET conversation_id = EXCLUDED.conversation_id, updated_at = now()`
          .pipe(Effect.asVoid, Effect.orDie)
    } as const
  })
}) {}
