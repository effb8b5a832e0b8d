import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * A product's description is indexed since this migration, as described
 * terms (Search/CatalogAssociations.ts): products with one that were indexed
 * before are indexed again to get them. Products without one keep their
 * index as it is.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    UPDATE products SET index_state = 'pending', index_version = index_version + 1, index_due_at = now(),
      index_attempts = 0
    WHERE index_state = 'synced' AND description IS NOT NULL AND description <> ''`
})
