/**
 * Tenants benchmark: a thousand shops on one Postgres. One shop of 50k
 * products, 3% of the shops at 10k, the rest from 100 to 1,000 (about a
 * million products at `--shops 1000 --scale 1`), each with three documents.
 * Measures, each request beside the same reads sent as bare SQL in the same
 * run: product search in a random small shop and in the big shop at rest,
 * chunk retrieval for chat, search in a random small shop while the big shop
 * re-imports its whole catalog through the API (and the time from its first
 * write until all synced, and how long a small shop's write waits meanwhile),
 * Postgres's table and index sizes and the service's RSS.
 *
 *   DATABASE_URL=postgres://… pnpm bench:tenants [-- --shops 1000 --scale 1 --queries 300 --budget 60]
 *
 * See scripts/bench/README.md.
 */
import * as os from "node:os"
import { parseArgs } from "node:util"
import { modelId as offlineModelId } from "../../packages/server/src/Search/OfflineEmbedder"
import { bareSearch, searchLimit } from "./catalog/bare"
import { type BenchQuery, generateProducts, generateQueries, random } from "./catalog/products"
import {
  createShop,
  field,
  listField,
  onCleanup,
  pg,
  type ProbeFigures,
  runBench,
  type Service,
  type Shop,
  sleep,
  startService
} from "./catalog/service"
import { type Latency, round, since, summarize } from "./catalog/stats"
import { bareChunkRetrieval, chatQuestions, sourceDocuments } from "./tenants/chunks"
import { report } from "./tenants/report"
import {
  copyDocuments,
  copyProducts,
  createShops,
  planShops,
  prepareCopies,
  waitForDocuments,
  withoutSecondaryIndexes
} from "./tenants/seed"
import { coldAndWarm, reportSmall } from "./tenants/small"
import { bufferBlocks, databaseSizes, explainMeaning, rssMb, waitForVectorIndexes } from "./tenants/state"

/**
 * `--only small`: the small shops' search at rest alone, with the statements a cold and a warm search send.
 * `--only reimport`: the big shop's re-import alone, with the small shops' searches meanwhile.
 */
const only = (raw: string): "all" | "small" | "reimport" => {
  if (raw === "all" || raw === "small" || raw === "reimport") return raw
  throw new Error(`--only must be all, small or reimport (got ${raw})`)
}

const parseOptions = () => {
  const { values } = parseArgs({
    args: process.argv.slice(2).filter((arg) => arg !== "--"),
    options: {
      shops: { type: "string", default: "1000" },
      scale: { type: "string", default: "1" },
      queries: { type: "string", default: "300" },
      warmup: { type: "string", default: "10" },
      budget: { type: "string", default: "60" },
      noise: { type: "string", default: "0.2" },
      only: { type: "string", default: "all" }
    }
  })
  const number = (name: string, raw: string, min: number, max: number, whole = true) => {
    const value = Number(raw)
    if (!Number.isFinite(value) || (whole && !Number.isInteger(value)) || value < min || value > max) {
      throw new Error(`--${name} must be ${whole ? "a whole number" : "a number"} from ${min} to ${max} (got ${raw})`)
    }
    return value
  }
  return {
    shops: number("shops", values.shops, 10, 10_000),
    scale: number("scale", values.scale, 0.01, 10, false),
    queries: number("queries", values.queries, 10, 10_000),
    warmup: number("warmup", values.warmup, 0, 1_000),
    budgetMs: number("budget", values.budget, 5, 3_600) * 1000,
    noise: number("noise", values.noise, 0, 2, false),
    only: only(values.only)
  }
}

const started = performance.now()
const progress = (message: string) => console.error(`[bench +${Math.round(since(started) / 1000)}s] ${message}`)
const productsPath = (shop: Shop) => `/v1/assistants/${shop.assistantIds[0]}/products`
const assistantOf = (shop: Shop) => shop.assistantIds[0] ?? ""

/** HTTP and bare SQL latencies of the same reads, taken in turn (one request, then its statements). */
export interface Paired {
  readonly label: string
  readonly http: Latency
  readonly bare: Latency
  readonly meanHits: number
  /** The service's event-loop delay, GC pauses and CPU time over the counted pairs. */
  readonly service: ProbeFigures
}

/**
 * Sends `read(i)` over HTTP and then `bare(i)` to Postgres, one pair at a time, until the queries or the budget
 * end, or `until` says stop; the first `warmup` pairs are not counted.
 */
const paired = async (
  label: string,
  count: number,
  options: {
    readonly warmup: number
    readonly budgetMs: number
    readonly until?: () => boolean
    readonly probe: () => Promise<ProbeFigures>
  },
  read: (i: number) => Promise<number>,
  bare: (i: number) => Promise<void>
): Promise<Paired> => {
  progress(`${label}…`)
  const http: Array<number> = []
  const sql: Array<number> = []
  let hits = 0
  let measuring = performance.now()
  if (options.warmup === 0) await options.probe()
  for (let i = 0; i < count; i++) {
    if (i === options.warmup && i > 0) {
      await options.probe()
      measuring = performance.now()
    }
    if (options.until !== undefined ? options.until() : i > options.warmup && since(measuring) > options.budgetMs) {
      break
    }
    let start = performance.now()
    const found = await read(i)
    const httpMs = since(start)
    start = performance.now()
    await bare(i)
    if (i < options.warmup) continue
    http.push(httpMs)
    sql.push(since(start))
    hits += found
  }
  const service = await options.probe()
  progress(
    `  the service meanwhile: loop delay p99 ${service.loop.p99} ms, max ${service.loop.max} ms; GC ${service.gc.totalMs} ms` +
      ` in ${service.gc.count} pauses (${service.gc.major} major, ${service.gc.majorMs} ms); CPU ${service.cpuMs} ms;` +
      ` heap ${service.heapUsedMb} MB; up ${service.uptimeS} s`
  )
  return {
    label,
    http: summarize(http),
    bare: summarize(sql),
    meanHits: round(hits / Math.max(1, http.length)),
    service
  }
}

const main = async () => {
  const options = parseOptions()
  const baseUrl = process.env.DATABASE_URL
  if (baseUrl === undefined || baseUrl === "") throw new Error("bench:tenants needs DATABASE_URL (a Postgres server)")
  const loadBefore = os.loadavg()
  const plan = planShops(options.shops, options.scale)
  const planned = plan.reduce((sum, shop) => sum + shop.products, 0)
  progress(`${options.shops} shops, ${planned} products planned; starting the service on a fresh database…`)
  const service: Service = await startService(baseUrl, "dastyar_bench_tenants")
  const pid = service.pid ?? 0
  const rss = { peak: 0 }
  const sampler = setInterval(() => (rss.peak = Math.max(rss.peak, rssMb(pid))), 500)
  onCleanup("stop the RSS sampler", async () => clearInterval(sampler))
  const db = new pg.Client({ connectionString: service.databaseUrl ?? "" })
  await db.connect()
  onCleanup("close the bench's SQL connection", () => db.end())
  const setup: Record<string, number | string> = {}
  // The figures depend on how much of the catalogs Postgres keeps in its own buffers (docs/operations.md).
  setup.sharedBuffers = String(
    (await db.query<{ shared_buffers: string }>("SHOW shared_buffers")).rows[0]?.shared_buffers
  )
  progress(`Postgres shared_buffers: ${setup.sharedBuffers}`)

  // The source shop: products and documents through the real indexer and ingest worker.
  progress("source shop: 1,000 products and 3 documents through the API…")
  let start = performance.now()
  const source = await createShop(service, "tenant source", "pro")
  const sourceCatalog = generateProducts(1, "t", 1_000)
  await service.expect(200, "POST", `${productsPath(source)}/import`, source.key, { products: sourceCatalog })
  for (const document of sourceDocuments()) {
    await service.expect(202, "POST", `/v1/assistants/${assistantOf(source)}/documents/text`, source.key, document)
  }
  for (;;) {
    const pending = listField(
      await service.expect(200, "GET", `${productsPath(source)}?state=pending&limit=1`, source.key)
    )
    if (pending.length === 0) break
    await sleep(100)
  }
  await waitForDocuments(db, assistantOf(source), sourceDocuments().length)
  setup.sourceShopMs = round(since(start), 0)

  progress(`creating ${options.shops} accounts with a key and an assistant each…`)
  start = performance.now()
  const shops = await createShops(service, options.shops, 4, (made) => progress(`  ${made} shops`))
  setup.createShopsMs = round(since(start), 0)

  progress("copying catalogs and documents in SQL…")
  start = performance.now()
  const { dims, sourceProducts } = await prepareCopies(db, assistantOf(source), options.noise)
  const batch = 50
  let copied = 0
  setup.rebuildIndexesMs = round(
    await withoutSecondaryIndexes(db, async () => {
      for (let i = 0; i < shops.length; i += batch) {
        const slice = shops.slice(i, i + batch)
        copied += await copyProducts(
          db,
          slice.map(assistantOf),
          plan.slice(i, i + batch).map((shop) => shop.products),
          sourceProducts
        )
        if ((i / batch) % 4 === 3) progress(`  ${copied} products`)
      }
    }),
    0
  )
  let chunks = 0
  for (let i = 0; i < shops.length; i += 200) {
    chunks += await copyDocuments(db, assistantOf(source), shops.slice(i, i + 200).map(assistantOf))
  }
  setup.copyMs = round(since(start), 0)
  setup.productsCopied = copied
  setup.chunksCopied = chunks
  start = performance.now()
  await db.query("VACUUM (ANALYZE) products, documents, document_chunks")
  setup.analyzeMs = round(since(start), 0)

  const indexed = plan.filter((shop) => shop.products >= 5_000).length
  progress(`waiting for the service to build ${indexed} per-assistant HNSW indexes…`)
  start = performance.now()
  await waitForVectorIndexes(db, indexed, (built) => progress(`  ${built}/${indexed} vector indexes`))
  setup.vectorIndexesMs = round(since(start), 0)
  await db.query("CHECKPOINT")

  const small = shops.filter((_, i) => plan[i]?.size === "small")
  const smallProducts = new Map(shops.map((shop, i) => [assistantOf(shop), plan[i]?.products ?? 0]))
  const big = shops[0]
  if (big === undefined) throw new Error("no big shop")
  const queries = generateQueries(3, options.warmup + options.queries)
  const query = (i: number): BenchQuery => queries[i % queries.length] ?? { query: "lamp" }
  const rng = random(9)
  const picks = Array.from({ length: 100_000 }, () => rng.pick(small))
  const pick = (i: number) => picks[i % picks.length] ?? big
  const search = async (shop: Shop, q: BenchQuery) =>
    listField(await service.expect(200, "POST", `${productsPath(shop)}/search`, shop.key, { ...q, limit: searchLimit }))
      .length
  const bare = (shop: Shop, q: BenchQuery) =>
    bareSearch(db, { assistantId: assistantOf(shop), dims, products: smallProducts.get(assistantOf(shop)) ?? 0 }, q)
  const count = options.warmup + options.queries
  const latency = { warmup: options.warmup, budgetMs: options.budgetMs, probe: service.probe }
  const rows = await db.query<{ n: number }>("SELECT count(*)::int AS n FROM products")
  const totalProducts = rows.rows[0]?.n ?? 0

  if (options.only === "small") {
    const statements = await coldAndWarm(service, small.slice(-5), (shop, i) => search(shop, query(i)))
    // Each remaining small shop's first search, as most of the full run's are (a thousand shops, a few hundred
    // searches): its key, size and words not yet remembered by the service.
    const fresh = small.slice(0, -5)
    const blocksBefore = await bufferBlocks(db)
    const first = await paired(
      "search, a small shop's first, at rest",
      fresh.length,
      { ...latency, warmup: 0 },
      (i) => search(fresh[i] ?? big, query(i)),
      (i) => bare(fresh[i] ?? big, query(i))
    )
    await sleep(1_500)
    const blocksAfter = await bufferBlocks(db)
    progress(
      `  blocks per first search: ${((blocksAfter.read - blocksBefore.read) / fresh.length).toFixed(1)} read into ` +
        `shared buffers, ${((blocksAfter.hit - blocksBefore.hit) / fresh.length).toFixed(1)} found there ` +
        "(the service's search and the bare statements after it)"
    )
    const read = await paired(
      "search, a random small shop, at rest",
      count,
      latency,
      (i) => search(pick(i), query(i)),
      (i) => bare(pick(i), query(i))
    )
    reportSmall([first, read], statements, options, loadBefore, totalProducts)
    return
  }

  const reads: Array<Paired> = []
  /** The reads at rest, then the meaning side's plans; `--only reimport` skips them. */
  const readsAtRest = async () => {
    reads.push(
      await paired(
        "search, a random small shop, at rest",
        count,
        latency,
        (i) => search(pick(i), query(i)),
        (i) => bare(pick(i), query(i))
      )
    )
    reads.push(
      await paired(
        `search, the big shop (${plan[0]?.products}), at rest`,
        count,
        latency,
        (i) => search(big, query(i)),
        (i) => bare(big, query(i))
      )
    )
    const questions = chatQuestions(count)
    reads.push(
      await paired("chat turn (retrieval + offline answer), a random shop", count, latency, async (i) => {
        const reply = await service.expect(200, "POST", `/v1/assistants/${assistantOf(pick(i))}/chat`, pick(i).key, {
          principal: `bench-${i}`,
          message: questions[i] ?? "shipping days"
        })
        return Array.isArray(field(reply, "data", "sources")) ? 1 : 0
      }, (i) => bareChunkRetrieval(db, assistantOf(pick(i)), questions[i] ?? "shipping days"))
    )
    return {
      small: await explainMeaning(db, assistantOf(pick(0)), dims, smallProducts.get(assistantOf(pick(0))) ?? 0),
      big: await explainMeaning(db, assistantOf(big), dims, plan[0]?.products ?? 0)
    }
  }

  const plans = options.only === "reimport" ? undefined : await readsAtRest()

  // The big shop re-imports its whole catalog: every title changed, each differently, so every product is
  // indexed again and no two share a vector.
  const bigCount = plan[0]?.products ?? 0
  const feed = Array.from({ length: bigCount }, (_, g) => {
    const product = sourceCatalog[g % sourceCatalog.length] ?? sourceCatalog[0]
    return {
      ...product,
      externalId: `${product?.externalId}~${Math.floor(g / sourceProducts)}`,
      title: `${product?.title} (${Math.floor(g / sourceProducts)})`
    }
  })
  progress(`the big shop re-imports ${bigCount} products through the API…`)
  const importState = { done: false, synced: false, updated: 0, acceptedMs: 0, syncedMs: 0 }
  const importStart = performance.now()
  const importer = (async () => {
    for (let offset = 0; offset < feed.length; offset += 1_000) {
      const reply = await service.expect(200, "POST", `${productsPath(big)}/import`, big.key, {
        products: feed.slice(offset, offset + 1_000)
      })
      importState.updated += Number(field(reply, "data", "updated") ?? 0)
    }
    importState.acceptedMs = since(importStart)
    importState.done = true
    for (;;) {
      const pending = listField(await service.expect(200, "GET", `${productsPath(big)}?state=pending&limit=1`, big.key))
      if (pending.length === 0) break
      await sleep(100)
    }
    importState.syncedMs = since(importStart)
    importState.synced = true
  })()
  // A small shop's write during the import: how long until the indexer has it (fairness across assistants).
  const smallWrites: Array<number> = []
  const prober = (async () => {
    for (let n = 0; !importState.synced; n++) {
      const shop = pick(50_000 + n)
      const begun = performance.now()
      await service.expect(200, "PUT", `${productsPath(shop)}/probe-${n}`, shop.key, { title: `Probe lamp ${n}` })
      for (;;) {
        const row = await db.query<{ state: string }>(
          "SELECT index_state AS state FROM products WHERE assistant_id = $1 AND external_id = $2",
          [assistantOf(shop), `probe-${n}`]
        )
        if (row.rows[0]?.state === "synced") break
        if (since(begun) > 600_000) throw new Error("a small shop's write not indexed within 600 s")
        await sleep(50)
      }
      smallWrites.push(since(begun))
      await sleep(1_000)
    }
  })()
  reads.push(
    await paired(
      "search, a random small shop, while the big one re-imports",
      1_000_000,
      { warmup: 0, budgetMs: Infinity, until: () => importState.synced, probe: service.probe },
      (i) => search(pick(i + 1_000), query(i)),
      (i) => bare(pick(i + 1_000), query(i))
    )
  )
  await importer
  await prober
  if (importState.updated !== bigCount) throw new Error(`the re-import updated ${importState.updated} of ${bigCount}`)

  const sizes = await databaseSizes(db)
  const loadAfter = os.loadavg()
  report({
    options,
    loadBefore,
    loadAfter,
    totalProducts,
    shops: plan,
    postgresVersion: service.postgresVersion ?? "?",
    embedder: offlineModelId,
    reads,
    reimport: {
      products: bigCount,
      acceptedMs: round(importState.acceptedMs, 0),
      syncedMs: round(importState.syncedMs, 0),
      smallWrites: summarize(smallWrites)
    },
    plans,
    sizes,
    rss: { end: round(rssMb(pid), 0), peak: round(rss.peak, 0) },
    setup,
    runMs: round(since(started), 0)
  })
}

runBench(main, 60)
