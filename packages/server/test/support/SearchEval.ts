/**
 * The search relevance evaluation: each catalog (the generated ones of
 * SearchEvalCatalog.ts and, standalone, the hand-judged sets of
 * SearchEvalJudged.ts) is imported through the API into its own assistant;
 * every judged query runs as keyword-only, meaning-only, hybrid (default
 * `semanticRatio`) and two baselines in the same run: a naive one (title
 * trigram similarity, pg_trgm, straight in Postgres) and MiniSearch over the
 * same titles, configured as its README suggests (fuzzy 0.2, prefix search).
 * Hybrid runs again at other ratios to show how the default was chosen.
 */
import type { Products } from "@dastyar/domain"
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import MiniSearch from "minisearch"
import { ProductSearch } from "../../src/Products/ProductSearch"
import { normalizeText } from "../../src/Search/TextNormalization"
import { importProducts, waitUntilSynced } from "./CatalogRelevance"
import { ndcgAt, precisionAt, recallAt } from "./RelevanceMetrics"
import { type EvalCatalog, evalCatalogs, type EvalQuery } from "./SearchEvalCatalog"
import { heldAsideCatalogs, tuningCatalogs } from "./SearchEvalJudged"
import { setupAccount, TestApp } from "./TestApp"

export const cutoff = 10
/** The baselines every figure of ours is printed beside. */
export const baselines = ["naive", "minisearch"] as const
export const systems = [...baselines, "keyword", "meaning", "hybrid"] as const
export type System = typeof systems[number]
/** Ratios tried for the default `semanticRatio`. */
export const ratios = [0.1, 0.2, 0.3, 0.5] as const

export interface Scored {
  readonly query: EvalQuery
  readonly system: string
  readonly ranked: ReadonlyArray<string>
  readonly ndcg: number
  readonly recall: number
  /** Relevant among the results returned, of the first `cutoff`: what a shopper sees beside the relevant ones. */
  readonly precision: number
  /** Results returned, up to `cutoff`. */
  readonly returned: number
}

/**
 * A noise query has nothing relevant, where nDCG would be 1 whatever came back; it scores 1 only when
 * nothing did, so that listing unrelated products counts against a system.
 */
const score = (query: EvalQuery, system: string, ranked: ReadonlyArray<string>): Scored => {
  const noise = query.group === "noise" ? (ranked.length === 0 ? 1 : 0) : undefined
  return {
    query,
    system,
    ranked,
    ndcg: noise ?? ndcgAt(cutoff, ranked, query.relevant),
    recall: noise ?? recallAt(cutoff, ranked, query.relevant),
    precision: noise ?? precisionAt(cutoff, ranked, query.relevant),
    returned: Math.min(cutoff, ranked.length)
  }
}

/** MiniSearch over the titles, as the naive baseline sees them, with the options a new user would pick. */
const miniSearchOf = (products: ReadonlyArray<Products.ProductCreate>) => {
  const index = new MiniSearch<{ readonly id: string; readonly title: string }>({
    fields: ["title"],
    searchOptions: { fuzzy: 0.2, prefix: true }
  })
  index.addAll(products.map((product) => ({ id: product.externalId, title: product.title })))
  return (query: string) => index.search(query).slice(0, cutoff).map((result) => String(result.id))
}

const evaluateCatalog = (catalog: EvalCatalog) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const search = yield* ProductSearch
    const { assistantId, key } = yield* setupAccount()
    yield* importProducts(key, assistantId, catalog.products)
    yield* waitUntilSynced(key, assistantId)
    const miniSearch = miniSearchOf(catalog.products)
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
          score(query, "minisearch", miniSearch(query.query)),
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

/**
 * The evaluation over the generated catalogs, and with `judged` over the hand-judged sets too; `heldAside: false`
 * leaves the held-aside sets out, so tuning runs never show their figures.
 */
export const runSearchEvalOf = (options: { readonly judged: boolean; readonly heldAside?: boolean }) =>
  Effect.gen(function*() {
    const judged = options.judged
      ? [...tuningCatalogs(), ...(options.heldAside === false ? [] : heldAsideCatalogs())]
      : []
    const catalogs = [...evalCatalogs, ...judged]
    const results = (yield* Effect.forEach(catalogs, evaluateCatalog)).flat()
    return {
      products: catalogs.reduce((n, catalog) => n + catalog.products.length, 0),
      queries: catalogs.reduce((n, catalog) => n + catalog.queries.length, 0),
      results
    } satisfies Figures
  })

/** The generated catalogs only, as the test runs them. */
export const runSearchEval = runSearchEvalOf({ judged: false })

export const runStandalone = (options: { readonly heldAside: boolean } = { heldAside: true }): Promise<Figures> =>
  Effect.runPromise(runSearchEvalOf({ judged: true, ...options }).pipe(Effect.provide(TestApp())))
