/**
 * The search relevance evaluation over the generated English and Persian
 * catalogs (SearchEvalCatalog.ts): each catalog is imported through the API
 * into its own assistant; every judged query runs as keyword-only,
 * meaning-only, hybrid (default `semanticRatio`) and a naive baseline (title
 * trigram similarity, pg_trgm, straight in Postgres) in the same run, and
 * hybrid again at other ratios to show how the default was chosen.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import { ProductSearch } from "../../src/Products/ProductSearch"
import { normalizeText } from "../../src/Search/TextNormalization"
import { importProducts, waitUntilSynced } from "./CatalogRelevance"
import { mean, ndcgAt, recallAt } from "./RelevanceMetrics"
import { type EvalCatalog, evalCatalogs, type EvalQuery, type Group, groups } from "./SearchEvalCatalog"
import { heldAsideCatalogs } from "./SearchEvalHeldAside"
import { setupAccount, TestApp } from "./TestApp"

export const cutoff = 10
export const systems = ["naive", "keyword", "meaning", "hybrid"] as const
export type System = typeof systems[number]
/** Ratios tried for the default `semanticRatio`. */
export const ratios = [0.1, 0.2, 0.3, 0.5] as const

export interface Scored {
  readonly query: EvalQuery
  readonly system: string
  readonly ranked: ReadonlyArray<string>
  readonly ndcg: number
  readonly recall: number
}

const score = (query: EvalQuery, system: string, ranked: ReadonlyArray<string>): Scored => ({
  query,
  system,
  ranked,
  ndcg: ndcgAt(cutoff, ranked, query.relevant),
  recall: recallAt(cutoff, ranked, query.relevant)
})

const evaluateCatalog = (catalog: EvalCatalog) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const search = yield* ProductSearch
    const { assistantId, key } = yield* setupAccount()
    yield* importProducts(key, assistantId, catalog.products)
    yield* waitUntilSynced(key, assistantId)
    const naive = (query: string) =>
      sql<{ readonly externalId: string }>`
        SELECT external_id FROM products WHERE assistant_id = ${assistantId}
        ORDER BY similarity(split_part(lookup_key, chr(10), 1), ${normalizeText(query)}) DESC, position
        LIMIT ${cutoff}`.pipe(Effect.map((rows) => rows.map((row) => row.externalId)), Effect.orDie)
    const ours = (query: string, mode: "keyword" | "meaning" | "hybrid", semanticRatio?: number) =>
      search.search(assistantId, { query, limit: cutoff, ...(semanticRatio === undefined ? {} : { semanticRatio }) }, {
        mode
      })
        .pipe(Effect.map((hits) => hits.map((hit) => hit.externalId)), Effect.orDie)
    return yield* Effect.forEach(catalog.queries, (query) =>
      Effect.gen(function*() {
        const results = [
          score(query, "naive", yield* naive(query.query)),
          score(query, "keyword", yield* ours(query.query, "keyword")),
          score(query, "meaning", yield* ours(query.query, "meaning")),
          score(query, "hybrid", yield* ours(query.query, "hybrid"))
        ]
        for (const ratio of ratios) {
          results.push(score(query, `hybrid@${ratio}`, yield* ours(query.query, "hybrid", ratio)))
        }
        return results
      })).pipe(Effect.map((perQuery) => perQuery.flat()))
  })

export interface Figures {
  readonly products: number
  readonly queries: number
  readonly results: ReadonlyArray<Scored>
}

/** The evaluation over the tuning catalogs, and the held-aside ones with `heldAside`. */
export const runSearchEvalOf = (options: { readonly heldAside: boolean }) =>
  Effect.gen(function*() {
    const catalogs = [...evalCatalogs, ...(options.heldAside ? heldAsideCatalogs() : [])]
    const results = (yield* Effect.forEach(catalogs, evaluateCatalog)).flat()
    return {
      products: catalogs.reduce((n, catalog) => n + catalog.products.length, 0),
      queries: catalogs.reduce((n, catalog) => n + catalog.queries.length, 0),
      results
    } satisfies Figures
  })

export const runSearchEval = runSearchEvalOf({ heldAside: false })

export const runStandalone = (): Promise<Figures> =>
  Effect.runPromise(runSearchEvalOf({ heldAside: true }).pipe(Effect.provide(TestApp())))

/** Mean nDCG@10 and recall@10 of one system over the queries `keep` selects. */
export const scoreOf = (figures: Figures, system: string, keep: (query: EvalQuery) => boolean) => {
  const results = figures.results.filter((result) => result.system === system && keep(result.query))
  return { ndcg: mean(results.map((r) => r.ndcg)), recall: mean(results.map((r) => r.recall)), queries: results.length }
}

const rowsOf = (): ReadonlyArray<readonly [string, (query: EvalQuery) => boolean]> => [
  ...groups.map((group): readonly [string, (query: EvalQuery) => boolean] => [group, (query) => query.group === group]),
  ["all but meaning", (query) => query.group !== "meaning"],
  ["language en", (query) => query.language === "en"],
  ["language fa", (query) => query.language === "fa"]
]

const table = (header: ReadonlyArray<string>, body: ReadonlyArray<ReadonlyArray<string>>) => {
  const widths = header.map((cell, column) => Math.max(cell.length, ...body.map((row) => (row[column] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    cells.map((cell, column) => column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))
      .join("  ")
  return [line(header), ...body.map(line)].join("\n")
}

/** The tables of `formatSet` for the tuning queries, then for the held-aside ones (if any ran). */
export const formatTables = (figures: Figures): string => {
  const tuning = formatSet(figures, (query) => query.heldAside !== true)
  if (!figures.results.some((result) => result.query.heldAside === true)) return tuning
  return [
    "TUNING SET",
    tuning,
    "",
    "HELD-ASIDE SETS (other trades; never tuned on)",
    formatSet(figures, (query) => query.heldAside === true)
  ].join("\n")
}

/** nDCG@10 and recall@10 per group for the four systems, and hybrid's nDCG@10 per ratio, of the `inSet` queries. */
const formatSet = (figures: Figures, inSet: (query: EvalQuery) => boolean): string => {
  const rows = rowsOf().map(([label, keep]) => [label, (query: EvalQuery) => inSet(query) && keep(query)] as const)
    .filter(([, keep]) => scoreOf(figures, "hybrid", keep).queries > 0)
  const main = table(
    ["group", "queries", ...systems.flatMap((system) => [`${system} nDCG`, `${system} R@10`])],
    rows.map(([label, keep]) => [
      label,
      String(scoreOf(figures, "hybrid", keep).queries),
      ...systems.flatMap((system) => {
        const s = scoreOf(figures, system, keep)
        return [s.ndcg.toFixed(3), s.recall.toFixed(3)]
      })
    ])
  )
  const sweep = table(
    ["group", "keyword", ...ratios.map((ratio) => `ratio ${ratio}`), "meaning"],
    rows.map(([label, keep]) => [
      label,
      scoreOf(figures, "keyword", keep).ndcg.toFixed(3),
      ...ratios.map((ratio) => scoreOf(figures, `hybrid@${ratio}`, keep).ndcg.toFixed(3)),
      scoreOf(figures, "meaning", keep).ndcg.toFixed(3)
    ])
  )
  return [
    `${scoreOf(figures, "hybrid", inSet).queries} judged queries, first ${cutoff} results`,
    main,
    "",
    "hybrid nDCG@10 by semanticRatio",
    sweep
  ].join("\n")
}

/** Queries where hybrid (or `system`) scores below the naive baseline (or `baseline`), with both rankings. */
export const lossesToNaive = (figures: Figures, system = "hybrid", baseline = "naive"): ReadonlyArray<string> => {
  const byQuery = new Map<string, Record<string, Scored>>()
  for (const result of figures.results) {
    byQuery.set(result.query.id, { ...byQuery.get(result.query.id), [result.system]: result })
  }
  return [...byQuery.values()].flatMap((results) => {
    const hybrid = results[system]
    const naive = results[baseline]
    if (hybrid === undefined || naive === undefined || hybrid.ndcg >= naive.ndcg - 1e-9) return []
    const show = (r: Scored) =>
      `    ${r.system.padEnd(7)} ${r.ndcg.toFixed(3)}  ${
        r.ranked.map((id) => `${id}${r.query.relevant[id] === undefined ? "" : `(${r.query.relevant[id]})`}`).join(" ")
      }`
    return [[`${hybrid.query.id} «${hybrid.query.query}»`, show(naive), show(hybrid)].join("\n")]
  })
}

export type { Group }
