/**
 * Catalog benchmark: import throughput to "all synced", time until a written
 * product is searchable, search latency at 1k, 10k and 100k products in one
 * assistant and for one assistant's 10k among ~200k rows of others (beside
 * the same statements sent straight to Postgres), and the recall@10 of the
 * service's meaning side (its per-assistant HNSW index) against the exact scan.
 *
 *   pnpm bench:catalog [-- --queries 200 --warmup 10 --budget 60 --recall-queries 100 --probes 10 --noise 0.2]
 *
 * The service runs as a child process (the compiled server, as `pnpm start` runs it; offline
 * embedder) on a fresh database of `DATABASE_URL`, dropped at the end. Without
 * `DATABASE_URL` it runs on embedded PGlite and only the 1k and 10k steps run.
 * Prints a table, then one JSON line. See scripts/bench/README.md.
 */
import * as os from "node:os"
import { parseArgs } from "node:util"
import type { Client } from "pg"
import { modelId as offlineModelId } from "../../packages/server/src/Search/OfflineEmbedder"
import { bareSqlLatency, searchLimit } from "./catalog/bare"
import { type BenchProduct, type BenchQuery, generateProducts, generateQueries, random } from "./catalog/products"
import { efSearchFor, measureRecall, type RecallFigures } from "./catalog/recall"
import { replicate } from "./catalog/replicate"
import {
  importBatch,
  type ImportFigures,
  printReport,
  recallK,
  type SearchableFigures,
  type SearchFigures,
  type Target
} from "./catalog/report"
import {
  createShop,
  field,
  listField,
  onCleanup,
  pg,
  runBench,
  type Service,
  type Shop,
  sleep,
  startService
} from "./catalog/service"
import { round, since, summarize } from "./catalog/stats"

/** The facets a search with facets counts: two columns and one attribute key. */
const benchFacets = ["category", "subcategory", "color"]

const parseOptions = () => {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
    options: {
      queries: { type: "string", default: "200" },
      warmup: { type: "string", default: "10" },
      budget: { type: "string", default: "60" },
      "recall-queries": { type: "string", default: "100" },
      probes: { type: "string", default: "10" },
      noise: { type: "string", default: "0.2" }
    }
  })
  const count = (name: string, raw: string, min: number, max: number) => {
    const value = Number(raw)
    if (!Number.isInteger(value) || value < min || value > max) {
      throw new Error(`--${name} must be a whole number from ${min} to ${max} (got ${raw})`)
    }
    return value
  }
  const noise = Number(values.noise)
  if (!Number.isFinite(noise) || noise < 0 || noise > 2) {
    throw new Error(`--noise must be from 0 to 2 (got ${values.noise})`)
  }
  return {
    queries: count("queries", values.queries, 10, 10_000),
    warmup: count("warmup", values.warmup, 0, 1_000),
    /** Measuring stops at this many seconds per catalog (and for the recall), after at least 10 queries. */
    budgetMs: count("budget", values.budget, 5, 3_600) * 1000,
    recallQueries: count("recall-queries", values["recall-queries"], 10, 10_000),
    probes: count("probes", values.probes, 1, 100),
    noise
  }
}

const started = performance.now()
const progress = (message: string) => console.error(`[bench +${Math.round(since(started) / 1000)}s] ${message}`)

const productsPath = (shop: Shop) => `/v1/assistants/${shop.assistantIds[0]}/products`

/** Imports in batches of 1,000, one after another (as the SDK's importAll), then polls until nothing is pending. */
const importAndWait = async (
  service: Service,
  shop: Shop,
  products: ReadonlyArray<BenchProduct>
): Promise<ImportFigures> => {
  const start = performance.now()
  const batchMs: Array<number> = []
  for (let offset = 0; offset < products.length; offset += importBatch) {
    const batch = products.slice(offset, offset + importBatch)
    const batchStart = performance.now()
    const result = await service.expect(200, "POST", `${productsPath(shop)}/import`, shop.key, { products: batch })
    batchMs.push(since(batchStart))
    if (field(result, "data", "created") !== batch.length) {
      throw new Error(`import created ${JSON.stringify(field(result, "data"))}, expected ${batch.length} new products`)
    }
  }
  const acceptedMs = since(start)
  const deadline = performance.now() + 300_000
  for (;;) {
    const pending = listField(await service.expect(200, "GET", `${productsPath(shop)}?state=pending&limit=1`, shop.key))
    if (pending.length === 0) break
    if (performance.now() > deadline) throw new Error("products still pending 300 s after the import")
    await sleep(50)
  }
  const syncedMs = since(start)
  const failed = listField(await service.expect(200, "GET", `${productsPath(shop)}?state=failed&limit=1`, shop.key))
  if (failed.length > 0) throw new Error(`products failed to index, e.g. ${JSON.stringify(failed[0])}`)
  return {
    products: products.length,
    batches: batchMs.length,
    acceptedMs: round(acceptedMs),
    syncedMs: round(syncedMs),
    productsPerSecond: round(products.length / (syncedMs / 1000), 0),
    batchLatency: summarize(batchMs)
  }
}

/** PUTs a new product with a made-up word in its title, then searches for that word until the product appears. */
const timeToSearchable = async (service: Service, shop: Shop, probes: number): Promise<SearchableFigures> => {
  const rng = random(7)
  const writeMs: Array<number> = []
  const visibleMs: Array<number> = []
  for (let i = 0; i < probes; i++) {
    const word = Array.from({ length: 9 }, () => String.fromCharCode(97 + rng.int(0, 25))).join("")
    const externalId = `probe-${i}-${word}`
    const start = performance.now()
    await service.expect(200, "PUT", `${productsPath(shop)}/${externalId}`, shop.key, {
      title: `Desk lamp ${word}`,
      category: "Lighting",
      price: 25
    })
    writeMs.push(since(start))
    for (;;) {
      const hits = listField(
        await service.expect(200, "POST", `${productsPath(shop)}/search`, shop.key, { query: word, limit: 5 })
      )
      if (hits.some((hit) => field(hit, "externalId") === externalId)) break
      if (since(start) > 30_000) throw new Error(`product ${externalId} not searchable 30 s after its write`)
      await sleep(20)
    }
    visibleMs.push(since(start))
    // Writes at random moments, not in step with the indexer's polling.
    await sleep(200 + rng.next() * 800)
  }
  return { probes, write: summarize(writeMs), searchable: summarize(visibleMs) }
}

/** Sequential searches (one in flight), the first `warmup` not counted, until the queries or the time budget end. */
const searchLatency = async (
  service: Service,
  shop: Shop,
  label: string,
  assistantProducts: number,
  tableRows: number,
  queries: ReadonlyArray<BenchQuery>,
  options: { readonly warmup: number; readonly budgetMs: number }
): Promise<SearchFigures> => {
  progress(
    `search latency: ${label} (up to ${queries.length - options.warmup} queries after ${options.warmup} warm-up)…`
  )
  const samples: Array<number> = []
  const timed: Array<{ readonly ms: number; readonly query: BenchQuery }> = []
  let hits = 0
  let measuring = 0
  for (const [i, query] of queries.entries()) {
    if (i === options.warmup) measuring = performance.now()
    if (i > options.warmup && samples.length >= 10 && since(measuring) > options.budgetMs) break
    const start = performance.now()
    const answer = await service.expect(200, "POST", `${productsPath(shop)}/search`, shop.key, {
      ...query,
      limit: searchLimit
    })
    const list = listField(answer)
    if (query.facets !== undefined && field(answer, "data", "facetDistribution") === undefined) {
      throw new Error(`no facetDistribution for ${JSON.stringify(query)}`)
    }
    if (i < options.warmup) continue
    samples.push(since(start))
    timed.push({ ms: samples[samples.length - 1] ?? 0, query })
    hits += list.length
  }
  return {
    label,
    assistantProducts,
    tableRows,
    latency: summarize(samples),
    meanHits: round(hits / Math.max(1, samples.length)),
    slowest: timed.sort((a, b) => b.ms - a.ms).slice(0, 3)
  }
}

/**
 * After a bulk copy: what autovacuum does after a bulk load on a production server (it is off on this
 * machine's Postgres), then a checkpoint, so that the copy's hint bits and dirty pages are not written
 * out during the measurements that follow.
 */
const settle = async (db: Client) => {
  await db.query("VACUUM (ANALYZE) products")
  await db.query("CHECKPOINT")
}

/** Waits until the service has built the assistant's own vector index (it does so in the background); returns ms. */
const waitForVectorIndex = async (db: Client, assistantId: string): Promise<number> => {
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

const countRows = async (db: Client) =>
  (await db.query<{ n: number }>("SELECT count(*)::int AS n FROM products")).rows[0]?.n ?? 0

const main = async () => {
  const options = parseOptions()
  const databaseBaseUrl = process.env.DATABASE_URL === undefined || process.env.DATABASE_URL === ""
    ? undefined
    : process.env.DATABASE_URL
  const loadBefore = os.loadavg()
  progress(
    `starting the service on ${databaseBaseUrl === undefined ? "embedded PGlite" : "a fresh Postgres database"}…`
  )
  const service = await startService(databaseBaseUrl)
  const queries = generateQueries(3, options.warmup + options.queries)
  const latencyOptions = { warmup: options.warmup, budgetMs: options.budgetMs }

  // 1. Import throughput and time to searchable, on an otherwise empty table.
  const small = await createShop(service, "bench 1k", "free")
  const medium = await createShop(service, "bench 10k", "free")
  progress("importing 1,000 products…")
  const import1k = await importAndWait(service, small, generateProducts(1, "s", 1_000))
  progress("importing 10,000 products…")
  const import10k = await importAndWait(service, medium, generateProducts(2, "m", 10_000))
  progress(`time to searchable, ${options.probes} probes…`)
  const searchable = await timeToSearchable(service, small, options.probes)

  // The service's database, for the waits, the bare SQL and the recall (Postgres only).
  const db = service.databaseUrl === null ? null : new pg.Client({ connectionString: service.databaseUrl })
  if (db !== null) {
    await db.connect()
    onCleanup("close the bench's SQL connection", () => db.end())
  }
  const setup: Record<string, number | string> = {}
  const recallWarmup = 5
  const recallQueries = generateQueries(11, options.recallQueries + recallWarmup)
  const meaningOnly = (shop: Shop) => async (query: BenchQuery, k: number) =>
    listField(
      await service.expect(200, "POST", `${productsPath(shop)}/search`, shop.key, {
        ...query,
        semanticRatio: 1,
        limit: k
      })
    ).map((hit) => String(field(hit, "externalId")))

  // 2. Search latency, growing the table as we go.
  const baseRows = 11_000 + options.probes
  const search: Array<SearchFigures> = [
    await searchLatency(
      service,
      small,
      "1k in one assistant",
      1_000 + options.probes,
      baseRows,
      queries,
      latencyOptions
    )
  ]
  if (db !== null) {
    progress("waiting for the 10k assistant's vector index…")
    setup.vectorIndex10kWaitMs = await waitForVectorIndex(db, medium.assistantIds[0] ?? "")
  }
  search.push(await searchLatency(service, medium, "10k in one assistant", 10_000, baseRows, queries, latencyOptions))

  const recall: Array<RecallFigures & { readonly label: string; readonly efSearch: number }> = []
  const targets: Array<Target> = []
  let pgvectorVersion = "?"
  if (db !== null) {
    pgvectorVersion =
      (await db.query<{ v: string }>("SELECT extversion AS v FROM pg_extension WHERE extname = 'vector'"))
        .rows[0]?.v ?? "?"
    const models = (await db.query<{ model: string | null; dims: number | null }>(
      "SELECT DISTINCT embedding_model AS model, vector_dims(embedding) AS dims FROM products"
    )).rows
    const model = models[0]
    if (models.length !== 1 || model?.model !== offlineModelId || model.dims === null) {
      throw new Error(`expected every product embedded by ${offlineModelId}, found ${JSON.stringify(models)}`)
    }
    const dims = model.dims
    const recallOf = async (label: string, shop: Shop, products: number) => {
      progress(`recall@${recallK} of the meaning side: ${label}, up to ${options.recallQueries} queries…`)
      recall.push({
        label,
        efSearch: efSearchFor(products),
        ...(await measureRecall(db, meaningOnly(shop), {
          assistantId: shop.assistantIds[0] ?? "",
          embeddingModel: offlineModelId,
          dims,
          products,
          queries: recallQueries,
          k: recallK,
          warmup: recallWarmup,
          budgetMs: options.budgetMs
        }))
      })
    }

    const source = medium.assistantIds[0] ?? ""
    const bare = (assistantId: string, products: number) =>
      bareSqlLatency(db, assistantId, dims, products, queries, latencyOptions)
    const tenK = search[1]
    if (tenK !== undefined) tenK.bare = await bare(source, 10_000)
    const big = await createShop(service, "bench 100k", "pro")
    progress("copying the 10k catalog 10 times into one assistant (100k)…")
    let start = performance.now()
    await replicate(db, {
      sourceAssistant: source,
      targetAssistants: big.assistantIds,
      copies: 10,
      noise: options.noise,
      tag: "c"
    })
    await db.query("ANALYZE products")
    setup.replicate100kMs = round(since(start), 0)
    progress("waiting for the service to build the 100k assistant's vector index…")
    setup.vectorIndex100kWaitMs = await waitForVectorIndex(db, big.assistantIds[0] ?? "")
    start = performance.now()
    await settle(db)
    setup.settle100kMs = round(since(start), 0)
    const hundredK = await searchLatency(
      service,
      big,
      "100k in one assistant",
      100_000,
      await countRows(db),
      queries,
      latencyOptions
    )
    hundredK.bare = await bare(big.assistantIds[0] ?? "", 100_000)
    search.push(hundredK)
    await recallOf("100k in one assistant", big, 100_000)

    // The measured assistant is a noisy copy like its neighbours: none is nearer to the queries by design.
    const others = await createShop(service, "bench others", "pro", 9)
    const among = await createShop(service, "bench 10k among others", "free")
    progress("copying the 10k catalog into 10 more assistants, interleaved (another 100k rows)…")
    start = performance.now()
    await replicate(db, {
      sourceAssistant: source,
      targetAssistants: [...others.assistantIds, ...among.assistantIds],
      copies: 1,
      noise: options.noise,
      tag: "o"
    })
    await db.query("ANALYZE products")
    setup.replicateOthersMs = round(since(start), 0)
    progress("waiting for the service to build the vector indexes of the 10 new assistants…")
    for (const assistantId of [...others.assistantIds, ...among.assistantIds]) {
      setup.vectorIndexOthersWaitMs = await waitForVectorIndex(db, assistantId)
    }
    start = performance.now()
    await settle(db)
    setup.settleOthersMs = round(since(start), 0)
    const totalRows = await countRows(db)
    const amongOthers = await searchLatency(
      service,
      among,
      `10k among ${totalRows - 10_000} others`,
      10_000,
      totalRows,
      queries,
      latencyOptions
    )
    amongOthers.bare = await bare(among.assistantIds[0] ?? "", 10_000)
    search.push(amongOthers)
    const withFacets = await searchLatency(
      service,
      among,
      `10k among ${totalRows - 10_000} others, facets on ${benchFacets.join(", ")}`,
      10_000,
      totalRows,
      queries.map((query) => ({ ...query, facets: benchFacets })),
      latencyOptions
    )
    withFacets.bare = await bareSqlLatency(
      db,
      among.assistantIds[0] ?? "",
      dims,
      10_000,
      queries,
      latencyOptions,
      benchFacets
    )
    search.push(withFacets)
    targets.push(
      { label: amongOthers.label, p99: amongOthers.latency.p99, target: 20 },
      { label: withFacets.label, p99: withFacets.latency.p99, target: 35 }
    )
    await recallOf(`10k among ${totalRows - 10_000} others`, among, 10_000)

    const sizes = (await db.query<{ heap: string; toast: string; indexes: string; hnsw: string; embedding: number }>(
      `SELECT pg_size_pretty(pg_relation_size('products')) AS heap,
         pg_size_pretty(coalesce(pg_relation_size(NULLIF(c.reltoastrelid, 0)), 0)) AS toast,
         pg_size_pretty(pg_indexes_size('products')) AS indexes,
         (SELECT pg_size_pretty(sum(pg_relation_size(oid))) FROM pg_class
          WHERE starts_with(relname, 'products_hnsw_')) AS hnsw,
         (SELECT avg(pg_column_size(embedding))::int FROM products TABLESAMPLE SYSTEM (1)) AS embedding
       FROM pg_class c WHERE c.oid = 'products'::regclass`
    )).rows[0]
    if (sizes !== undefined) {
      setup.tableHeap = sizes.heap
      setup.tableToast = sizes.toast
      setup.indexes = sizes.indexes
      setup.hnswIndexes = sizes.hnsw
      setup.embeddingBytes = sizes.embedding
    }
  }

  printReport({
    options,
    loadBefore,
    runMs: since(started),
    postgresVersion: service.postgresVersion,
    pgvectorVersion,
    import1k,
    import10k,
    searchable,
    search,
    targets,
    recall,
    setup
  })
}

runBench(main, 30)
