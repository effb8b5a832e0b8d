/**
 * Product search as the API and the assistant use it: a keyword side
 * (Postgres full text over the normalised title, classification, attribute
 * values and externalId, weighted in that order) and a meaning side (cosine
 * distance over the current embedder's vectors, an exact scan within the
 * assistant's catalog), fused by reciprocal rank. Filters apply to both sides.
 */
import { Products } from "@dastyar/domain"
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AppConfig } from "../Config"
import { Embedder, vectorLiteral } from "../Search/Embedder"
import { tsqueryTerm } from "../Search/KeywordQuery"
import { stem } from "../Search/Stemmer"
import { categoryKey, wordsOf } from "../Search/TextNormalization"
import { ProductSearch, type ProductSearchShape } from "./ProductSearch"
import { ProductsRepo, toProduct } from "./ProductsRepo"

/** Reciprocal rank fusion's constant: higher flattens the advantage of the first ranks. */
const rrfK = 60
/** The most a product can score: first on both sides. */
const bestScore = 2 / (rrfK + 1)
/** Beyond this cosine distance a product is not what the query means; it still counts if its words match. */
const meaningFloor = 0.85

type SearchParams = typeof Products.ProductSearch.Type

/**
 * `'word':*` alternatives: any query word or its stem ("دریل‌های" → "دریل",
 * "kettles" → "kettle"), as a prefix once it has three letters.
 */
const keywordQuery = (query: string): string | null => {
  const terms = new Set(wordsOf(query).flatMap((word) => [word, stem(word)]))
  return terms.size === 0 ? null : [...terms].map(tsqueryTerm).join(" | ")
}

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

    const keywordSide = (assistantId: string, params: SearchParams, pool: number) => {
      const tsquery = keywordQuery(params.query)
      if (tsquery === null) return Effect.succeed<ReadonlyArray<string>>([])
      return sql<{ readonly id: string }>`
        SELECT id FROM products
        WHERE ${sql.and([...filtersOf(assistantId, params), sql`search_document @@ to_tsquery('simple', ${tsquery})`])}
        ORDER BY ts_rank_cd('{0.1, 0.2, 0.4, 1.0}', search_document, to_tsquery('simple', ${tsquery}), 1) DESC, position
        LIMIT ${pool}`.pipe(Effect.map((rows) => rows.map((row) => row.id)))
    }

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
        Effect.map((rows) => rows.filter((row) => row.distance <= meaningFloor).map((row) => row.id)),
        // Without the embedder, keyword results still answer.
        Effect.catchTag("EmbedderError", (error) =>
          Effect.logWarning("product search without its meaning side", error.message).pipe(Effect.as([])))
      )

    const search: ProductSearchShape["search"] = Effect.fn("ProductSearch.search")(
      function*(assistantId, params, options) {
        if (!searchEnabled) return yield* new Products.SearchUnavailable()
        const mode = options?.mode ?? "hybrid"
        const limit = params.limit ?? 20
        const offset = params.offset ?? 0
        const pool = Math.max(100, offset + limit)
        const [keyword, meaning] = yield* Effect.all([
          mode === "meaning" ? Effect.succeed<ReadonlyArray<string>>([]) : keywordSide(assistantId, params, pool),
          mode === "keyword" ? Effect.succeed<ReadonlyArray<string>>([]) : meaningSide(assistantId, params, pool)
        ], { concurrency: 2 }).pipe(Effect.orDie)

        const scores = new Map<string, number>()
        for (const ranking of [keyword, meaning]) {
          ranking.forEach((id, i) => scores.set(id, (scores.get(id) ?? 0) + 1 / (rrfK + i + 1)))
        }
        const ranked = [...scores.entries()].sort((a, b) => b[1] - a[1]).slice(offset, offset + limit)
        const rows = yield* repo.byIds(ranked.map(([id]) => id)).pipe(Effect.orDie)
        const byId = new Map(rows.map((row) => [row.id, row]))
        return ranked.flatMap(([id, score]) => {
          const row = byId.get(id)
          // Deleted between the two reads: gone from search at once.
          if (row === undefined) return []
          return [{ ...toProduct(row), distance: Math.round((1 - score / bestScore) * 1e6) / 1e6 }]
        })
      }
    )

    return { search } satisfies ProductSearchShape
  })
).pipe(Layer.provide(ProductsRepo.Default))
