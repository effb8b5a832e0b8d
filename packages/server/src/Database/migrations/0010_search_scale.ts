import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Product search at scale (see Products/HybridSearch.ts and Products/VectorIndexes.ts):
 *
 * - Vectors as `halfvec`: half the bytes (1 KiB at 512 dimensions), so a
 *   product row stays in line under the TOAST threshold and an exact scan
 *   reads no TOAST chunks; recall@10 against float32 is unchanged (bench:catalog).
 * - Keyword candidates through a GIN over the terms scoped by assistant
 *   ("<assistant> <term>"): a lookup reads that assistant's postings only,
 *   instead of every assistant's postings intersected with a bitmap of all the
 *   assistant's products.
 *
 * The HNSW indexes of large assistants are made and dropped at run time.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE products ALTER COLUMN embedding TYPE halfvec USING embedding::halfvec`
  // A type change resets the storage to the type's default; keep vectors in the row (see 0002).
  yield* sql`ALTER TABLE products ALTER COLUMN embedding SET STORAGE MAIN`
  yield* sql`
    CREATE FUNCTION products_scoped_terms(assistant text, terms text[]) RETURNS text[]
    LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$ SELECT ARRAY(SELECT assistant || ' ' || t FROM unnest(terms) AS t) $$`
  // No pending list (fastupdate): rows found there are rechecked by calling the function again, row by row,
  // which made a search right after an import several times slower than the same search later.
  yield* sql`
    CREATE INDEX products_scoped_terms_idx ON products
    USING gin (products_scoped_terms(assistant_id, search_terms)) WITH (fastupdate = off)`
  yield* sql`DROP INDEX IF EXISTS products_terms_idx`
})
