import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * The heading path of each chunk ("6. Debian archives › 6.2.2 Where do these
 * codenames come from?"), as the chunker found it. Its words are also part of
 * the chunk's `search_text`; chunks stored before this are left empty.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE document_chunks ADD COLUMN heading_path text NOT NULL DEFAULT ''`
})
