import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Cheaper chunk writes (text ingest spent most of its time inserting chunks):
 *
 * - Chunk vectors as `halfvec`, like the products' since 0010: half the
 *   bytes, so a row keeps its vector in line without compressing it; chunk
 *   retrieval over halfvecs finds the same chunks (eval:answers).
 * - No `search_vector`: the tsvector and its GIN were written with every chunk
 *   and read by nothing (keyword search goes through `search_terms`).
 * - The term dictionary is filled once per document by the ingest
 *   (`DocumentsRepo.addTerms`) instead of by a statement trigger that
 *   unnested and sorted every term of every insert batch again.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DROP TRIGGER IF EXISTS document_chunks_search_terms_insert ON document_chunks`
  yield* sql`DROP FUNCTION IF EXISTS document_chunks_search_terms_collect()`
  yield* sql`ALTER TABLE document_chunks DROP COLUMN IF EXISTS search_vector`
  yield* sql`ALTER TABLE document_chunks ALTER COLUMN embedding TYPE halfvec USING embedding::halfvec`
  // A type change resets the storage to the type's default; keep vectors in the row (see 0003).
  yield* sql`ALTER TABLE document_chunks ALTER COLUMN embedding SET STORAGE MAIN`
})
