/**
 * The catalog's search relevance evaluation, shared by
 * `test/Products/Relevance.test.ts` and `scripts/eval/catalog-relevance.ts`:
 * imports the fixture shop (`test/fixtures/catalog-relevance`) through the
 * public API into a fresh assistant, waits until every product is indexed,
 * runs every judged query in each search mode and scores the first 10 results.
 */
import { Products } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import { ProductSearch, type SearchMode } from "../../src/Products/ProductSearch"
import { mean, ndcgAt, recallAt } from "./RelevanceMetrics"
import { call, pick, setupAccount, TestApp } from "./TestApp"

export const modes: ReadonlyArray<SearchMode> = ["keyword", "meaning", "hybrid"]
export const cutoff = 10

export const QueryKind = Schema.Literal(
  "exact",
  "partial",
  "misspelt",
  "inflected",
  "attribute",
  "category",
  "descriptive"
)
export type QueryKind = typeof QueryKind.Type

export const JudgedQuery = Schema.Struct({
  id: Schema.String,
  query: Schema.String,
  language: Schema.Literal("en", "fa"),
  kind: QueryKind,
  /** externalId → grade: 3 exactly what was asked, 2 a close substitute, 1 acceptable. */
  relevant: Schema.Record({ key: Schema.String, value: Schema.Literal(1, 2, 3) })
})
export type JudgedQuery = typeof JudgedQuery.Type

export interface Fixtures {
  readonly products: ReadonlyArray<Products.ProductCreate>
  readonly queries: ReadonlyArray<JudgedQuery>
}

const fixtureFile = (name: string) => new URL(`../fixtures/catalog-relevance/${name}`, import.meta.url)

const readJson = (name: string) => Effect.sync((): unknown => JSON.parse(fs.readFileSync(fixtureFile(name), "utf8")))

/** The fixture shop and its judged queries, checked against their schemas and against each other. */
export const loadFixtures: Effect.Effect<Fixtures> = Effect.gen(function*() {
  const products = yield* Schema.decodeUnknown(Schema.Array(Products.ProductCreate))(yield* readJson("products.json"))
  const queries = yield* Schema.decodeUnknown(Schema.Array(JudgedQuery))(yield* readJson("queries.json"))
  const known = new Set<string>(products.map((product) => product.externalId))
  const unknown = queries.flatMap((query) =>
    Object.keys(query.relevant).filter((id) => !known.has(id)).map((id) => `${query.id}: ${id}`)
  )
  if (known.size !== products.length) return yield* Effect.die(new Error("products.json repeats an externalId"))
  if (unknown.length > 0) return yield* Effect.die(new Error(`judged products missing from the catalog: ${unknown}`))
  return { products, queries }
}).pipe(Effect.orDie)

export interface Score {
  readonly ndcg: number
  readonly recall: number
  readonly queries: number
}

export interface QueryResult {
  readonly query: JudgedQuery
  readonly mode: SearchMode
  /** externalIds of the first results, best first. */
  readonly ranked: ReadonlyArray<string>
  readonly ndcg: number
  readonly recall: number
}

export interface Figures {
  readonly products: number
  readonly results: ReadonlyArray<QueryResult>
  readonly overall: Readonly<Record<SearchMode, Score>>
  readonly byKind: Readonly<Record<string, Readonly<Record<SearchMode, Score>>>>
  readonly byLanguage: Readonly<Record<string, Readonly<Record<SearchMode, Score>>>>
}

const batchSize = 1000

export const importProducts = (key: string, assistantId: string, products: ReadonlyArray<Products.ProductCreate>) =>
  Effect.forEach(
    Array.from(
      { length: Math.ceil(products.length / batchSize) },
      (_, i) => products.slice(i * batchSize, (i + 1) * batchSize)
    ),
    (batch) =>
      call("POST", `/v1/assistants/${assistantId}/products/import`, { token: key, body: { products: batch } }).pipe(
        Effect.flatMap((reply) =>
          reply.status === 200 ? Effect.void : Effect.die(new Error(`import answered ${reply.status}: ${reply.text}`))
        )
      ),
    { discard: true }
  )

const listIn = (key: string, assistantId: string, state: Products.IndexState) =>
  call("GET", `/v1/assistants/${assistantId}/products?state=${state}&limit=200`, { token: key }).pipe(
    Effect.flatMap((reply) => {
      const list = pick(reply.json, "data", "list")
      return reply.status === 200 && Array.isArray(list)
        ? Effect.succeed(list.map((product) => String(pick(product, "externalId"))))
        : Effect.die(new Error(`listing ${state} products answered ${reply.status}: ${reply.text}`))
    })
  )

/** Polls until no product is pending; a product that failed to index makes the evaluation meaningless. */
export const waitUntilSynced = (key: string, assistantId: string) =>
  Effect.gen(function*() {
    const deadline = Date.now() + 120_000
    while ((yield* listIn(key, assistantId, "pending")).length > 0) {
      if (Date.now() > deadline) return yield* Effect.die(new Error("products still pending after 120 s"))
      yield* Effect.sleep("100 millis")
    }
    const failed = yield* listIn(key, assistantId, "failed")
    if (failed.length > 0) return yield* Effect.die(new Error(`products failed to index: ${failed.join(", ")}`))
  })

const scoreOf = (results: ReadonlyArray<QueryResult>): Score => ({
  ndcg: mean(results.map((result) => result.ndcg)),
  recall: mean(results.map((result) => result.recall)),
  queries: results.length
})

const perMode = (results: ReadonlyArray<QueryResult>): Record<SearchMode, Score> => ({
  keyword: scoreOf(results.filter((result) => result.mode === "keyword")),
  meaning: scoreOf(results.filter((result) => result.mode === "meaning")),
  hybrid: scoreOf(results.filter((result) => result.mode === "hybrid"))
})

const groupBy = (results: ReadonlyArray<QueryResult>, keyOf: (query: JudgedQuery) => string) => {
  const keys = [...new Set(results.map((result) => keyOf(result.query)))]
  return Object.fromEntries(keys.map((key) => [key, perMode(results.filter((result) => keyOf(result.query) === key))]))
}

/** Scores every judged query in every mode against an assistant whose catalog is the fixture shop. */
export const evaluate = (assistantId: string, fixtures: Fixtures) =>
  Effect.gen(function*() {
    const search = yield* ProductSearch
    const results = yield* Effect.forEach(fixtures.queries, (query) =>
      Effect.forEach(modes, (mode) =>
        search.search(assistantId, { query: query.query, limit: cutoff }, { mode }).pipe(
          Effect.map((hits): QueryResult => {
            const ranked = hits.map((hit) =>
              hit.externalId
            )
            return {
              query,
              mode,
              ranked,
              ndcg: ndcgAt(cutoff, ranked, query.relevant),
              recall: recallAt(cutoff, ranked, query.relevant)
            }
          })
        ))).pipe(Effect.map((perQuery) => perQuery.flat()))
    return {
      products: fixtures.products.length,
      results,
      overall: perMode(results),
      byKind: groupBy(results, (query) => query.kind),
      byLanguage: groupBy(results, (query) => query.language)
    } satisfies Figures
  })

/** The whole run on the service in context: a new account and assistant, the import, indexing, then scoring. */
export const runCatalogRelevance = Effect.gen(function*() {
  const fixtures = yield* loadFixtures
  const { assistantId, key } = yield* setupAccount()
  yield* importProducts(key, assistantId, fixtures.products)
  yield* waitUntilSynced(key, assistantId)
  return yield* evaluate(assistantId, fixtures)
})

/** For the command line: the real service on `DATABASE_URL` (a fresh database) or embedded PGlite. */
export const runStandalone = (): Promise<Figures> =>
  Effect.runPromise(runCatalogRelevance.pipe(Effect.provide(TestApp())))

const figure = (value: number) => value.toFixed(3)

/** The result table: nDCG@10 and recall@10 per mode, overall, per query kind and per language. */
export const formatTable = (figures: Figures): string => {
  const rows: Array<readonly [string, Readonly<Record<SearchMode, Score>>]> = [
    ["overall", figures.overall],
    ...Object.entries(figures.byKind).map(([kind, scores]) => [`kind ${kind}`, scores] as const),
    ...Object.entries(figures.byLanguage).map(([language, scores]) => [`language ${language}`, scores] as const)
  ]
  const header = ["", "queries", ...modes.flatMap((mode) => [`${mode} nDCG@10`, `${mode} R@10`])]
  const body = rows.map(([label, scores]) => [
    label,
    String(scores.hybrid.queries),
    ...modes.flatMap((mode) => [figure(scores[mode].ndcg), figure(scores[mode].recall)])
  ])
  const widths = header.map((cell, column) => Math.max(cell.length, ...body.map((row) => (row[column] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, column) => column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))
      .join("  ")
  return [
    `${figures.products} products, ${figures.overall.hybrid.queries} queries, first ${cutoff} results`,
    line(header),
    ...body.map(line)
  ].join("\n")
}

/** Queries where hybrid ranks worse than one of the single sides, with what each side returned. */
export const hybridLosses = (figures: Figures): ReadonlyArray<string> => {
  const byQuery = new Map<string, Partial<Record<SearchMode, QueryResult>>>()
  for (const result of figures.results) {
    byQuery.set(result.query.id, { ...byQuery.get(result.query.id), [result.mode]: result })
  }
  return [...byQuery.values()].flatMap((sides) => {
    const { hybrid, keyword, meaning } = sides
    if (hybrid === undefined || keyword === undefined || meaning === undefined) return []
    if (hybrid.ndcg >= Math.max(keyword.ndcg, meaning.ndcg)) return []
    const side = (result: QueryResult) =>
      `    ${result.mode.padEnd(7)} ${figure(result.ndcg)}  ${
        result.ranked.map((id) =>
          `${id}${result.query.relevant[id] === undefined ? "" : `(${result.query.relevant[id]})`}`
        )
          .join(" ")
      }`
    return [
      [
        `${hybrid.query.id} [${hybrid.query.kind}/${hybrid.query.language}] «${hybrid.query.query}»`,
        side(keyword),
        side(meaning),
        side(hybrid)
      ]
        .join("\n")
    ]
  })
}
