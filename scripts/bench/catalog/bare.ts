/**
 * The catalog benchmark's baseline: the service's search statements (and, for a search with facets, its facet
 * statement) sent straight to Postgres from the benchmark's process, one after the other on one connection.
 */
import type { Client } from "pg"
import { vectorLiteral } from "../../../packages/server/src/Search/Embedder"
import { embedOne, modelId as offlineModelId } from "../../../packages/server/src/Search/OfflineEmbedder"
import { stopWords } from "../../../packages/server/src/Search/SearchEngine"
import { categoryKey, wordsOf } from "../../../packages/server/src/Search/TextNormalization"
import type { BenchQuery } from "./products"
import { filterSql, meaningMessage, meaningPool } from "./recall"
import { type Latency, since, summarize } from "./stats"

/** The page size of every measured search. */
export const searchLimit = 20

/** Values counted per facet at most, as the service (`maxValuesPerFacet`). */
const maxValuesPerFacet = 100

/**
 * The service's facet statement: the products holding every content word (or, when none does, any word) under the
 * filters, counted per facet by category, subcategory or attribute value; parameters from `$(first + 1)`.
 */
const facetStatement = (
  query: BenchQuery,
  facets: ReadonlyArray<string>,
  required: number,
  groups: number,
  holds: (i: number) => string
) => {
  const columns = "category, category_key, subcategory, subcategory_key, attribute_keys"
  const counts = facets.map((name) => {
    const quoted = `'${name.replace(/'/g, "''")}'`
    if (name === "category" || name === "subcategory") {
      return `(SELECT ${quoted}::text AS facet, min(${name}) AS value, count(*)::int AS n FROM m
        WHERE ${name}_key IS NOT NULL GROUP BY ${name}_key ORDER BY n DESC, value LIMIT ${maxValuesPerFacet})`
    }
    const key = `'${categoryKey(name).replace(/'/g, "''")}'`
    return `(SELECT ${quoted}::text AS facet, attribute_keys ->> ${key} AS value, count(*)::int AS n FROM m
      WHERE attribute_keys ? ${key} GROUP BY 2 ORDER BY n DESC, value LIMIT ${maxValuesPerFacet})`
  })
  const every = Array.from({ length: required }, (_, i) => holds(i)).join(" AND ")
  const any = Array.from({ length: groups }, (_, i) => holds(required + i)).join(" OR ")
  return `WITH every AS MATERIALIZED (SELECT ${columns} FROM products WHERE ${every}${filterSql(query)}),
    m AS MATERIALIZED (
      SELECT * FROM every
      UNION ALL
      SELECT ${columns} FROM products WHERE NOT EXISTS (SELECT 1 FROM every) AND (${any})${filterSql(query)})
    ${counts.join(" UNION ALL ")}`
}

/**
 * One search sent straight to Postgres, in the statements the service sends: the keyword candidates (the
 * products holding every content word of the query, through the GIN over the assistant's scoped terms, filters
 * applied; when fewer than a page, those holding any word, each word's share of the 2,000 at most, in one
 * statement) with each candidate's distance to the query's vector (sent once), and, when the candidates do not
 * fill the page, the meaning side's 40 nearest (its HNSW settings and the read in one message; the assistant's
 * own index when it has one). With `facets` the facet statement follows. What this leaves out is the service's
 * own cost: HTTP, JSON, the dictionary lookup (typos, prefixes, stems), ranking in TypeScript, embedding the
 * query and reading the page.
 */
export const bareSearch = async (
  db: Client,
  target: {
    readonly assistantId: string
    readonly dims: number
    /** The assistant's catalog size (the meaning side's `hnsw.ef_search` follows it). */
    readonly products: number
  },
  query: BenchQuery,
  facets: ReadonlyArray<string> = []
): Promise<void> => {
  const { assistantId, dims, products } = target
  const holds = (i: number) => `products_scoped_terms(assistant_id, search_terms) && $${i + 1}::text[]`
  const columns = `id, array_to_string(search_fields, E'\\n', '') AS fields, position, ` +
    `embedding <=> (SELECT v FROM query_vector) AS distance`
  const scoped = (groups: ReadonlyArray<ReadonlyArray<string>>) =>
    groups.map((terms) => terms.map((term) => `${assistantId} ${term}`))
  const everyWord = (groups: ReadonlyArray<ReadonlyArray<string>>) =>
    `SELECT ${columns} FROM products WHERE ${groups.map((_, i) => holds(i)).join(" AND ")}${
      filterSql(query)
    } ORDER BY position LIMIT 2000`
  /** Parameters from `$(first + 1)`. */
  const anyWord = (groups: ReadonlyArray<ReadonlyArray<string>>, first = 0) =>
    `SELECT DISTINCT ON (position) id, fields, position, distance FROM (${
      groups.map((_, i) =>
        `(SELECT ${columns} FROM products WHERE ${holds(first + i)}${filterSql(query)} LIMIT ${
          Math.max(searchLimit, Math.ceil(2000 / groups.length))
        })`
      ).join(" UNION ALL ")
    }) c ORDER BY position`
  /** The query's vector as `query_vector`, its parameter after the statement's others. */
  const withVector = (statement: string, params: ReadonlyArray<unknown>, vector: string) =>
    db.query<{ readonly id: string }>(
      `WITH query_vector AS MATERIALIZED (SELECT $${params.length + 1}::halfvec AS v) SELECT * FROM (${statement}) k`,
      [...params, vector]
    )
  const words = [...new Set(wordsOf(query.query))]
  const content = words.filter((word) => !stopWords.has(word))
  const vector = vectorLiteral(embedOne(query.query))
  const all = words.map((word) => [word])
  const required = content.map((word) => [word])
  // As the service reads them: every word's products, and any word's behind a one-time filter, one statement.
  const found = content.length < 2
    ? await withVector(anyWord(all), scoped(all), vector)
    : await withVector(
      `WITH every AS MATERIALIZED (${everyWord(required)})
       SELECT true AS every, id, fields, position, distance FROM every
       UNION ALL
       SELECT false, id, fields, position, distance FROM (${anyWord(all, required.length)}) a
       WHERE (SELECT count(*) FROM every) < ${searchLimit}`,
      [...scoped(required), ...scoped(all)],
      vector
    )
  if (new Set(found.rows.map((row) => row.id)).size < searchLimit) {
    await db.query(
      meaningMessage(query, dims, { assistantId, vector, model: offlineModelId, limit: meaningPool, products })
    )
  }
  if (facets.length > 0 && words.length > 0) {
    const counted = (content.length > 0 ? content : words).map((word) => [word])
    await db.query(facetStatement(query, facets, counted.length, all.length, holds), [
      ...scoped(counted),
      ...scoped(all)
    ])
  }
}

/** `bareSearch` over `queries` on one connection, one after the other, timed after `warmup` within `budgetMs`. */
export const bareSqlLatency = async (
  db: Client,
  assistantId: string,
  dims: number,
  /** The assistant's catalog size (the meaning side's `hnsw.ef_search` follows it). */
  products: number,
  queries: ReadonlyArray<BenchQuery>,
  options: { readonly warmup: number; readonly budgetMs: number },
  facets: ReadonlyArray<string> = []
): Promise<Latency> => {
  const samples: Array<number> = []
  let measuring = 0
  for (const [i, query] of queries.entries()) {
    if (i === options.warmup) measuring = performance.now()
    if (i > options.warmup && samples.length >= 10 && since(measuring) > options.budgetMs) break
    const start = performance.now()
    await bareSearch(db, { assistantId, dims, products }, query, facets)
    if (i >= options.warmup) samples.push(since(start))
  }
  return summarize(samples)
}
