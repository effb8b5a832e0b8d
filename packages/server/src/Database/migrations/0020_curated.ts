import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Curated answers (issue 33): the shop's own answer to a question, served in
 * chat when a question matches one of its variants. Each variant keeps its
 * normalised terms and its vector (with the embedder that made it), so a
 * match never embeds the stored side again.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE curated_answers (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      assistant_id text NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
      questions jsonb NOT NULL,
      answer text NOT NULL,
      language text,
      model_id text NOT NULL,
      variants jsonb NOT NULL,
      hit_count integer NOT NULL DEFAULT 0,
      last_hit_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX curated_answers_assistant_idx ON curated_answers (assistant_id, updated_at DESC)`
})
