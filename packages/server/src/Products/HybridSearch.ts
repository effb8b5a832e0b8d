/**
 * Product search as the API and the assistant use it, on the search engine
 * (Search/SearchEngine.ts): the keyword side expands the query against the
 * assistant's term dictionary, fetches every product holding an expanded word
 * (GIN over `search_terms`, filters in the same query) and ranks them by the
 * engine's rules over their fields (title, classification, attribute values,
 * externalId); the meaning side is the cosine distance over the current
 * embedder's vectors within the assistant's catalog. The two are fused by
 * weighted reciprocal rank (`semanticRatio`); filters apply to both sides.
 */
import { Products } from "@dastyar/domain"
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AppConfig } from "../Config"
import { Embedder, vectorLiteral } from "../Search/Embedder"
import * as SearchEngine from "../Search/SearchEngine"
import { categoryKey } from "../Search/TextNormalization"
import { ProductSearch, type ProductSearchShape } from "./ProductSearch"
import { ProductsRepo, toProduct } from "./ProductsRepo"

/**
 * The meaning side's weight when the request does not say: chosen by the
 * relevance evaluation (`pnpm eval:search`), where with the offline embedder
 * it lowers no query group below keyword-only.
 */
export const defaultSemanticRatio = 0.3
/** Keyword candidates ranked per query at most (the most recent catalog order decides beyond). */
const maxCandidates = 2000
/** Meaning results fused per query at least. */
const meaningPool = 100

type SearchParams = typeof Products.ProductSearch.Type

export const layer = Layer.effect(
  ProductSearch,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const embedder = yield* Embedder
    const repo = yield* ProductsRepo
    const { searchEnabled } = yield* AppConfig

    const filtersOf = (assistantId: string, params: SearchParams) => [
      sql`assistant_id = ${assistantId}`,
      ...(params.category === undefined ? [] : [sql`category_key = ${categoryKey(params.category)}`]),
      ...(params.subcategory === undefined ? [] : [sql`subcategory_key = ${categoryKey(params.subcategory)}`]),
      ...Object.entries(params.attributes ?? {}).map(([name, value]) => {
        const key = categoryKey(name)
        const expected = JSON.stringify(typeof value === "string" ? categoryKey(value) : value)
        // A product without the attribute stays; one with a different value goes (numbers compare as numbers).
        return sql`(NOT (attribute_keys ? ${key}) OR attribute_keys -> ${key} = ${expected}::jsonb)`
      }),
      // Comparisons with a null price are not true, so bounds drop products without a price.
      ...(params.minPrice === undefined ? [] : [sql`price >= ${params.minPrice}`]),
      ...(params.maxPrice === undefined ? [] : [sql`price <= ${params.maxPrice}`]),
      ...(params.inStock === true ? [sql`in_stock`] : [])
    ]

    const catalogSizes = SearchEngine.sizeCache((assistantId) =>
      sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM products WHERE assistant_id = ${assistantId}`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0)
      )
    )

    const keywordSide = Effect.fn("ProductSearch.keyword")(function*(assistantId: string, params: SearchParams) {
      const words = SearchEngine.parseQuery(params.query)
      if (words.length === 0) return []
      const expansion = yield* SearchEngine.expand(sql, assistantId, words)
      const rows = yield* sql<{ readonly id: string; readonly searchFields: ReadonlyArray<string> }>`
        SELECT id, search_fields FROM products
        WHERE ${
        sql.and([
          ...filtersOf(assistantId, params),
          sql`search_terms && ${SearchEngine.expandedTerms(expansion)}::text[]`
        ])
      }
        ORDER BY position
        LIMIT ${maxCandidates}`
      return SearchEngine.rankDocuments(
        words,
        expansion,
        rows.map((row) => ({
          id: row.id,
          fields: row.searchFields.map((field) => field === "" ? [] : field.split(" "))
        })),
        yield* catalogSizes.get(assistantId)
      )
    })

    const meaningSide = (assistantId: string, params: SearchParams, pool: number) =>
      embedder.embed([params.query]).pipe(
        Effect.flatMap(({ vectors }) => {
          const vector = vectorLiteral(vectors[0] ?? [])
          return sql<{ readonly id: string; readonly distance: number }>`
            SELECT id, embedding <=> ${vector}::vector AS distance FROM products
            WHERE ${sql.and([...filtersOf(assistantId, params), sql`embedding_model = ${embedder.modelId}`])}
            ORDER BY embedding <=> ${vector}::vector
            LIMIT ${pool}`
        }),
        Effect.map((rows) => rows.map((row) => ({ id: row.id, similarity: 1 - Number(row.distance) }))),
        // Without the embedder, keyword results still answer.
        Effect.catchTag(
          "EmbedderError",
          (error) => Effect.logWarning("product search without its meaning side", error.message).pipe(Effect.as([]))
        )
      )

    const search: ProductSearchShape["search"] = Effect.fn("ProductSearch.search")(
      function*(assistantId, params, options) {
        if (!searchEnabled) return yield* new Products.SearchUnavailable()
        const mode = options?.mode ?? "hybrid"
        const ratio = mode === "keyword" ? 0 : mode === "meaning" ? 1 : params.semanticRatio ?? defaultSemanticRatio
        const limit = params.limit ?? 20
        const offset = params.offset ?? 0
        const [keyword, meaning] = yield* Effect.all([
          ratio === 1 ? Effect.succeed([]) : keywordSide(assistantId, params),
          ratio === 0 ? Effect.succeed([]) : meaningSide(assistantId, params, Math.max(meaningPool, offset + limit))
        ], { concurrency: 2 }).pipe(Effect.orDie)
        const ranked = SearchEngine.fuse(keyword, meaning, ratio).slice(offset, offset + limit)
        const rows = yield* repo.byIds(ranked.map(({ id }) => id)).pipe(Effect.orDie)
        const byId = new Map(rows.map((row) => [row.id, row]))
        return ranked.flatMap(({ id, score }) => {
          const row = byId.get(id)
          // Deleted between the two reads: gone from search at once.
          if (row === undefined) return []
          return [{ ...toProduct(row), distance: Math.round(Math.max(0, 1 - score) * 1e6) / 1e6 }]
        })
      }
    )

    return { search } satisfies ProductSearchShape
  })
).pipe(Layer.provide(ProductsRepo.Default))
