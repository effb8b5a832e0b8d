/**
 * What the catalog benchmark measures through the service's HTTP API: import throughput to "all synced", the time
 * until a written product is searchable, and the latency of sequential searches.
 */
import { searchLimit } from "./bare"
import { type BenchProduct, type BenchQuery, random } from "./products"
import { progress } from "./progress"
import { importBatch, type ImportFigures, type SearchableFigures, type SearchFigures } from "./report"
import { field, listField, type Service, type Shop, sleep } from "./service"
import { round, since, summarize } from "./stats"

const productsPath = (shop: Shop) => `/v1/assistants/${shop.assistantIds[0]}/products`

/**
 * Imports in batches of 1,000, one after another (as the SDK's importAll), then polls until nothing is pending.
 * Every product must be new, or with `outcome` "updated" already there (a re-import).
 */
export const importAndWait = async (
  service: Service,
  shop: Shop,
  products: ReadonlyArray<BenchProduct>,
  outcome: "created" | "updated" = "created"
): Promise<ImportFigures> => {
  const start = performance.now()
  const batchMs: Array<number> = []
  for (let offset = 0; offset < products.length; offset += importBatch) {
    const batch = products.slice(offset, offset + importBatch)
    const batchStart = performance.now()
    const result = await service.expect(200, "POST", `${productsPath(shop)}/import`, shop.key, { products: batch })
    batchMs.push(since(batchStart))
    if (field(result, "data", outcome) !== batch.length) {
      throw new Error(`import gave ${JSON.stringify(field(result, "data"))}, expected ${batch.length} ${outcome}`)
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
export const timeToSearchable = async (service: Service, shop: Shop, probes: number): Promise<SearchableFigures> => {
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
export const searchLatency = async (
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

/** The externalIds of a search on the meaning side alone (`semanticRatio: 1`), as the recall compares them. */
export const meaningOnly = (service: Service, shop: Shop) => async (query: BenchQuery, k: number) =>
  listField(
    await service.expect(200, "POST", `${productsPath(shop)}/search`, shop.key, {
      ...query,
      semanticRatio: 1,
      limit: k
    })
  ).map((hit) => String(field(hit, "externalId")))
