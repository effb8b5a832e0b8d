import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Products waiting for the indexer, by assistant: a shop's turn claims its
 * own oldest due products, and the indexer's sweeper finds the shops with any
 * (one probe per shop, see Products/ProductIndexer.ts), without reading
 * through another shop's backlog of thousands. The index by due time alone
 * served a sweeper that took any shop's due products; nothing reads it now.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE INDEX products_unsynced_by_assistant_idx ON products (assistant_id, index_due_at)
    WHERE index_state <> 'synced'`
  yield* sql`DROP INDEX IF EXISTS products_unsynced_idx`
})
