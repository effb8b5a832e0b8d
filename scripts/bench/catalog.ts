/**
 * Catalog benchmark: import throughput to "all synced", time until a written
 * product is searchable, search latency at 1k, 10k and 100k products in one
 * assistant and for one assistant's 10k among ~200k rows of others (beside
 * the same statements sent straight to Postgres), and the recall@10 of the
 * service's meaning side (its per-assistant HNSW index) against the exact scan.
 *
 *   pnpm bench:catalog [-- --queries 200 --warmup 10 --budget 60 --recall-queries 100 --probes 10 --noise 0.2]
 *   pnpm bench:catalog -- --only import   (the 1k and 10k imports, and the service's GC and event loop meanwhile)
 *
 * The service runs as a child process (the compiled server, as `pnpm start` runs it; offline
 * embedder) on a fresh database of `DATABASE_URL`, dropped at the end. Without
 * `DATABASE_URL` it runs on embedded PGlite and only the 1k and 10k steps run.
 * Prints a table, then one JSON line. See scripts/bench/README.md.
 */
import * as os from "node:os"
import { modelId as offlineModelId } from "../../packages/server/src/Search/OfflineEmbedder"
import { bareSqlLatency } from "./catalog/bare"
import {
  countRows,
  embeddingDims,
  readPgvectorVersion,
  settle,
  tableSizes,
  waitForVectorIndex
} from "./catalog/database"
import { printImportReport } from "./catalog/importReport"
import { importAndWait, meaningOnly, searchLatency, timeToSearchable } from "./catalog/measure"
import { parseOptions } from "./catalog/options"
import { generateProducts, generateQueries } from "./catalog/products"
import { progress, started } from "./catalog/progress"
import { efSearchFor, measureRecall, type RecallFigures } from "./catalog/recall"
import { replicate } from "./catalog/replicate"
import { printReport, recallK, type SearchFigures, type Target } from "./catalog/report"
import { createShop, onCleanup, pg, runBench, type Shop, startService } from "./catalog/service"
import { round, since } from "./catalog/stats"

/** The facets a search with facets counts: two columns and one attribute key. */
const benchFacets = ["category", "subcategory", "color"]

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
  const products10k = generateProducts(2, "m", 10_000)
  await service.probe()
  const import10k = await importAndWait(service, medium, products10k)
  if (options.importOnly) {
    const service10k = await service.probe()
    progress("importing the 10,000 products again, every one changed…")
    const reimport10k = await importAndWait(service, medium, generateProducts(3, "m", 10_000), "updated")
    printImportReport({
      loadBefore,
      import1k,
      import10k,
      service10k,
      reimport10k,
      serviceReimport: await service.probe()
    })
    return
  }
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
    pgvectorVersion = await readPgvectorVersion(db)
    const dims = await embeddingDims(db)
    const recallOf = async (label: string, shop: Shop, products: number) => {
      progress(`recall@${recallK} of the meaning side: ${label}, up to ${options.recallQueries} queries…`)
      recall.push({
        label,
        efSearch: efSearchFor(products),
        ...(await measureRecall(db, meaningOnly(service, shop), {
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

    const sizes = await tableSizes(db)
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
