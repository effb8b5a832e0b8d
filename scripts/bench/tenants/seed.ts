/**
 * The thousand shops of the tenants benchmark: their sizes, their accounts
 * (made through the operator API), and their catalogs and documents copied
 * in SQL from one shop the real indexer and ingest worker filled, as a bulk
 * load would be: new ids and externalIds, the same keyword document, the
 * embedding plus noise of its own (each component uniform in ±noise/2, drawn
 * from a table of 1,000 noise vectors so that a million rows cost additions,
 * not a million draws of 512 numbers).
 */
import type { Client } from "pg"
import { random } from "../catalog/products"
import { createShop, type Service, type Shop, sleep } from "../catalog/service"

export type Size = "big" | "large" | "small"

export interface PlannedShop {
  readonly size: Size
  readonly products: number
}

/**
 * One shop of 50k, 3% of the shops at 10k, the rest from 100 to 1,000 (skewed towards 1,000: most shops that
 * bother to import a feed have a few hundred products), all times `scale`. At 1,000 shops about a million products.
 */
export const planShops = (shops: number, scale: number): ReadonlyArray<PlannedShop> => {
  const rng = random(35)
  const large = Math.max(1, Math.round(shops * 0.03))
  const at = (n: number) => Math.max(1, Math.round(n * scale))
  return Array.from({ length: shops }, (_, i): PlannedShop =>
    i === 0
      ? { size: "big", products: at(50_000) }
      : i <= large
      ? { size: "large", products: at(10_000) }
      : { size: "small", products: at(100 + 900 * Math.sqrt(rng.next())) })
}

/** Accounts with one key and one assistant each, `concurrency` made at a time. */
export const createShops = async (
  service: Service,
  count: number,
  concurrency: number,
  onProgress: (made: number) => void
): Promise<ReadonlyArray<Shop>> => {
  const shops: Array<Shop> = []
  let next = 0
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      shops[i] = await createShop(service, `tenant ${i}`, "pro")
      if (i % 100 === 99) onProgress(i + 1)
    }
  }
  await Promise.all(Array.from({ length: concurrency }, worker))
  return shops
}

/** Waits until every job of the assistant is `ready` (the documents the copies are made from). */
export const waitForDocuments = async (db: Client, assistantId: string, jobs: number) => {
  const deadline = performance.now() + 300_000
  for (;;) {
    const rows = (await db.query<{ status: string; n: number }>(
      `SELECT status, count(*)::int AS n FROM document_jobs WHERE assistant_id = $1 GROUP BY status`,
      [assistantId]
    )).rows
    const ready = rows.find((row) => row.status === "ready")?.n ?? 0
    const failed = rows.find((row) => row.status === "failed")?.n ?? 0
    if (failed > 0) throw new Error(`${failed} source documents failed to ingest`)
    if (ready >= jobs) return
    if (performance.now() > deadline) throw new Error(`source documents not ready after 300 s: ${JSON.stringify(rows)}`)
    await sleep(200)
  }
}

/** The noise table and the numbered source rows, on the bench's own session (temporary tables). */
export const prepareCopies = async (db: Client, sourceAssistant: string, noise: number) => {
  const dims = (await db.query<{ dims: number }>(
    `SELECT vector_dims(embedding) AS dims FROM products WHERE assistant_id = $1 AND embedding IS NOT NULL LIMIT 1`,
    [sourceAssistant]
  )).rows[0]?.dims
  if (dims === undefined) throw new Error(`assistant ${sourceAssistant} has no indexed product to copy`)
  await db.query(
    `CREATE TEMP TABLE bench_noise AS
     SELECT j, (SELECT array_agg((random() - 0.5) * $2::float8)::real[]::vector
                FROM generate_series(1, $1::int + 0 * j)) AS v
     FROM generate_series(0, 999) AS j`,
    [dims, noise]
  )
  const sourceRows = await db.query(
    `CREATE TEMP TABLE bench_source AS
     SELECT p.*, (row_number() OVER (ORDER BY position) - 1)::int AS r FROM products p
     WHERE p.assistant_id = $1 AND p.index_state = 'synced' AND p.embedding IS NOT NULL`,
    [sourceAssistant]
  )
  return { dims, sourceProducts: sourceRows.rowCount ?? 0 }
}

/**
 * `counts[i]` products for `targets[i]`: source row `g mod n` with the suffix `~(g div n)` on its externalId (so the
 * big shop's re-import can name them), each shop's rows together as one import writes them.
 */
export const copyProducts = async (
  db: Client,
  targets: ReadonlyArray<string>,
  counts: ReadonlyArray<number>,
  sourceProducts: number
): Promise<number> => {
  const result = await db.query(
    `INSERT INTO products (id, assistant_id, external_id, title, category, subcategory, attributes, description,
       image_url, url, price, currency, in_stock, category_key, subcategory_key, attribute_keys, lookup_key,
       index_state, index_version, indexed_at, search_terms, search_fields, embedding, embedding_model)
     SELECT 'prd_' || substr(md5(t.target || '/' || g), 1, 24), t.target, x.new_external_id, s.title,
       s.category, s.subcategory, s.attributes, s.description, s.image_url, s.url, s.price, s.currency, s.in_stock,
       s.category_key, s.subcategory_key, s.attribute_keys,
       split_part(s.lookup_key, chr(10), 1) || chr(10) || lower(x.new_external_id),
       'synced', 1, now(), s.search_terms,
       -- externalId words change with the copy's suffix; only the last field holds them.
       s.search_fields[1:3] || ARRAY[s.search_fields[4] || ' ' || (g / $3::int)],
       (s.embedding::vector + n.v)::halfvec, s.embedding_model
     FROM unnest($1::text[], $2::int[]) AS t(target, count)
       CROSS JOIN LATERAL generate_series(0, t.count - 1) AS g
       JOIN bench_source s ON s.r = g % $3::int
       -- Copies of one source row in one shop each get other noise: identical vectors would share HNSW elements.
       JOIN bench_noise n ON n.j = abs(hashtext(t.target) % 1000 + g % $3::int + 7 * (g / $3::int)) % 1000
       CROSS JOIN LATERAL (SELECT s.external_id || '~' || (g / $3::int) AS new_external_id) x
     ORDER BY t.target, g`,
    [targets, counts, sourceProducts]
  )
  return result.rowCount ?? 0
}

/** The source assistant's ready documents and their chunks, copied to each target with noisy embeddings. */
export const copyDocuments = async (db: Client, sourceAssistant: string, targets: ReadonlyArray<string>) => {
  const newId = `'file_' || substr(md5(t.target || '/' || d.id), 1, 24)`
  await db.query(
    `INSERT INTO documents (id, assistant_id, job_id, path, state, n_chunks, size_bytes)
     SELECT ${newId}, t.target, d.job_id, d.path, 'ready', d.n_chunks, d.size_bytes
     FROM unnest($1::text[]) AS t(target) CROSS JOIN documents d
     WHERE d.assistant_id = $2 AND d.state = 'ready'`,
    [targets, sourceAssistant]
  )
  const chunks = await db.query(
    `INSERT INTO document_chunks (file_id, chunk, text, search_text, model_id, embedding, heading_path, assistant_id)
     SELECT ${newId}, c.chunk, c.text, c.search_text, c.model_id, (c.embedding::vector + n.v)::halfvec,
       c.heading_path, t.target
     FROM unnest($1::text[]) AS t(target)
       CROSS JOIN documents d JOIN document_chunks c ON c.file_id = d.id AND c.assistant_id = d.assistant_id
       JOIN bench_noise n ON n.j = abs(hashtext(t.target) + c.chunk * 7) % 1000
     WHERE d.assistant_id = $2 AND d.state = 'ready'`,
    [targets, sourceAssistant]
  )
  return chunks.rowCount ?? 0
}

/**
 * Builds an index, again if Postgres chose the build as a deadlock's victim: the service may be building a shop's
 * vector index concurrently meanwhile, whose wait on running transactions can close a cycle with this build.
 */
const buildIndex = async (db: Client, definition: string, attempts = 5): Promise<void> => {
  try {
    await db.query(definition)
  } catch (error) {
    const deadlock = error instanceof Error && Reflect.get(error, "code") === "40P01"
    if (!deadlock || attempts <= 1) throw error
    await buildIndex(db, definition, attempts - 1)
  }
}

/**
 * Runs `load` with the products' secondary indexes dropped and builds them again afterwards, as a bulk load
 * does: building a GIN once is far cheaper than a million row-by-row insertions into it. Keys, constraints and
 * partial indexes stay (the indexer's poll reads the one over unsynced rows every second). Returns the
 * milliseconds the rebuild took.
 */
export const withoutSecondaryIndexes = async (db: Client, load: () => Promise<void>): Promise<number> => {
  const indexes = (await db.query<{ name: string; definition: string }>(
    `SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS definition
     FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
     WHERE i.indrelid = 'products'::regclass AND NOT i.indisprimary AND NOT i.indisunique
       AND i.indpred IS NULL`
  )).rows
  for (const index of indexes) await db.query(`DROP INDEX ${index.name}`)
  await load()
  const start = performance.now()
  await db.query("SET maintenance_work_mem = '1GB'")
  for (const index of indexes) await buildIndex(db, index.definition)
  await db.query("RESET maintenance_work_mem")
  return performance.now() - start
}
