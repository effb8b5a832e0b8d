/**
 * The service's meaning side against the exact answer: recall@k of
 * `POST /products/search` with `semanticRatio: 1` (meaning only: a large
 * assistant's own HNSW index with iterative scans, a small one's exact scan)
 * against the exact top k computed in SQL with index scans off, for the same
 * queries and filters. Also the statements the benchmark sends straight to
 * Postgres, written as the service writes them.
 */
import type { Client } from "pg"
import { efSearchFor, meaningPool } from "../../../packages/server/src/Products/HybridSearch"
import { vectorLiteral } from "../../../packages/server/src/Search/Embedder"
import { embedOne } from "../../../packages/server/src/Search/OfflineEmbedder"
import { categoryKey } from "../../../packages/server/src/Search/TextNormalization"
import type { BenchQuery } from "./products"
import { type Latency, round, since, summarize } from "./stats"

export { efSearchFor, meaningPool }

/** The query's filters as SQL, as the service applies them (category key, price bounds). */
export const filterSql = (query: BenchQuery): string =>
  [
    ...(query.category === undefined ? [] : [`category_key = '${categoryKey(query.category).replace(/'/g, "''")}'`]),
    ...(query.minPrice === undefined ? [] : [`price >= ${Number(query.minPrice)}`]),
    ...(query.maxPrice === undefined ? [] : [`price <= ${Number(query.maxPrice)}`])
  ].map((filter) => ` AND ${filter}`).join("")

/** The meaning side's statement, as the service sends it ($1 assistant, $2 query vector, $3 model, $4 limit). */
export const meaningStatement = (query: BenchQuery, dims: number, column = "id") => {
  const distance = `embedding::halfvec(${dims}) <=> $2::halfvec(${dims})`
  return `SELECT ${column}, ${distance} AS distance FROM products
    WHERE assistant_id = $1${filterSql(query)} AND embedding_model = $3 ORDER BY ${distance} LIMIT $4`
}

/** A transaction with the meaning side's HNSW settings (for EXPLAIN). */
export const meaningBegin = (products: number) =>
  `BEGIN; SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${efSearchFor(products)}`

/**
 * The meaning side as the service sends it: both settings and the read in one simple-protocol message (one
 * implicit transaction), its values written in.
 */
export const meaningMessage = (
  query: BenchQuery,
  dims: number,
  values: {
    readonly assistantId: string
    readonly vector: string
    readonly model: string
    readonly limit: number
    /** The assistant's catalog size, which sets `hnsw.ef_search` as the service does. */
    readonly products: number
  }
) => {
  const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`
  const read = meaningStatement(query, dims)
    .replaceAll("$1", quoted(values.assistantId))
    .replaceAll("$2", quoted(values.vector))
    .replaceAll("$3", quoted(values.model))
    .replaceAll("$4", String(values.limit))
  return `SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${
    efSearchFor(values.products)
  }; ${read}`
}

export interface RecallFigures {
  readonly k: number
  readonly queries: number
  readonly recall: number
  /** Queries whose top k was entirely right. */
  readonly perfect: number
  /** The service's meaning-only searches over HTTP. */
  readonly latency: Latency
  /** The exact top k in SQL (index scans off). */
  readonly exactLatency: Latency
  /** The scan nodes of the service's statement for an unfiltered query. */
  readonly plan: string
}

/** The scan nodes of a plan: "Index Scan using products_hnsw_…", "Bitmap Heap Scan" … */
const scanNodes = (plan: unknown): ReadonlyArray<string> => {
  if (typeof plan !== "object" || plan === null) return []
  const type = Reflect.get(plan, "Node Type")
  const index = Reflect.get(plan, "Index Name")
  const own = typeof type === "string" && type.includes("Scan")
    ? [typeof index === "string" ? `${type} using ${index}` : type]
    : []
  const children = Reflect.get(plan, "Plans")
  return [...own, ...(Array.isArray(children) ? children.flatMap(scanNodes) : [])]
}

/**
 * Compares the service's meaning-only results with the exact top k, query by
 * query (the first `warmup` not counted), until the queries or the time budget run out.
 */
export const measureRecall = async (
  db: Client,
  search: (query: BenchQuery, k: number) => Promise<ReadonlyArray<string>>,
  options: {
    readonly assistantId: string
    readonly embeddingModel: string
    readonly dims: number
    /** The assistant's catalog size (sets `hnsw.ef_search` as the service does). */
    readonly products: number
    readonly queries: ReadonlyArray<BenchQuery>
    readonly k: number
    readonly warmup: number
    readonly budgetMs: number
  }
): Promise<RecallFigures> => {
  const { assistantId, embeddingModel, dims, k } = options
  const unfiltered = options.queries.find((query) => filterSql(query) === "") ?? { query: "kettle" }
  await db.query(meaningBegin(options.products))
  const explained = await db.query<{ "QUERY PLAN": unknown }>(
    `EXPLAIN (FORMAT JSON) ${meaningStatement(unfiltered, dims)}`,
    [assistantId, vectorLiteral(embedOne(unfiltered.query)), embeddingModel, meaningPool]
  )
  await db.query("COMMIT")
  const root: unknown = explained.rows[0]?.["QUERY PLAN"]
  const plan = scanNodes(Array.isArray(root) ? Reflect.get(root[0], "Plan") : undefined).join(" + ")

  const serviceMs: Array<number> = []
  const exactMs: Array<number> = []
  const recalls: Array<number> = []
  let measuring = 0
  for (const [i, query] of options.queries.entries()) {
    if (i === options.warmup) measuring = performance.now()
    if (recalls.length >= 10 && since(measuring) > options.budgetMs) break
    const vector = vectorLiteral(embedOne(query.query))
    let start = performance.now()
    const found = await search(query, k)
    const ms = since(start)
    await db.query("BEGIN")
    await db.query("SET LOCAL enable_indexscan = off")
    start = performance.now()
    const exact = (await db.query<{ external_id: string; distance: number }>(
      meaningStatement(query, dims, "external_id"),
      [assistantId, vector, embeddingModel, k]
    )).rows
    const exactTook = since(start)
    await db.query("COMMIT")
    if (i < options.warmup) continue
    serviceMs.push(ms)
    exactMs.push(exactTook)
    if (exact.length === 0) continue
    // Ties at the k-th distance count as right, whichever of them the service returns.
    const kth = exact.at(-1)?.distance ?? Number.POSITIVE_INFINITY
    const distances = (await db.query<{ distance: number }>(
      `SELECT embedding::halfvec(${dims}) <=> $2::halfvec(${dims}) AS distance FROM products
       WHERE assistant_id = $1 AND external_id = ANY($3)`,
      [assistantId, vector, found.slice(0, k)]
    )).rows
    const right = distances.filter((row) => row.distance <= kth + 1e-6).length
    recalls.push(Math.min(right, exact.length) / exact.length)
  }
  const mean = recalls.reduce((sum, value) => sum + value, 0) / Math.max(1, recalls.length)
  return {
    k,
    queries: recalls.length,
    recall: round(mean, 3),
    perfect: recalls.filter((value) => value === 1).length,
    latency: summarize(serviceMs),
    exactLatency: summarize(exactMs),
    plan
  }
}
