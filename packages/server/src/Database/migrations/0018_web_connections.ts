import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * The website widget's settings, one row per `web` connection (issue 31): allowed origins, look and
 * limits, as the domain's `WebSettings` JSON. Kept beside the connection row, not in it, so other
 * drivers' columns stay as they are.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE web_connections (
      connection_code text PRIMARY KEY REFERENCES channel_connections(code) ON DELETE CASCADE,
      settings jsonb NOT NULL,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
})
