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
import type { Statement } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AppConfig } from "../Config"
import { prepared } from "../Database/Database"
import { ReadSql } from "../Database/Replicas"
import { Embedder, vectorLiteral } from "../Search/Embedder"
import * as SearchEngine from "../Search/SearchEngine"
import { categoryKey } from "../Search/TextNormalization"
import { ProductSearch, type ProductSearchShape } from "./ProductSearch"
import { ProductsRepo, toProduct } from "./ProductsRepo"
import { TermExpansions } from "./TermExpansions"

/**
 * The meaning side's weight when the request does not say: chosen by the
 * relevance evaluation (`pnpm eval:search`), where with the offline embedder
 * it lowers no query group below keyword-only.
 */
export const defaultSemanticRatio = 0.3
/** Keyword candidates ranked per query at most (catalog order decides beyond). */
const maxCandidates = 2000
/**
 * Meaning results fused per query at least: two pages of the default limit. Beyond them a neighbour only
 * breaks ties among keyword matches or follows them all, and each one costs the HNSW scan more work.
 */
export const meaningPool = 40
/**
 * HNSW candidates per query (pgvector's `hnsw.ef_search`) for an assistant's catalog size: a graph's recall
 * at a given `ef_search` falls as it grows, and each doubling makes the scan slower. The steps are the smallest
 * that keep recall@10 above its target on bench:catalog's catalogs (docs/benchmarks.md), with a margin for the
 * variation between builds of a graph.
 */
export const efSearchFor = (products: number): number => products <= 25_000 ? 100 : products <= 50_000 ? 200 : 300

type SearchParams = typeof Products.ProductSearch.Type

export const layer = Layer.effect(
  ProductSearch,
  Effect.gen(function*() {
    // Every read of a search may be served by a replica (Database/Replicas.ts).
    const sql = yield* ReadSql
    const embedder = yield* Embedder
    const repo = yield* ProductsRepo
    const expansions = yield* TermExpansions
    const { searchEnabled } = yield* AppConfig

    /**
     * The request's optional filters (category, attributes, price, stock), as
     * SQL conditions. The keyword reads (`onFoundRows`) test the category on
     * the rows the GIN found: `IS NOT DISTINCT FROM` (the same as `=` for a
     * value that is never null) is not indexable, and with `=` the planner
     * ANDed the GIN's bitmap with one from the (assistant, category) btree,
     * read whole without the assistant's id, for a few hundred rows. The meaning side's exact scan of a small assistant
     * has the id and uses that btree.
     */
    const optionalFilters = (params: SearchParams, onFoundRows = true) => {
      const equals = sql.literal(onFoundRows ? "IS NOT DISTINCT FROM" : "=")
      return [
        ...(params.category === undefined ? [] : [sql`category_key ${equals} ${categoryKey(params.category)}`]),
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
    }
    const filtersOf = (assistantId: string, params: SearchParams) => [
      sql`assistant_id = ${assistantId}`,
      ...optionalFilters(params, false)
    ]

    const catalogSizes = SearchEngine.sizeCache((assistantId) =>
      sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM products WHERE assistant_id = ${assistantId}`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0)
      )
    )

    /**
     * "Holds one of these terms", over the GIN of the assistant-scoped terms.
     * A scoped term ("<assistant> <word>"; ids and words have no spaces) only
     * matches that assistant's rows, so no `assistant_id` condition is added:
     * with one, the planner ANDed the GIN's bitmap with a bitmap of all the
     * assistant's rows from its btree (100k entries read for nothing).
     */
    const holdsAny = (assistantId: string, terms: ReadonlyArray<string>) =>
      sql`products_scoped_terms(assistant_id, search_terms) && ${terms.map((term) => `${assistantId} ${term}`)}::text[]`

    /**
     * A candidate with its searched fields as one string, a line per field
     * (fields are words and single spaces), as the ranking reads them:
     * cheaper than parsing a text[] literal, which showed in profiles of
     * searches of large catalogs.
     */
    type Candidate = { readonly id: string; readonly fields: string; readonly position: string }
    /**
     * With each candidate comes its cosine distance to the query's vector
     * (`query_vector`, see `withQueryVector`) when it has one of the current
     * embedder's: the meaning side's ranks of keyword matches (see `fused`).
     */
    const candidateColumns = sql.literal(
      `id, array_to_string(search_fields, E'\\n', '') AS fields, position, ` +
        `CASE WHEN embedding_model = (SELECT model FROM query_vector) ` +
        `THEN embedding <=> (SELECT v FROM query_vector) END AS distance`
    )

    /** The products matching every group (holding one of its terms), in catalog order. */
    const matchingAll = (params: SearchParams, assistantId: string, groups: ReadonlyArray<ReadonlyArray<string>>) =>
      sql`
        SELECT ${candidateColumns} FROM products
        WHERE ${sql.and([...optionalFilters(params), ...groups.map((terms) => holdsAny(assistantId, terms))])}
        ORDER BY position
        LIMIT ${maxCandidates}`

    /**
     * The products holding a term of any group: every product of a group
     * held by at most `perGroup` products, and `perGroup` of a more common
     * one (the first in storage order). Taking a common word's products in
     * catalog order meant reading all of them first; the products it adds here are those matching it
     * alone, which rank below every product matching a rarer word (idf), so
     * a sample of them fills a page as well.
     *
     * With `fill` (the strong keyword rules rank, every group a counted word)
     * that goes further: the products matching only the commonest word rank
     * below every product matching another (a smaller idf weight, or fewer
     * words), so they are not sent at all when another word's products alone
     * fill the page. The commonest group is the one with more rows than any
     * other; the others are then below the sample size, so their counts are
     * their frequencies. Its own count comes
     * with the rows (`dropped`, `frequency`) as the floor of its frequency
     * for idf. A colour and a product type then send a page's worth of rows
     * instead of every product of the colour.
     */
    const matchingAny = (
      params: SearchParams,
      assistantId: string,
      groups: ReadonlyArray<ReadonlyArray<string>>,
      perGroup: number,
      fill?: { readonly needed: number }
    ) => {
      const reads = groups.map((terms, i) =>
        sql`(SELECT ${sql.literal(String(i))} AS g, ${candidateColumns} FROM products
             WHERE ${sql.and([...optionalFilters(params), holdsAny(assistantId, terms)])}
             LIMIT ${perGroup})`
      )
      if (fill === undefined || groups.length < 2) {
        return sql`
          SELECT DISTINCT ON (position) id, fields, position, NULL::int AS dropped, NULL::int AS frequency, distance
          FROM (${sql.join(" UNION ALL ", false)(reads)}) c
          ORDER BY position`
      }
      return sql`
        SELECT DISTINCT ON (position) id, fields, position, dropped, frequency, distance FROM (
          WITH found AS MATERIALIZED (${sql.join(" UNION ALL ", false)(reads)}),
            sizes AS MATERIALIZED (SELECT g, count(*)::int AS n FROM found GROUP BY g),
            commonest AS MATERIALIZED (
              SELECT g, n FROM sizes s
              WHERE n > ALL (SELECT n FROM sizes o WHERE o.g <> s.g)
                AND (SELECT max(n) FROM sizes o WHERE o.g <> s.g) >= ${fill.needed})
          SELECT id, fields, position, (SELECT g FROM commonest) AS dropped, (SELECT n FROM commonest) AS frequency,
            distance
          FROM found WHERE g IS DISTINCT FROM (SELECT g FROM commonest)
        ) c
        ORDER BY position`
    }

    /**
     * The products matching all groups but one (any one), in catalog order:
     * for each group left out, the GIN bitmaps of the others ANDed.
     */
    const matchingAllButOne = (
      params: SearchParams,
      assistantId: string,
      groups: ReadonlyArray<ReadonlyArray<string>>
    ) =>
      sql`
        SELECT ${candidateColumns} FROM products
        WHERE ${
        sql.and([
          ...optionalFilters(params),
          sql.or(
            groups.map((_, left) =>
              sql.and(groups.filter((_, i) => i !== left).map((terms) => holdsAny(assistantId, terms)))
            )
          )
        ])
      }
        ORDER BY position
        LIMIT ${maxCandidates}`

    /**
     * The products of the keyword read tier by tier, in one statement: each
     * tier is behind a one-time filter on the count of the ones before it, so
     * Postgres skips it when they fill the page (one round trip either way).
     * - Tier 0: the products matching every counted group.
     * - Tier 1 (three counted groups or more): those matching all of them but
     *   one. They rank above every product matching fewer (more words first),
     *   so when the two tiers fill the page nothing else is read. With them
     *   comes, per group, the count of its products up to `perGroup` (what the
     *   any-word read would have sampled of it; more in a small catalog, see
     *   below), for idf: which word a product misses decides its place among
     *   them. Skipped when a counted word is one the ranking does not count
     *   (see below). It spares a rare combination of common words (a colour
     *   and a two-word product type) the any-word read of every word.
     * - Tier 2: the products matching any group (`matchingAny`), when the
     *   tiers before do not fill the page. The first tiers' rows are kept:
     *   a common word's sample may have left them out.
     */
    const matchingInTiers = (
      params: SearchParams,
      assistantId: string,
      required: ReadonlyArray<ReadonlyArray<string>>,
      groups: ReadonlyArray<ReadonlyArray<string>>,
      needed: number,
      perGroup: number,
      /** Whether the commonest word's own products may be left out (see `matchingAny`). */
      leaveOutCommonest: boolean,
      words: ReadonlyArray<SearchEngine.QueryWord>,
      /** The assistant's catalog size, for the ranking's stop words. */
      products: number
    ) => {
      const anyWord = sql`
        SELECT 2 AS tier, id, fields, position, dropped, frequency, NULL::int[] AS frequencies, distance FROM (${
        matchingAny(params, assistantId, groups, perGroup, leaveOutCommonest ? { needed } : undefined)
      }) a`
      const everyWord = sql`
        SELECT 0 AS tier, id, fields, position, NULL::int AS dropped, NULL::int AS frequency,
          NULL::int[] AS frequencies, distance FROM every`
      if (required.length < 3) {
        return sql`
          WITH every AS MATERIALIZED (${matchingAll(params, assistantId, required)})
          ${everyWord}
          UNION ALL
          SELECT * FROM (${anyWord}) t WHERE (SELECT count(*) FROM every) < ${needed}`
      }
      // The ranking does not count a word more than half the catalog holds (a stop word of the catalog), so with
      // one among the counted groups tier 1 does not rank first and is not read. Up to 8,000 products the counts go
      // far enough to tell; above, the ranking never sees a word that common (what it counts of a word is at most
      // the 4,000 rows of tiers 0 and 1, or the count here).
      const commonAbove = SearchEngine.commonWordLimit(products)
      const countLimit = Math.max(perGroup, products <= 4 * maxCandidates ? commonAbove + 1 : 0)
      const sampledCounts = sql.csv(groups.map((terms) =>
        sql`(SELECT count(*)::int FROM (SELECT FROM products
              WHERE ${sql.and([...optionalFilters(params), holdsAny(assistantId, terms)])} LIMIT ${countLimit}) s)`
      ))
      // SQL arrays count from 1.
      const noneCommon = sql.and(
        groups.flatMap((_, i) =>
          words[i]?.counts === true
            ? [sql`(SELECT counts FROM sampled)[${sql.literal(String(i + 1))}] <= ${commonAbove}`]
            : []
        )
      )
      return sql`
        WITH every AS MATERIALIZED (${matchingAll(params, assistantId, required)}),
          sampled AS MATERIALIZED (SELECT ARRAY[${sampledCounts}] AS counts),
          most AS MATERIALIZED (
            SELECT * FROM (${matchingAllButOne(params, assistantId, required)}) m
            -- CASE, not AND: only CASE fixes the order, and the counts are taken only when tier 0 is short.
            WHERE CASE WHEN (SELECT count(*) FROM every) < ${needed} THEN ${noneCommon} ELSE false END)
        ${everyWord}
        UNION ALL
        -- The counts on tier 1's first row alone: parsing them on each of its rows was 3% of a search's CPU.
        SELECT 1, id, fields, position, NULL, NULL,
          CASE WHEN position = (SELECT min(position) FROM most) THEN (SELECT counts FROM sampled) END, distance
        FROM most
        UNION ALL
        SELECT * FROM (${anyWord}) t
        WHERE (SELECT count(*) FROM every) < ${needed} AND (SELECT count(*) FROM most) < ${needed}`
    }

    /** Candidates of a read's tiers as one list, each product once, in catalog order. */
    const merged = (tiers: ReadonlyArray<ReadonlyArray<Candidate>>): ReadonlyArray<Candidate> => {
      const seen = new Set<string>()
      const all: Array<Candidate> = []
      for (const tier of tiers) {
        for (const row of tier) {
          if (seen.has(row.id)) continue
          seen.add(row.id)
          all.push(row)
        }
      }
      return all.sort((a, b) => Number(a.position) - Number(b.position))
    }

    /** A row of the keyword read (`tier` only when it reads in tiers, see `matchingInTiers`). */
    const isCandidate = (row: unknown): row is Candidate & { readonly tier?: number } =>
      typeof row === "object" && row !== null && typeof Reflect.get(row, "id") === "string" &&
      typeof Reflect.get(row, "fields") === "string" && typeof Reflect.get(row, "position") === "string"

    /**
     * Per query word, the least number of products holding it: the count of a
     * word left out of the rows (`dropped`, `frequency`), or the sampled counts
     * of every word (`frequencies`).
     */
    const frequencyFloors = (rows: ReadonlyArray<unknown>, words: number): ReadonlyArray<number> => {
      const floors = new Array<number>(words).fill(0)
      let dropped = false
      let counted = false
      for (const row of rows) {
        if (dropped && counted) break
        if (typeof row !== "object" || row === null) continue
        const word = Reflect.get(row, "dropped")
        const frequency = Reflect.get(row, "frequency")
        // Every row of the any-word read names the same word (or none); rows of the other tiers name none.
        if (!dropped && typeof word === "number" && typeof frequency === "number" && word < words) {
          floors[word] = Math.max(floors[word] ?? 0, frequency)
          dropped = true
        }
        // Tier 1's first row carries the counts (see `matchingInTiers`).
        const frequencies: unknown = Reflect.get(row, "frequencies")
        if (!counted && Array.isArray(frequencies)) {
          frequencies.forEach((count: unknown, w) => {
            if (typeof count === "number" && w < words) floors[w] = Math.max(floors[w] ?? 0, count)
          })
          counted = true
        }
      }
      return floors
    }

    /**
     * The keyword side's read and how its rows become candidates. When the
     * fusion keeps the strong keyword rules (ratio below one half), the
     * products matching every counted query word rank above all others (more
     * words, then their idf weight, come first), and their order among
     * themselves does not depend on the others; so when they alone fill the
     * page, they are all that is fetched and ranked; a page they cannot fill
     * reads those matching all counted words but one (three words or more),
     * then, if the page is still not full, those matching any word (keeping
     * the first ones, which a common word's sample may have left out), and
     * leaves out those matching the commonest word alone when the others fill
     * it (see `matchingInTiers`).
     */
    const keywordRead = (
      assistantId: string,
      params: SearchParams,
      expansion: SearchEngine.Expansion,
      words: ReadonlyArray<SearchEngine.QueryWord>,
      ratio: number,
      needed: number,
      products: number
    ) => {
      const groups = expansion.map((terms) => [...terms.keys()])
      const required = groups.filter((_, i) => words[i]?.counts === true)
      const perGroup = Math.max(needed, Math.ceil(maxCandidates / groups.length))
      // Products matching only an uncounted word rank below those matching the commonest counted one.
      const leaveOutCommonest = ratio < 0.5 && required.length === groups.length
      const read = (rows: ReadonlyArray<unknown>) => {
        const candidates = rows.filter(isCandidate)
        return {
          candidates: candidates.some((row) => row.tier !== undefined)
            ? merged([0, 1, 2].map((tier) => candidates.filter((row) => row.tier === tier)))
            : candidates,
          frequencyFloors: frequencyFloors(rows, words.length)
        }
      }
      return {
        statement: required.length >= 2 && ratio < 0.5
          ? matchingInTiers(params, assistantId, required, groups, needed, perGroup, leaveOutCommonest, words, products)
          : matchingAny(
            params,
            assistantId,
            groups,
            perGroup,
            leaveOutCommonest ? { needed } : undefined
          ),
        read
      }
    }

    /**
     * The meaning side's read: the nearest products by cosine distance over
     * the halfvecs. A large assistant's own HNSW index (VectorIndexes.ts)
     * matches the cast and the predicate of this statement, so the planner
     * takes it; a small assistant's rows are scanned exactly. Iterative scans
     * keep an index scan going until the filters leave `pool` rows (their
     * order may be slightly relaxed, hence the sort of `nearest`).
     */
    const meaningRead = (assistantId: string, params: SearchParams, vector: ReadonlyArray<number>, pool: number) => {
      const dims = sql.literal(String(vector.length))
      const distance = sql`embedding::halfvec(${dims}) <=> ${vectorLiteral(vector)}::halfvec(${dims})`
      return sql`
        SELECT id, ${distance} AS distance FROM products
        WHERE ${sql.and([...filtersOf(assistantId, params), sql`embedding_model = ${embedder.modelId}`])}
        ORDER BY ${distance}
        LIMIT ${pool}`
    }

    /** A row of the meaning side's read (checked by hand: a schema decode of 40 rows cost more than the rest of it). */
    const isNeighbour = (row: unknown): row is { readonly id: string; readonly distance: number } =>
      typeof row === "object" && row !== null && typeof Reflect.get(row, "id") === "string" &&
      typeof Reflect.get(row, "distance") === "number"
    /** The meaning side's rows, nearest first, with their cosine similarity. */
    const nearest = (rows: ReadonlyArray<unknown>) =>
      rows.every(isNeighbour)
        ? Effect.succeed(
          [...rows].sort((a, b) => a.distance - b.distance).map((row) => ({ id: row.id, similarity: 1 - row.distance }))
        )
        : Effect.dieMessage("the meaning side's read returned rows without an id and a distance")

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
     * A parameter of the meaning side's read as an SQL literal: E'' quoting
     * escapes backslashes and quotes whatever `standard_conforming_strings`
     * says; numbers must be finite.
     */
    const literalOf = (value: unknown): string => {
      if (typeof value === "string") return `E'${value.replaceAll("\\", "\\\\").replaceAll("'", "''")}'`
      if (typeof value === "number" && Number.isFinite(value)) return String(value)
      if (typeof value === "boolean") return value ? "true" : "false"
      throw new Error(`no SQL literal for a parameter of type ${typeof value}`)
    }

    /** The read's rows among the results of the message below: two SETs, then the read. */
    const readRows = (results: unknown): ReadonlyArray<unknown> | null => {
      const read: unknown = Array.isArray(results) && results.length === 3 ? results[2] : null
      const rows: unknown = typeof read === "object" && read !== null ? Reflect.get(read, "rows") : null
      return Array.isArray(rows) ? rows : null
    }

    /**
     * Runs the meaning side's read with its HNSW settings in one message:
     * both settings with SET LOCAL, then the read, as one simple-protocol
     * query (the only way to send several statements in one round trip;
     * the read's parameters are written in as literals). Postgres runs such
     * a message as one implicit transaction, so the settings hold for the
     * read alone, behind a transaction-mode pooler too, never leak into the
     * pool, and an error rolls it all back. One round trip and one socket
     * write, where BEGIN with the settings, the read and the COMMIT took
     * three: a CPU profile of searches spent more time in
     * the socket writes of statements (each wakes a Postgres backend) than
     * in ranking. (The keyword side's read goes on another connection: in
     * the same message, the two reads ran one after the other and searches
     * took longer.)
     */
    const withVectorSettings = (read: Statement.Statement<unknown>, efSearch: number) =>
      Effect.gen(function*() {
        const [text, params] = read.compile()
        const inlined = text.replace(/\$(\d+)/g, (_, n: string) => literalOf(params[Number(n) - 1]))
        const results = yield* sql.unsafe(
          `SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${efSearch}; ${inlined}`
        ).raw
        const rows = readRows(results)
        return rows ?? (yield* Effect.dieMessage("the meaning side's message did not answer two SETs and a read"))
      })

    /**
     * The keyword read with the query's vector as `query_vector` (none: no
     * distances), sent once however many of its reads use it.
     */
    const withQueryVector = (statement: Statement.Statement<unknown>, vector: ReadonlyArray<number> | null) =>
      sql`
        WITH query_vector AS MATERIALIZED (
          SELECT ${vector === null ? null : vectorLiteral(vector)}::halfvec AS v, ${embedder.modelId}::text AS model)
        SELECT * FROM (${statement}) k ORDER BY position`

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
        const words = SearchEngine.parseQuery(params.query)
        const similarity = new Map<string, number>()
        if (words.length === 0) return { ranked: [], similarity }
        const expansion = yield* expansions.expand(sql, assistantId, words)
        const { read, statement } = keywordRead(assistantId, params, expansion, words, ratio, needed, products)
        const found = read(yield* prepared(sql, withQueryVector(statement, vector)))
        for (const candidate of found.candidates) {
          const distance: unknown = Reflect.get(candidate, "distance")
          if (typeof distance === "number") similarity.set(candidate.id, 1 - distance)
        }
        const ranked = SearchEngine.rankDocuments(words, expansion, found.candidates, products, found.frequencyFloors)
        return { ranked, similarity }
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
        : withVectorSettings(meaningRead(assistantId, params, vector, pool), efSearchFor(products)).pipe(
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
          return SearchEngine.fuse(keyword.ranked, meaning, ratio, keyword.similarity)
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
      ], { concurrency: 2 }).pipe(Effect.map(([keyword, meaning]) => SearchEngine.fuse(keyword, meaning, ratio)))
    }

    const search: ProductSearchShape["search"] = Effect.fn("ProductSearch.search")(
      function*(assistantId, params, options) {
        if (!searchEnabled) return yield* new Products.SearchUnavailable()
        const mode = options?.mode ?? "hybrid"
        const ratio = mode === "keyword" ? 0 : mode === "meaning" ? 1 : params.semanticRatio ?? defaultSemanticRatio
        const limit = params.limit ?? 20
        const offset = params.offset ?? 0
        const products = yield* catalogSizes.get(assistantId).pipe(Effect.orDie)
        const page = (yield* fused(assistantId, params, ratio, offset + limit, products).pipe(Effect.orDie))
          .slice(offset, offset + limit)
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

    return { search } satisfies ProductSearchShape
  })
).pipe(Layer.provide(Layer.mergeAll(ProductsRepo.Default, TermExpansions.Default)))
