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
import { SqlClient, type SqlError, type Statement } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
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
import {
  efSearchFor,
  meaningRead,
  meaningReadWithRows,
  nearest,
  shownColumns,
  withVectorSettings
} from "./HybridSearchMeaning"
import { sortKeysRead, sortMatches } from "./HybridSearchSort"
import { maxCandidates } from "./HybridSearchTiers"
import { ProductSearch, type ProductSearchShape } from "./ProductSearch"
import { ProductRow, ProductsRepo, toProduct } from "./ProductsRepo"
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
/**
 * Products whose fields a read of candidates brings along at most: the meaning side's (see `meaningSideWithRows`)
 * and the keyword side's (see `withQueryVector`).
 */
const maxCarriedRows = 100

const decodeRows = Schema.decodeUnknown(Schema.Array(ProductRow))
const idOf = (row: unknown): unknown => Reflect.get(Object(row), "id")
/** A row a read of candidates brought with the fields a page shows (see `withQueryVector`). */
const isShown = (row: unknown): boolean => typeof Reflect.get(Object(row), "externalId") === "string"

/** Rows whose fields were read with their candidates, by id: a page of them needs no read of its own. */
type CarriedRows = ReadonlyMap<unknown, unknown>

/** The fused results, the keyword matches among them and the rows read with them, if any. */
interface Fusion {
  readonly results: ReadonlyArray<SearchEngine.Fused>
  readonly keyword: ReadonlyArray<SearchEngine.Ranked>
  readonly rows: CarriedRows | null
}

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

    /** The catalog's size and the shop's synonyms as one JSON value, read on the primary (see `keep`). */
    const shopState = (assistantId: string) =>
      primary`json_build_object(
        'n', (SELECT count(*)::int FROM products WHERE assistant_id = ${assistantId}),
        'synonyms', ${setsColumn(primary, assistantId)})`
    /** The size of a `shopState` value, its synonyms kept (read by a statement begun when `writesSeen` was current). */
    const keep = (assistantId: string, state: unknown, writesSeen: number) =>
      Effect.as(
        synonyms.remember(assistantId, Reflect.get(Object(state), "synonyms"), writesSeen),
        Number(Reflect.get(Object(state), "n") ?? 0)
      )

    // Synonyms must be seen as soon as they are written, hence the primary; the size and the synonyms are then
    // each kept and read again on their own terms.
    const countOf = (assistantId: string) =>
      Effect.gen(function*() {
        const writesSeen = yield* synonyms.writesSoFar
        const rows = yield* primary<{ readonly state: unknown }>`SELECT ${shopState(assistantId)} AS state`
        return yield* keep(assistantId, rows[0]?.state, writesSeen)
      })
    const catalogSizes = yield* SearchEngine.makeCollectionSizes(countOf)

    /**
     * How a shop's first search counts its catalog: the size and the synonyms come with the dictionary's first
     * read of the query's words and of the words they make joined, in one statement (the dictionary is read on
     * the primary anyway, TermExpansions.ts), and the expansions are kept, so the keyword side reads no
     * dictionary unless a synonym adds words. Without words, or when a search beside it has just read them, the
     * size is counted alone.
     */
    const firstCount = (assistantId: string, query: string) =>
      Effect.gen(function*() {
        const words = SearchEngine.parseQuery(query)
        const writesSeen = yield* synonyms.writesSoFar
        let size: number | undefined
        if (words.length > 0) {
          const found = (state: unknown) => Effect.map(keep(assistantId, state, writesSeen), (n) => void (size = n))
          const expand = (all: ReadonlyArray<SearchEngine.QueryWord>) =>
            expansions.expand(assistantId, all, { value: shopState(assistantId), found })
          yield* expandWithSynonyms(expand, words, [], { related: true })
        }
        return size ?? (yield* countOf(assistantId))
      })

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
     * distances), sent once however many of its reads use it. With `carry`,
     * a read of at most `maxCarriedRows` candidates also brings the fields a
     * page shows, so that a page of keyword matches (most searches of a small
     * shop) is not read in a round trip of its own; a read of more brings
     * none, as the candidates of a common word would be many rows for a page.
     */
    const withQueryVector = (
      statement: Statement.Statement<unknown>,
      vector: ReadonlyArray<number> | null,
      carry: boolean
    ) => {
      const queryVector = sql`query_vector AS MATERIALIZED (
          SELECT ${vector === null ? null : vectorLiteral(vector)}::halfvec AS v, ${embedder.modelId}::text AS model)`
      if (!carry) return sql`WITH ${queryVector} SELECT * FROM (${statement}) k ORDER BY position`
      // LATERAL: one lookup by id per candidate, never a scan of the table to join them.
      return sql`
        WITH ${queryVector}, k AS MATERIALIZED (${statement})
        SELECT k.*, shown.* FROM k LEFT JOIN LATERAL (
          SELECT ${shownColumns(sql)} FROM products p
          WHERE p.id = k.id AND (SELECT count(*) FROM k) <= ${maxCarriedRows}) shown ON true
        ORDER BY k.position`
    }

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

    /**
     * Ranked keyword matches (see `keywordRead`), with their similarity to `vector` where they have one and, with
     * `carry`, the rows of those whose fields came with them (see `withQueryVector`).
     */
    const keywordSide = Effect.fn("ProductSearch.keyword")(
      function*(
        assistantId: string,
        params: SearchParams,
        ratio: number,
        needed: number,
        products: number,
        vector: ReadonlyArray<number> | null,
        carry: boolean
      ) {
        const similarity = new Map<string, number>()
        const rows = new Map<unknown, unknown>()
        const { expansion, words } = yield* expandedQuery(assistantId, params.query)
        if (words.length === 0) return { ranked: [], similarity, rows }
        const rankedBy = (terms: SearchEngine.Expansion) =>
          Effect.gen(function*() {
            const { read, statement } = keywordRead(sql, assistantId, params, terms, words, ratio, needed, products)
            const found = read(yield* prepared(sql, withQueryVector(statement, vector, carry)))
            for (const candidate of found.candidates) {
              if (isShown(candidate)) rows.set(candidate.id, candidate)
              const distance: unknown = Reflect.get(candidate, "distance")
              if (typeof distance === "number") similarity.set(candidate.id, 1 - distance)
            }
            return SearchEngine.rankDocuments(words, terms, found.candidates, products, found.frequencyFloors)
          })
        const ranked = yield* rankedBy(expansion)
        // Words no product names by its title or classification: read again with what they may stand for
        // (MeaningLook.ts), unless the request asks for keyword search alone. Beside a word some product names,
        // only the others' own forms and parts.
        if (ratio === 0) return { ranked, similarity, rows }
        const names = ranked.reduce((bits, match) => bits | match.names, 0)
        const unnamed = names === 0 ? undefined : words.map((_, w) => (names & (1 << w)) === 0)
        if (unnamed !== undefined && !unnamed.some((u, w) => u && words[w]?.counts === true)) {
          return { ranked, similarity, rows }
        }
        const wider = yield* withMeanings(assistantId, words, expansion, unnamed)
        return { ranked: wider === null ? ranked : yield* rankedBy(wider), similarity, rows }
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
     * The meaning side when the keyword matches did not fill the page, with the fields of every product the
     * page can show: the keyword matches (all on it) and the neighbours. Only where search reads the primary:
     * from a replica, the page's fields are read on the primary, so that a product deleted there is gone at once.
     */
    const meaningSideWithRows = (
      assistantId: string,
      params: SearchParams,
      pool: number,
      products: number,
      vector: ReadonlyArray<number> | null,
      keyword: ReadonlyArray<SearchEngine.Ranked>
    ) =>
      vector === null || sql !== primary || keyword.length + pool > maxCarriedRows
        ? Effect.map(meaningSide(assistantId, params, pool, products, vector), (meaning) => ({ meaning, rows: null }))
        : withVectorSettings(
          sql,
          meaningReadWithRows(
            sql,
            meaningRead(sql, embedder.modelId, assistantId, params, vector, pool),
            keyword.map(({ id }) => id)
          ),
          efSearchFor(products)
        ).pipe(
          Effect.flatMap((rows) =>
            Effect.map(nearest(rows), (meaning) => ({
              meaning,
              rows: new Map(rows.map((row) => [idOf(row), row]))
            }))
          )
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
    const fused = (
      assistantId: string,
      params: SearchParams,
      ratio: number,
      needed: number,
      products: number
    ): Effect.Effect<Fusion, SqlError.SqlError> => {
      const pool = Math.max(meaningPool, needed)
      if (ratio > 0 && ratio < 0.5) {
        return Effect.gen(function*() {
          const vector = yield* queryVector(params.query)
          // Only where search reads the primary, as for the meaning side's rows (see `meaningSideWithRows`).
          const keyword = yield* keywordSide(assistantId, params, ratio, needed, products, vector, sql === primary)
          const { meaning, rows } = keyword.ranked.length >= needed
            ? { meaning: [], rows: keyword.rows }
            : yield* meaningSideWithRows(assistantId, params, pool, products, vector, keyword.ranked)
          return {
            results: SearchEngine.fuse(keyword.ranked, meaning, ratio, keyword.similarity, meaningOnlyWithoutWords),
            keyword: keyword.ranked,
            rows: rows ?? keyword.rows
          }
        })
      }
      return Effect.all([
        ratio === 1
          ? Effect.succeed([])
          : Effect.map(keywordSide(assistantId, params, ratio, needed, products, null, false), ({ ranked }) => ranked),
        ratio === 0
          ? Effect.succeed([])
          : Effect.flatMap(
            queryVector(params.query),
            (vector) => meaningSide(assistantId, params, pool, products, vector)
          )
      ], { concurrency: 2 }).pipe(
        Effect.map(([keyword, meaning]) => ({
          results: SearchEngine.fuse(keyword, meaning, ratio, undefined, meaningOnlyWithoutWords),
          keyword,
          rows: null
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
        const first = firstCount(assistantId, ratio === 1 ? "" : params.query)
        const products = yield* catalogSizes.get(assistantId, first).pipe(Effect.orDie)
        // A sorted search orders every relevant match, so it reads them all (up to the candidates' bound).
        const needed = params.sort === undefined ? offset + limit : Math.max(offset + limit, maxCandidates)
        const { keyword, results, rows: carried } = yield* fused(assistantId, params, ratio, needed, products).pipe(
          Effect.orDie
        )
        const ordered = params.sort === undefined ? results : yield* sorted(results, keyword, params.sort)
        const page = ordered.slice(offset, offset + limit)
        const ids = page.map(({ id }) => id)
        const rows = carried !== null && ids.every((id) => carried.has(id))
          ? yield* decodeRows(ids.map((id) => carried.get(id))).pipe(Effect.orDie)
          : yield* repo.byIds(ids).pipe(Effect.orDie)
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
