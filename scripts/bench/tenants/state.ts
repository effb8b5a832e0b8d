/** What the tenants benchmark reads from Postgres and /proc: index builds, plans, sizes, the service's memory. */
import * as fs from "node:fs"
import type { Client } from "pg"
import { vectorLiteral } from "../../../packages/server/src/Search/Embedder"
import { embedOne, modelId } from "../../../packages/server/src/Search/OfflineEmbedder"
import { meaningBegin, meaningStatement } from "../catalog/recall"
import { sleep } from "../catalog/service"

/** Resident memory of a process in MB (NaN when it cannot be read). */
export const rssMb = (pid: number): number => {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024
  } catch {
    return Number.NaN
  }
}

/** Waits until `count` valid per-assistant HNSW indexes exist (the service builds them one at a time). */
export const waitForVectorIndexes = async (db: Client, count: number, onProgress: (built: number) => void) => {
  const deadline = performance.now() + 45 * 60_000
  let last = -1
  for (;;) {
    const built = (await db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
       WHERE i.indrelid = 'products'::regclass AND starts_with(c.relname, 'products_hnsw_') AND i.indisvalid`
    )).rows[0]?.n ?? 0
    if (built !== last && built > 0) onProgress(built)
    last = built
    if (built >= count) return
    if (performance.now() > deadline) throw new Error(`${built} of ${count} vector indexes after 45 min`)
    await sleep(1_000)
  }
}

export interface PlanFigures {
  readonly planningMs: number
  readonly executionMs: number
  readonly scan: string
}

/** EXPLAIN ANALYZE of the meaning side's read for one assistant (an unfiltered query): planning and execution. */
export const explainMeaning = async (
  db: Client,
  assistantId: string,
  dims: number,
  products: number
): Promise<PlanFigures> => {
  const vector = vectorLiteral(embedOne("warm wool blanket"))
  await db.query(meaningBegin(products))
  try {
    const runs: Array<PlanFigures> = []
    for (let i = 0; i < 5; i++) {
      const result = await db.query<{ "QUERY PLAN": unknown }>(
        `EXPLAIN (ANALYZE, FORMAT JSON) ${meaningStatement({ query: "" }, dims)}`,
        [assistantId, vector, modelId, 40]
      )
      const plan = JSON.stringify(result.rows[0]?.["QUERY PLAN"])
      const parsed: unknown = JSON.parse(plan)
      const top = Array.isArray(parsed) ? parsed[0] : undefined
      const number = (key: string) => Number(typeof top === "object" && top !== null ? Reflect.get(top, key) : NaN)
      const nodes = [...plan.matchAll(/"Node Type":"([^"]*Scan)"/g)].map((m) => m[1])
      const indexes = [...plan.matchAll(/"Index Name":"([^"]+)"/g)].map((m) =>
        (m[1] ?? "").replace(/_[0-9a-f]{32}$/, "_…")
      )
      runs.push({
        planningMs: number("Planning Time"),
        executionMs: number("Execution Time"),
        scan: `${nodes.join(", ")}${indexes.length > 0 ? ` (${indexes.join(", ")})` : ""}`
      })
    }
    // The first run pays for the catalog caches; the median of the rest is what a warm backend pays.
    const warm = runs.slice(1).sort((a, b) => a.planningMs - b.planningMs)
    return warm[Math.floor(warm.length / 2)] ?? { planningMs: NaN, executionMs: NaN, scan: "?" }
  } finally {
    await db.query("ROLLBACK")
  }
}

export interface Sizes {
  readonly database: string
  readonly tables: ReadonlyArray<
    { readonly table: string; readonly heap: string; readonly indexes: string; readonly total: string }
  >
  readonly hnswIndexes: number
  readonly hnswSize: string
}

/** The database's size, the biggest tables (heap with TOAST, and indexes), and the per-assistant HNSW indexes. */
export const databaseSizes = async (db: Client): Promise<Sizes> => {
  const database = (await db.query<{ size: string }>(
    "SELECT pg_size_pretty(pg_database_size(current_database())) AS size"
  )).rows[0]?.size ?? "?"
  const tables = (await db.query<{ table: string; heap: string; indexes: string; total: string }>(
    `SELECT c.relname AS table, pg_size_pretty(pg_table_size(c.oid)) AS heap,
       pg_size_pretty(pg_indexes_size(c.oid)) AS indexes, pg_size_pretty(pg_total_relation_size(c.oid)) AS total
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE c.relkind = 'r' AND n.nspname = 'public'
     ORDER BY pg_total_relation_size(c.oid) DESC LIMIT 5`
  )).rows
  const hnsw = (await db.query<{ n: number; size: string }>(
    `SELECT count(*)::int AS n, pg_size_pretty(coalesce(sum(pg_relation_size(oid)), 0)) AS size FROM pg_class
     WHERE starts_with(relname, 'products_hnsw_')`
  )).rows[0]
  return { database, tables, hnswIndexes: hnsw?.n ?? 0, hnswSize: hnsw?.size ?? "?" }
}

/**
 * Blocks of tables and indexes that Postgres found in its shared buffers (hit) and read from outside them (read),
 * since the statistics began: the difference over a stretch shows how much of a shop's first search waits on pages
 * not yet in shared buffers. Backends report these at most once a second, so a stretch's figures are approximate.
 */
export const bufferBlocks = async (db: Client): Promise<{ readonly hit: number; readonly read: number }> => {
  const row = (await db.query<{ hit: string; read: string }>(
    `SELECT sum(coalesce(heap_blks_hit, 0) + coalesce(idx_blks_hit, 0) + coalesce(toast_blks_hit, 0)
               + coalesce(tidx_blks_hit, 0))::text AS hit,
            sum(coalesce(heap_blks_read, 0) + coalesce(idx_blks_read, 0) + coalesce(toast_blks_read, 0)
               + coalesce(tidx_blks_read, 0))::text AS read
     FROM pg_statio_user_tables`
  )).rows[0]
  return { hit: Number(row?.hit ?? 0), read: Number(row?.read ?? 0) }
}
