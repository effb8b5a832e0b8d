import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Product catalog: the products as written, derived keys for filters, and the
 * search representation the indexer keeps (keyword document and embedding).
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE products (
      id text PRIMARY KEY,
      assistant_id text NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
      external_id text NOT NULL,
      -- Order of first creation, for the list and its cursor.
      position bigint GENERATED ALWAYS AS IDENTITY,
      title text NOT NULL,
      category text,
      subcategory text,
      attributes jsonb NOT NULL DEFAULT '{}',
      description text,
      image_url text,
      url text,
      price double precision,
      currency text,
      in_stock boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      -- Normalised keys (see Search/TextNormalization.ts), written with the product.
      category_key text,
      subcategory_key text,
      attribute_keys jsonb NOT NULL DEFAULT '{}',
      lookup_key text NOT NULL,
      -- Search indexing: each search-relevant change bumps index_version; the
      -- indexer marks a product synced only for the version it computed.
      index_state text NOT NULL DEFAULT 'pending',
      index_version integer NOT NULL DEFAULT 1,
      indexed_at timestamptz,
      index_attempts integer NOT NULL DEFAULT 0,
      index_error text,
      index_due_at timestamptz NOT NULL DEFAULT now(),
      index_lease_until timestamptz,
      search_document tsvector,
      embedding vector,
      embedding_model text,
      UNIQUE (assistant_id, external_id)
    )`
  // Keep vectors in the row (out-of-line TOAST would cost an extra fetch per row
  // of the exact per-assistant scan; measured about twice as slow).
  yield* sql`ALTER TABLE products ALTER COLUMN embedding SET STORAGE MAIN`
  yield* sql`CREATE INDEX products_list_idx ON products (assistant_id, position)`
  yield* sql`CREATE INDEX products_lookup_idx ON products USING gin (lookup_key gin_trgm_ops)`
  yield* sql`CREATE INDEX products_keyword_idx ON products USING gin (search_document)`
  yield* sql`CREATE INDEX products_category_idx ON products (assistant_id, category_key)`
  yield* sql`CREATE INDEX products_unsynced_idx ON products (index_due_at) WHERE index_state <> 'synced'`
})
