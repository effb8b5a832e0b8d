/**
 * What the catalog benchmark asks of the service's Postgres directly: settling after a bulk copy, waiting for the
 * service's vector indexes, and the facts the report prints (rows, the embedding's size, versions, table sizes).
 */
import type { Client } from "pg"
import { modelId as offlineModelId } from "../../../packages/server/src/Search/OfflineEmbedder"
import { sleep } from "./service"
import { round, since } from "./stats"

/**
 * After a bulk copy: what autovacuum does after a bulk load on a production server (it is off on this
 * machine's Postgres), then a checkpoint, so that the copy's hint bits and dirty pages are not written
 * out during the measurements that follow.
 */
export const settle = async (db: Client) => {
  await db.query("VACUUM (ANALYZE) products")
  await db.query("CHECKPOINT")
}

/** Waits until the service has built the assistant's own vector index (it does so in the background); returns ms. */
export const waitForVectorIndex = async (db: Client, assistantId: string): Promise<number> => {
  const start = performance.now()
  for (;;) {
    const found = await db.query<{ valid: boolean }>(
      `SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = 'products'::regclass AND starts_with(c.relname, 'products_hnsw_')
         AND strpos(pg_get_expr(i.indpred, i.indrelid), $1) > 0`,
      [assistantId]
    )
    if (found.rows.some((row) => row.valid)) return round(since(start), 0)
    if (since(start) > 600_000) throw new Error(`no vector index for ${assistantId} 600 s after it grew`)
    await sleep(250)
  }
}

export const countRows = async (db: Client) =>
  (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM products")).rows[0]?.n ?? 0

export const readPgvectorVersion = async (db: Client) =>
  (await db.query<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'"))
    .rows[0]?.v ?? "?"

/** The dimensions of the products' embeddings, after checking the offline embedder made every one of them. */
export const embeddingDims = async (db: Client): Promise<number> => {
  const models = (await db.query<{ model: string | null; dims: number | null }>(
    "SELECT DISTINCT embedding_model AS model, vector_dims(embedding) AS dims FROM products"
  )).rows
  const model = models[0]
  if (models.length !== 1 || model?.model !== offlineModelId || model.dims === null) {
    throw new Error(`expected every product embedded by ${offlineModelId}, found ${JSON.stringify(models)}`)
  }
  return model.dims
}

/** The products table's sizes as the report prints them. */
export const tableSizes = async (db: Client) =>
  (await db.query<{ heap: string; toast: string; indexes: string; hnsw: string; embedding: number }>(
    `SELECT pg_size_pretty(pg_relation_size('products')) AS heap,
       pg_size_pretty(coalesce(pg_relation_size(NULLIF(c.reltoastrelid, 0)), 0)) AS toast,
       pg_size_pretty(pg_indexes_size('products')) AS indexes,
       (SELECT pg_size_pretty(sum(pg_relation_size(oid))) FROM pg_class
        WHERE starts_with(relname, 'products_hnsw_')) AS hnsw,
       (SELECT avg(pg_column_size(embedding))::int FROM products TABLESAMPLE SYSTEM (1)) AS embedding
     FROM pg_class c WHERE c.oid = 'products'::regclass`
  )).rows[0]
