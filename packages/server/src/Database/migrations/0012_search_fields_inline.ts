import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Keeps a product's searched fields in its row. A product row is about 2 KB
 * (1 KB of it the halfvec, kept in line since 0010), just above the size
 * where Postgres moves the largest values to TOAST; that was `search_terms`
 * and `search_fields`, so reading a keyword candidate's fields cost a TOAST
 * index lookup and a TOAST page besides its heap page (4 to 5 buffers per
 * candidate, up to 2,000 candidates per search). With `main` storage the
 * row's other values (attributes, description) go out first; those are read
 * only for the page of results. Rows are stored this way when next written
 * (indexing writes the fields).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE products ALTER COLUMN search_fields SET STORAGE MAIN`
})
