import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * A product's hidden search field now holds the parts of its title's compound
 * words (see Search/WordParts.ts). Products indexed before that are indexed
 * again, so a catalog searches the same whether it was written before or after
 * the upgrade; the fair queue spreads the work across shops.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    UPDATE products SET index_state = 'pending', index_version = index_version + 1, index_due_at = now(),
      index_attempts = 0
    WHERE index_state = 'synced'`
})
