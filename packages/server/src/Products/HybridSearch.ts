/**
 * Product search as the API and the assistant use it, on the search engine
 * (Search/SearchEngine.ts): the keyword side expands the query against the
 * assistant's term dictionary, fetches the products holding every query word
 * (or, when they do not fill the page, all words but one, then any word; GIN
 * over the assistant-scoped terms, filters in the same query) and ranks them
 * by the engine's rules over their fields (title, classification, attribute
 * values, externalId); the meaning side is the cosine distance over the
 * current embedder's halfvecs: of each keyword candidate, in the same read,
 * and of the nearest products of the assistant's catalog (its own HNSW index
 * when it is large, see VectorIndexes.ts; an exact scan otherwise) when the
 * keyword matches do not fill the page (see `fused`). The two are fused by
 * weighted reciprocal rank (`semanticRatio`); filters apply to both sides.
 */
import { Products } from "@dastyar/domain"
import { SqlClient, type Statement } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AppConfig } from "../Config"
import { prepared } from "../Database/Database"
import { SearchSql } from "../Database/Replicas"
import { Embedder, vectorLiteral } from "../Search/Embedder"
import { makeMeaningLook } from "../Search/MeaningLook"
import * as OfflineEmbedder from "../Search/OfflineEmbedder"
import * as SearchEngine from "../Search/SearchEngine"
import { expandWithSynonyms } from "../Search/SynonymRules"
import { setsColumn, Synonyms } from "../Search/Synonyms"
import { distributionOf, facetRead } from "./HybridSearchFacets"
import type { SearchParams } from "./HybridSearchFilters"
import { keywordRead } from "./HybridSearchKeyword"
import { efSearchFor, meaningRead, nearest, withVectorSettings } from "./HybridSearchMeaning"
import { sortKeysRead, sortMatches } from "./HybridSearchSort"
import { maxCandidates } from "./HybridSearchTiers"
import { ProductSearch, type ProductSearchShape } from "./ProductSearch"
import { ProductsRepo, toProduct } from "./ProductsRepo"
import { TermExpansions } from "./TermExpansions"

export { efSearchFor } from "./HybridSearchMeaning"

/**
 * The meaning side's weight when the request does not say: chosen by the
 * relevance evaluation (`pnpm eval:search`), where with the offline embedder
 * it lowers no query group below keyword-only.
 */
export const defaultSemanticRatio = 0.3
/**
 * Meaning results fused per query at least: two pages of the default limit. Beyond them a neighbour only
 * breaks ties among keyword matches or follows them all, and each one costs the HNSW scan more work.
 */
export const meaningPool = 40

export const layer = Layer.effect(
  ProductSearch,
  Effect.gen(function*() {
    // Every read of a search may be served by a replica (Database/Replicas.ts), recent writes or not.
    const sql = yield* SearchSql
    const primary = yield* SqlClient.SqlClient
    const embedder = yield* Embedder
    const repo = yield* ProductsRepo
    const expansions = yield* TermExpansions
    const synonyms = yield* Synonyms
    const { searchEnabled } = yield* AppConfig
    const withMeanings = yield* makeMeaningLook(sql)
    // The offline embedder's guesses for a query no word of which matched are noise (see `fuse`).
    const meaningOnlyWithoutWords = embedder.modelId === OfflineEmbedder.modelId ?
      0 :
      SearchEngine.maxMeaningOnlyWithoutWords

    // A shop's first search reads its catalog size and its synonyms in one statement, on the primary (synonyms
    // must be seen as soon as they are written); each is then kept and read again on its own terms.
    const catalogSizes = yield* SearchEngine.makeCollectionSizes((assistantId) =>
      Effect.gen(function*() {
        const writesSeen = yield* synonyms.writesSoFar
        const rows = yield* primary<{ readonly n: number; readonly synonyms: unknown }>`
          SELECT (SELECT count(*)::int FROM products WHERE assistant_id = ${assistantId}) AS n,
                 ${setsColumn(primary, assistantId)} AS synonyms`
        yield* synonyms.remember(assistantId, rows[0]?.synonyms, writesSeen)
        return rows[0]?.n ?? 0
      })
    )

    /** The query's vector, or none when the embedder fails: keyword results still answer. */
    const queryVector = (query: string) =>
      embedder.embed([query]).pipe(
        Effect.map(({ vectors }) => {
          const vector = vectors[0] ?? []
          return vector.length === 0 ? null : vector
        }),
        Effect.catchTag("EmbedderError", (error) =>
          Effect.logWarning("product search without its meaning side", error.message).pipe(Effect.as(null)))
      )

    /**
     * The keyword read with the query's vector as `query_vector` (none: no
     * distances), sent once however many of its reads use it.
     */
    const withQueryVector = (statement: Statement.Statement<unknown>, vector: ReadonlyArray<number> | null) =>
      sql`
        WITH query_vector AS MATERIALIZED (
          SELECT ${vector === null ? null : vectorLiteral(vector)}::halfvec AS v, ${embedder.modelId}::text AS model)
        SELECT * FROM (${statement}) k ORDER BY position`

    /** The query's words, expanded against the dictionary with the assistant's synonyms. */
    const expandedQuery = (assistantId: string, query: string) =>
      Effect.gen(function*() {
        const words = SearchEngine.parseQuery(query)
        if (words.length === 0) return { words, expansion: [] }
        const rules = yield* synonyms.rulesOf(assistantId)
        const expansion = yield* expandWithSynonyms((all) => expansions.expand(assistantId, all), words, rules, {
          related: true
        })
        return { words, expansion }
      })

    /** Ranked keyword matches (see `keywordRead`), with their similarity to `vector` where they have one. */
    const keywordSide = Effect.fn("ProductSearch.keyword")(
      function*(
        assistantId: string,
        params: SearchParams,
        ratio: number,
        needed: number,
        products: number,
        vector: ReadonlyArray<number> | null
      ) {
        const similarity = new Map<string, number>()
        const { expansion, words } = yield* expandedQuery(assistantId, params.query)
        if (words.length === 0) return { ranked: [], similarity }
        const rankedBy = (terms: SearchEngine.Expansion) =>
          Effect.gen(function*() {
            const { read, statement } = keywordRead(sql, assistantId, params, terms, words, ratio, needed, products)
            const found = read(yield* prepared(sql, withQueryVector(statement, vector)))
            for (const candidate of found.candidates) {
              const distance: unknown = Reflect.get(candidate, "distance")
              if (typeof distance === "number") similarity.set(candidate.id, 1 - distance)
            }
            return SearchEngine.rankDocuments(words, terms, found.candidates, products, found.frequencyFloors)
          })
        const ranked = yield* rankedBy(expansion)
        // No product named by its title or classification: read again with what the words may stand for
        // (MeaningLook.ts), unless the request asks for keyword search alone.
        if (ratio === 0 || ranked.some((match) => match.named)) return { ranked, similarity }
        const wider = yield* withMeanings(assistantId, words, expansion)
        return { ranked: wider === null ? ranked : yield* rankedBy(wider), similarity }
      }
    )

    const meaningSide = (
      assistantId: string,
      params: SearchParams,
      pool: number,
      products: number,
      vector: ReadonlyArray<number> | null
    ) =>
      vector === null
        ? Effect.succeed([])
        : withVectorSettings(
          sql,
          meaningRead(sql, embedder.modelId, assistantId, params, vector, pool),
          efSearchFor(products)
        ).pipe(
          Effect.flatMap(nearest)
        )

    /**
     * The keyword and meaning sides, fused. Below a `semanticRatio` of one
     * half the meaning side only orders keyword matches within the buckets
     * of the strong keyword rules and puts meaning-only products after every
     * keyword match; so the keyword read brings each candidate's own
     * similarity to the query (an exact distance, computed on the rows it
     * reads anyway), which orders the matches of a bucket, and the HNSW read
     * runs only when the keyword matches do not fill the page: when they do,
     * no meaning-only product can be on it, and the HNSW read is the costliest
     * part of a search in Postgres. From one half the two sides are read at once and
     * fused by their ranks in each list.
     */
    const fused = (assistantId: string, params: SearchParams, ratio: number, needed: number, products: number) => {
      const pool = Math.max(meaningPool, needed)
      if (ratio > 0 && ratio < 0.5) {
        return Effect.gen(function*() {
          const vector = yield* queryVector(params.query)
          const keyword = yield* keywordSide(assistantId, params, ratio, needed, products, vector)
          const meaning = keyword.ranked.length >= needed
            ? []
            : yield* meaningSide(assistantId, params, pool, products, vector)
          return {
            results: SearchEngine.fuse(keyword.ranked, meaning, ratio, keyword.similarity, meaningOnlyWithoutWords),
            keyword: keyword.ranked
          }
        })
      }
      return Effect.all([
        ratio === 1
          ? Effect.succeed([])
          : Effect.map(keywordSide(assistantId, params, ratio, needed, products, null), ({ ranked }) => ranked),
        ratio === 0
          ? Effect.succeed([])
          : Effect.flatMap(
            queryVector(params.query),
            (vector) => meaningSide(assistantId, params, pool, products, vector)
          )
      ], { concurrency: 2 }).pipe(
        Effect.map(([keyword, meaning]) => ({
          results: SearchEngine.fuse(keyword, meaning, ratio, undefined, meaningOnlyWithoutWords),
          keyword
        }))
      )
    }

    /** Results re-ordered by `sort` within their relevance buckets (see HybridSearchSort.ts). */
    const sorted = (
      results: ReadonlyArray<SearchEngine.Fused>,
      keyword: ReadonlyArray<SearchEngine.Ranked>,
      order: NonNullable<SearchParams["sort"]>
    ) =>
      sortKeysRead(sql, results.map(({ id }) => id)).pipe(
        Effect.orDie,
        Effect.map((rows) =>
          sortMatches(
            results,
            new Map(keyword.map((ranked) => [ranked.id, ranked.matched])),
            new Map(rows.map((row) => [row.id, row])),
            order
          )
        )
      )

    const facets: ProductSearchShape["facets"] = Effect.fn("ProductSearch.facets")(function*(assistantId, params) {
      if (!searchEnabled) return yield* new Products.SearchUnavailable()
      const names = [...new Set(params.facets ?? [])]
      const { expansion, words } = yield* expandedQuery(assistantId, params.query).pipe(Effect.orDie)
      if (names.length === 0 || words.length === 0) return distributionOf(names, [])
      const groups = expansion.map((terms) => [...terms.keys()])
      const counted = groups.filter((_, i) => words[i]?.counts === true)
      const rows = yield* prepared(
        sql,
        facetRead(sql, assistantId, params, counted.length > 0 ? counted : groups, groups, names)
      ).pipe(Effect.orDie)
      return distributionOf(names, rows)
    })

    const search: ProductSearchShape["search"] = Effect.fn("ProductSearch.search")(
      function*(assistantId, params, options) {
        if (!searchEnabled) return yield* new Products.SearchUnavailable()
        const mode = options?.mode ?? "hybrid"
        const ratio = mode === "keyword" ? 0 : mode === "meaning" ? 1 : params.semanticRatio ?? defaultSemanticRatio
        const limit = params.limit ?? 20
        const offset = params.offset ?? 0
        const products = yield* catalogSizes.get(assistantId).pipe(Effect.orDie)
        // A sorted search orders every relevant match, so it reads them all (up to the candidates' bound).
        const needed = params.sort === undefined ? offset + limit : Math.max(offset + limit, maxCandidates)
        const { keyword, results } = yield* fused(assistantId, params, ratio, needed, products).pipe(Effect.orDie)
        const ordered = params.sort === undefined ? results : yield* sorted(results, keyword, params.sort)
        const page = ordered.slice(offset, offset + limit)
        const rows = yield* repo.byIds(page.map(({ id }) => id)).pipe(Effect.orDie)
        const byId = new Map(rows.map((row) => [row.id, row]))
        return page.flatMap(({ id, score }) => {
          const row = byId.get(id)
          // Deleted between the two reads: gone from search at once.
          if (row === undefined) return []
          return [{ ...toProduct(row), distance: Math.round(Math.max(0, 1 - score) * 1e6) / 1e6 }]
        })
      }
    )

    return { search, facets } satisfies ProductSearchShape
  })
).pipe(Layer.provide(Layer.mergeAll(ProductsRepo.Default, TermExpansions.Default, Synonyms.Default)))
