import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Synonyms per assistant (issue 34): a multi-way set (`root` null, each term
 * stands for every other) or a one-way rule (a query with `root` also finds
 * the `synonyms`). Terms are kept as written and as normalised words; search
 * expands queries with them at query time, so nothing is re-indexed.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE search_synonyms (
      id text NOT NULL,
      assistant_id text NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
      root text,
      synonyms text[] NOT NULL,
      position bigserial NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      -- The tenant key in the primary key, as Citus needs of a distributed table (Database/Distribution.ts).
      PRIMARY KEY (id, assistant_id)
    )`
  yield* sql`CREATE INDEX search_synonyms_assistant ON search_synonyms (assistant_id, position)`
})
