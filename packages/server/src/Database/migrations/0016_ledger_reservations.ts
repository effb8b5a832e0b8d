import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * The cost ledger holds reservations: a chat turn writes its row, with an
 * estimate in `reserved_tokens`, before any provider is called, and settles
 * it (the tokens spent, `reserved_tokens` 0) after. The month's usage counts
 * both, so concurrent turns cannot all pass the same check. `kind` tells a
 * chat turn from the embeddings and transcriptions of background work.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE cost_ledger
      ADD COLUMN reserved_tokens integer NOT NULL DEFAULT 0,
      ADD COLUMN transcription_tokens integer NOT NULL DEFAULT 0,
      ADD COLUMN kind text NOT NULL DEFAULT 'chat'`
})
