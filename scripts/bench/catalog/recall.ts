/**
 * Filtered nearest-neighbour search within one assistant among many: the
 * service's exact scan against an HNSW index (pgvector) with the assistant
 * as a filter, plain and with pgvector 0.8's iterative index scans. Recall@k
 * of each against the exact top k, and SQL latency on one connection.
 */
import type { Client } from "pg"
import { type Latency, round, since, summarize } from "./stats"

export const indexName = "products_embedding_hnsw_bench"

export type Method = "exact scan" | "hnsw" | "hnsw relaxed_order" | "hnsw strict_order"
export const methods: ReadonlyArray<Method> = ["exact scan", "hnsw", "hnsw relaxed_order", "hnsw strict_order"]

export interface MethodFigures {
  readonly method: Method
  readonly recall: number
  /** Queries whose top k was entirely right. */
  readonly perfect: number
  /** Rows returned on average (a filtered index scan may return fewer than k). */
  readonly rows: number
  readonly latency: Latency
  /** The plan's scan node, to show which index answered. */
  readonly plan: string
}

export interface RecallFigures {
  readonly k: number
  readonly queries: number
  readonly efSearch: string
  readonly maxScanTuples: string
  readonly methods: ReadonlyArray<MethodFigures>
}

/**
 * The HNSW index the service does not have: on the cast expression, since the
 * column is an untyped `vector` (several embedders, several dimensions).
 * Built with pgvector's defaults (m 16, ef_construction 64); returns build ms.
 */
export const createHnswIndex = async (db: Client, dims: number): Promise<number> => {
  await db.query(`SET maintenance_work_mem = '1GB'`)
  await db.query(`SET max_parallel_maintenance_workers = 2`)
  const start = performance.now()
  await db.query(`CREATE INDEX ${indexName} ON products USING hnsw ((embedding::vector(${dims})) vector_cosine_ops)`)
  const elapsed = since(start)
  await db.query(`RESET maintenance_work_mem`)
  await db.query(`RESET max_parallel_maintenance_workers`)
  await db.query(`ANALYZE products`)
  return elapsed
}

const statementOf = (method: Method, dims: number): string => {
  // The service's meaning side, word for word: this form cannot use the expression index.
  if (method === "exact scan") {
    return `SELECT id, embedding <=> $2::vector AS distance FROM products
      WHERE assistant_id = $1 AND embedding_model = $3 ORDER BY embedding <=> $2::vector LIMIT $4`
  }
  const indexed = `SELECT id, embedding::vector(${dims}) <=> $2::vector(${dims}) AS distance FROM products
    WHERE assistant_id = $1 AND embedding_model = $3 ORDER BY embedding::vector(${dims}) <=> $2::vector(${dims}) LIMIT $4`
  // Iterative scans may return neighbours slightly out of order: pgvector's advice is to sort them again.
  return method === "hnsw" ? indexed : `WITH found AS MATERIALIZED (${indexed}) SELECT * FROM found ORDER BY distance`
}

/**
 * Session settings per method. `enable_sort = off` makes the planner take the
 * HNSW index rather than the assistant's btree and a sort, which it may
 * prefer; that is the plan a service using the index would have to force.
 */
const settingsOf = (method: Method): ReadonlyArray<string> => {
  switch (method) {
    case "exact scan":
      return ["RESET enable_sort", "SET hnsw.iterative_scan = off"]
    case "hnsw":
      return ["SET enable_sort = off", "SET hnsw.iterative_scan = off"]
    case "hnsw relaxed_order":
      return ["SET enable_sort = off", "SET hnsw.iterative_scan = relaxed_order"]
    case "hnsw strict_order":
      return ["SET enable_sort = off", "SET hnsw.iterative_scan = strict_order"]
  }
}

interface Row {
  readonly id: string
  readonly distance: number
}

/** The scan nodes of a plan: "Index Scan using products_embedding_hnsw_bench", "Bitmap Heap Scan on products" … */
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

/** Compares each method with the exact scan on the same query vectors, interleaved so machine noise hits all alike. */
export const measureRecall = async (
  db: Client,
  options: {
    readonly assistantId: string
    readonly embeddingModel: string
    readonly dims: number
    /** pgvector text literals; the first `warmup` are not counted. */
    readonly queryVectors: ReadonlyArray<string>
    readonly k: number
    readonly warmup: number
    /** Stops after this much measuring time, once at least 10 queries are counted. */
    readonly budgetMs: number
  }
): Promise<RecallFigures> => {
  const { assistantId, embeddingModel, dims, queryVectors, k, warmup } = options
  const setTo = async (method: Method) => {
    for (const statement of settingsOf(method)) await db.query(statement)
  }
  const run = async (method: Method, vector: string) => {
    const start = performance.now()
    const { rows } = await db.query<Row>(statementOf(method, dims), [assistantId, vector, embeddingModel, k])
    return { rows, ms: since(start) }
  }

  const plans = new Map<Method, string>()
  for (const method of methods) {
    await setTo(method)
    const explained = await db.query<{ "QUERY PLAN": unknown }>(
      `EXPLAIN (FORMAT JSON) ${statementOf(method, dims)}`,
      [assistantId, queryVectors[0] ?? "", embeddingModel, k]
    )
    const root: unknown = explained.rows[0]?.["QUERY PLAN"]
    plans.set(method, scanNodes(Array.isArray(root) ? Reflect.get(root[0], "Plan") : undefined).join(" + "))
  }

  const samples = new Map<Method, { ms: Array<number>; recall: Array<number>; rows: Array<number> }>(
    methods.map((method) => [method, { ms: [], recall: [], rows: [] }])
  )
  let measuring = 0
  let counted = 0
  for (const [i, vector] of queryVectors.entries()) {
    if (i === warmup) measuring = performance.now()
    if (counted >= 10 && since(measuring) > options.budgetMs) break
    if (i >= warmup) counted++
    await setTo("exact scan")
    const exact = await run("exact scan", vector)
    // Ties at the k-th distance count as right, whichever of them a method returns.
    const kth = exact.rows.at(-1)?.distance ?? Number.POSITIVE_INFINITY
    const expected = Math.max(1, exact.rows.length)
    for (const method of methods) {
      const found = method === "exact scan" ? exact : await setTo(method).then(() => run(method, vector))
      if (i < warmup) continue
      const right = found.rows.filter((row) => row.distance <= kth + 1e-9).length
      const sample = samples.get(method)
      sample?.ms.push(found.ms)
      sample?.recall.push(Math.min(right, expected) / expected)
      sample?.rows.push(found.rows.length)
    }
  }
  await db.query("RESET enable_sort")
  await db.query("RESET hnsw.iterative_scan")
  const setting = async (name: string) =>
    (await db.query<{ value: string }>(`SELECT current_setting($1) AS value`, [name])).rows[0]?.value ?? "?"
  const mean = (values: ReadonlyArray<number>) =>
    values.reduce((sum, value) => sum + value, 0) / Math.max(1, values.length)
  return {
    k,
    queries: counted,
    efSearch: await setting("hnsw.ef_search"),
    maxScanTuples: await setting("hnsw.max_scan_tuples"),
    methods: methods.map((method): MethodFigures => {
      const sample = samples.get(method) ?? { ms: [], recall: [], rows: [] }
      return {
        method,
        recall: round(mean(sample.recall), 3),
        perfect: sample.recall.filter((value) => value === 1).length,
        rows: round(mean(sample.rows), 1),
        latency: summarize(sample.ms),
        plan: plans.get(method) ?? "?"
      }
    })
  }
}
