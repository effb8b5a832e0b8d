import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/** Messenger channels: connections, the updates already taken in, and one conversation per chat (issue 7). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE channel_connections (
      code text PRIMARY KEY,
      assistant_id text NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
      driver text NOT NULL,
      status text NOT NULL,
      status_reason text,
      bot_username text,
      callback_url text,
      -- AES-256-GCM sealed JSON of the driver's secrets (bot token, hook secret); never returned.
      secrets bytea NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX channel_connections_assistant_idx ON channel_connections (assistant_id, created_at)`
  // A platform may deliver the same update again: its key is recorded once, and only then queued.
  yield* sql`
    CREATE TABLE channel_updates (
      connection_code text NOT NULL REFERENCES channel_connections(code) ON DELETE CASCADE,
      update_key text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (connection_code, update_key)
    )`
  yield* sql`
    CREATE TABLE channel_conversations (
      connection_code text NOT NULL REFERENCES channel_connections(code) ON DELETE CASCADE,
      chat_key text NOT NULL,
      conversation_id text NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (connection_code, chat_key)
    )`
})
