import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Chunk terms compared byte by byte: writing a chunk sorts its words into the
 * GIN over `document_chunks.search_terms`, and under the database's collation
 * each comparison went through the locale (a fifth of the Postgres time of a
 * chunk insert). Terms are normalised words matched by equality alone (`&&`),
 * which the "C" collation answers the same; queries use the index as before.
 * Rewrites the table and its indexes once.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE document_chunks ALTER COLUMN search_terms TYPE text[] COLLATE "C"`
})
