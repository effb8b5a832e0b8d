import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Cheaper writes of products' terms, which were most of the indexer's time:
 *
 * - The scoped-terms GIN (0010) takes new entries into its pending list
 *   again: inserting a batch's terms into the index one by one cost more
 *   than merging the list, which sorts them by term first. The indexer
 *   merges the list after each batch it stores (Products/ProductIndexer.ts),
 *   so once indexing is done a search rechecks no rows found there; the
 *   limit bounds the list should a merge be missed.
 * - The dictionary trigger (0007) on update reads only the rows whose terms
 *   changed: the dictionary keeps every term it was given, so an update that
 *   leaves a product's terms as they were (an import's, the indexer's lease)
 *   has nothing to add, and re-reading them all cost each such statement.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER INDEX products_scoped_terms_idx SET (fastupdate = on, gin_pending_list_limit = 1024)`
  yield* sql`
    CREATE FUNCTION products_search_terms_collect_changed() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO search_terms (assistant_id, term)
      SELECT DISTINCT n.assistant_id, t.term
      FROM new_rows n JOIN old_rows o ON o.id = n.id AND o.assistant_id = n.assistant_id,
        unnest(n.search_terms) AS t(term)
      WHERE n.search_terms IS NOT NULL AND n.search_terms IS DISTINCT FROM o.search_terms
      ORDER BY 1, 2
      ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`
  yield* sql`DROP TRIGGER products_search_terms_update ON products`
  yield* sql`
    CREATE TRIGGER products_search_terms_update AFTER UPDATE ON products
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT
    EXECUTE FUNCTION products_search_terms_collect_changed()`
})
