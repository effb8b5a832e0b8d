import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * The search engine's keyword side (see Search/SearchEngine.ts): each product
 * and chunk carries its distinct normalised words (`search_terms`, GIN) and a
 * product its words per field (`search_fields`: title, classification,
 * attribute values, externalId) for ranking. Each assistant has a term
 * dictionary, filled by statement triggers from what is written, against
 * which misspelt and partial query words are expanded. Terms are never
 * removed: a stale one expands to nothing that matches, which costs nothing.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE EXTENSION IF NOT EXISTS fuzzystrmatch`
  yield* sql`
    CREATE TABLE search_terms (
      assistant_id text NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
      term text NOT NULL,
      PRIMARY KEY (assistant_id, term)
    )`
  // Prefix lookups (search as you type, stems) need pattern ordering whatever the collation.
  yield* sql`CREATE INDEX search_terms_prefix_idx ON search_terms (assistant_id, term text_pattern_ops)`

  yield* sql`ALTER TABLE products ADD COLUMN search_terms text[], ADD COLUMN search_fields text[]`
  yield* sql`CREATE INDEX products_terms_idx ON products USING gin (search_terms)`
  yield* sql`DROP INDEX IF EXISTS products_keyword_idx`
  // Sorted, one statement per batch: concurrent indexers insert in the same order and never deadlock.
  yield* sql`
    CREATE FUNCTION products_search_terms_collect() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO search_terms (assistant_id, term)
      SELECT DISTINCT n.assistant_id, t.term FROM new_rows n, unnest(n.search_terms) AS t(term)
      WHERE n.search_terms IS NOT NULL ORDER BY 1, 2
      ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE TRIGGER products_search_terms_update AFTER UPDATE ON products
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION products_search_terms_collect()`
  yield* sql`
    CREATE TRIGGER products_search_terms_insert AFTER INSERT ON products
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION products_search_terms_collect()`
  // Products indexed before this migration are indexed again to get their terms.
  yield* sql`
    UPDATE products SET index_state = 'pending', index_version = index_version + 1, index_due_at = now(),
      index_attempts = 0
    WHERE index_state = 'synced'`

  yield* sql`
    ALTER TABLE document_chunks ADD COLUMN search_terms text[]
      GENERATED ALWAYS AS (string_to_array(search_text, ' ')) STORED`
  yield* sql`CREATE INDEX document_chunks_terms_idx ON document_chunks USING gin (search_terms)`
  yield* sql`
    CREATE FUNCTION document_chunks_search_terms_collect() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      INSERT INTO search_terms (assistant_id, term)
      SELECT DISTINCT d.assistant_id, t.term
      FROM new_rows n JOIN documents d ON d.id = n.file_id, unnest(n.search_terms) AS t(term)
      WHERE t.term <> '' ORDER BY 1, 2
      ON CONFLICT DO NOTHING;
      RETURN NULL;
    END $$`
  yield* sql`
    CREATE TRIGGER document_chunks_search_terms_insert AFTER INSERT ON document_chunks
    REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION document_chunks_search_terms_collect()`
  yield* sql`
    INSERT INTO search_terms (assistant_id, term)
    SELECT DISTINCT d.assistant_id, t.term
    FROM document_chunks c JOIN documents d ON d.id = c.file_id, unnest(c.search_terms) AS t(term)
    WHERE t.term <> '' ORDER BY 1, 2
    ON CONFLICT DO NOTHING`
})
