/**
 * One search sent straight to Postgres, as the baseline beside the HTTP
 * figures, in the statements the service sends: the keyword candidates (the
 * products holding every content word of the query, through the GIN over the
 * assistant's scoped terms, filters applied; when fewer than a page, those
 * holding any word, each word's share of the 2,000 at most, in one statement)
 * with each candidate's distance to the query's vector (sent once), and, when
 * the candidates do not fill the page, the meaning side's 40 nearest (its HNSW
 * settings and the read in one message; the assistant's own index when it has
 * one). What this leaves out is the service's own cost: HTTP, JSON, the
 * dictionary lookup (typos, prefixes, stems), ranking in TypeScript, embedding
 * the query and reading the page.
 */
import type { Client } from "pg"
import { vectorLiteral } from "../../../packages/server/src/Search/Embedder"
import { embedOne, modelId as offlineModelId } from "../../../packages/server/src/Search/OfflineEmbedder"
import { stopWords } from "../../../packages/server/src/Search/SearchEngine"
import { wordsOf } from "../../../packages/server/src/Search/TextNormalization"
import type { BenchQuery } from "./products"
import { filterSql, meaningMessage, meaningPool } from "./recall"

/** The page size the benchmarks search with. */
export const searchLimit = 20

export const bareSearch = async (
  db: Client,
  target: {
    readonly assistantId: string
    readonly dims: number
    /** The assistant's catalog size (the meaning side's `hnsw.ef_search` follows it). */
    readonly products: number
  },
  query: BenchQuery
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
}
