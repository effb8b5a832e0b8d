/**
 * Big catalogs without indexing them one by one: copies of products the real
 * indexer already synced, made in SQL with new ids and externalIds, the same
 * keyword document, and the embedding plus noise of its own (each component
 * uniform in ±noise/2). At the default noise (0.2, about 0.65 in norm against
 * unit vectors) a copy lies about 0.16 in cosine distance from its original
 * and 0.3 from another copy: as far apart as neighbouring products of one
 * generated catalog (median nearest-neighbour distance 0.31). Much smaller
 * noise makes tight clusters of near-duplicates, a harder case for an HNSW
 * graph (try `--noise 0.02`).
 */
import type { Client } from "pg"

/**
 * Adds `copies` copies of every synced product of `sourceAssistant` to each
 * of `targetAssistants`, interleaved (product by product, target by target)
 * as concurrent shops' writes would be; returns the rows written.
 */
export const replicate = async (
  db: Client,
  options: {
    readonly sourceAssistant: string
    readonly targetAssistants: ReadonlyArray<string>
    readonly copies: number
    readonly noise: number
    /** Keeps externalIds unique when one assistant receives several rounds. */
    readonly tag: string
  }
): Promise<number> => {
  const dims = (await db.query<{ dims: number }>(
    `SELECT vector_dims(embedding) AS dims FROM products WHERE assistant_id = $1 AND embedding IS NOT NULL LIMIT 1`,
    [options.sourceAssistant]
  )).rows[0]?.dims
  if (dims === undefined) throw new Error(`assistant ${options.sourceAssistant} has no indexed product to copy`)
  const result = await db.query(
    `WITH copies AS (
       SELECT p.*, t.target, t.k, c, p.external_id || '~' || $5 || c AS new_external_id
       FROM products p
         CROSS JOIN generate_series(0, $3::int - 1) AS c
         CROSS JOIN unnest($2::text[]) WITH ORDINALITY AS t(target, k)
       WHERE p.assistant_id = $1 AND p.index_state = 'synced' AND p.embedding IS NOT NULL
     )
     INSERT INTO products (id, assistant_id, external_id, title, category, subcategory, attributes, description,
       image_url, url, price, currency, in_stock, category_key, subcategory_key, attribute_keys, lookup_key,
       index_state, index_version, indexed_at, search_terms, search_fields, embedding, embedding_model)
     SELECT 'prd_' || substr(md5(random()::text || x.id || x.k || x.c), 1, 24), x.target, x.new_external_id, x.title,
       x.category, x.subcategory, x.attributes, x.description, x.image_url, x.url, x.price, x.currency, x.in_stock,
       x.category_key, x.subcategory_key, x.attribute_keys,
       split_part(x.lookup_key, chr(10), 1) || chr(10) || lower(x.new_external_id),
       'synced', 1, now(), x.search_terms,
       -- externalId words change with the copy's suffix; only the fourth field holds them (the fifth: related words).
       x.search_fields[1:3] || ARRAY[x.search_fields[4] || ' ' || $5 || x.c] || x.search_fields[5:],
       -- A correlated subquery, so each row draws its own noise.
       (x.embedding::vector + (SELECT array_agg((random() - 0.5) * $6::float8)::real[]::vector
                               FROM generate_series(1, $4::int + 0 * x.position)))::halfvec,
       x.embedding_model
     FROM copies x
     ORDER BY x.c, x.position, x.k`,
    [options.sourceAssistant, options.targetAssistants, options.copies, dims, options.tag, options.noise]
  )
  return result.rowCount ?? 0
}
