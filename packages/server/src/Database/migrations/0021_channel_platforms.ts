import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Bale and WhatsApp connections (issue 32): a WhatsApp connection's phone
 * number ID (not a secret, shown to the operator), and the messages no reply
 * could be sent to (WhatsApp allows free-form replies only within 24 hours of
 * the customer's last message), kept so the operator can follow them up.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE channel_connections ADD COLUMN phone_number_id text`
  yield* sql`
    CREATE TABLE channel_unanswered (
      connection_code text NOT NULL REFERENCES channel_connections(code) ON DELETE CASCADE,
      message_key text NOT NULL,
      chat_key text NOT NULL,
      text text,
      reason text NOT NULL,
      sent_at timestamptz NOT NULL,
      recorded_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (connection_code, message_key)
    )`
})
