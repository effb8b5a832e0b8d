import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Chunk texts compressed with lz4 instead of pglz. A chunk row (its text, its
 * search text and their terms, about 3 KB besides the vector) is over the
 * size at which Postgres compresses a row's values on the way in, so every
 * chunk paid pglz on the ingest's path to ready: lz4 took Postgres's CPU for
 * a 5 MB text from about 0.72 s to 0.62 s (bench:ingest). Applies to rows
 * written from now on. Postgres builds without lz4 (embedded PGlite among
 * them) keep pglz.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    DO $$ BEGIN
      ALTER TABLE document_chunks
        ALTER COLUMN text SET COMPRESSION lz4,
        ALTER COLUMN search_text SET COMPRESSION lz4,
        ALTER COLUMN search_terms SET COMPRESSION lz4;
    EXCEPTION WHEN feature_not_supported THEN NULL;
    END $$`
})
