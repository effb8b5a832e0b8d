/**
 * The meaning side's read: the nearest products by cosine distance over the
 * current embedder's halfvecs, with the HNSW settings sent in the same
 * message.
 */
import type { SqlClient, Statement } from "@effect/sql"
import * as Effect from "effect/Effect"
import { vectorLiteral } from "../Search/Embedder"
import { filtersOf, type SearchParams } from "./HybridSearchFilters"

/**
 * HNSW candidates per query (pgvector's `hnsw.ef_search`) for an assistant's catalog size: a graph's recall
 * at a given `ef_search` falls as it grows, and each doubling makes the scan slower. The steps are the smallest
 * that keep recall@10 above its target on bench:catalog's catalogs (docs/benchmarks.md), with a margin for the
 * variation between builds of a graph.
 */
export const efSearchFor = (products: number): number => products <= 25_000 ? 100 : products <= 50_000 ? 200 : 300

/**
 * The meaning side's read: the nearest products by cosine distance over
 * the halfvecs. A large assistant's own HNSW index (VectorIndexes.ts)
 * matches the cast and the predicate of this statement, so the planner
 * takes it; a small assistant's rows are scanned exactly. Iterative scans
 * keep an index scan going until the filters leave `pool` rows (their
 * order may be slightly relaxed, hence the sort of `nearest`).
 */
export const meaningRead = (
  sql: SqlClient.SqlClient,
  modelId: string,
  assistantId: string,
  params: SearchParams,
  vector: ReadonlyArray<number>,
  pool: number
) => {
  const dims = sql.literal(String(vector.length))
  const distance = sql`embedding::halfvec(${dims}) <=> ${vectorLiteral(vector)}::halfvec(${dims})`
  return sql`
    SELECT id, ${distance} AS distance FROM products
    WHERE ${sql.and([...filtersOf(sql, assistantId, params), sql`embedding_model = ${modelId}`])}
    ORDER BY ${distance}
    LIMIT ${pool}`
}

/**
 * A product's fields as `ProductsRepo.ProductRow` names them but its id and position, which a read of candidates
 * has already (the messages that carry them get no name transform).
 */
export const shownColumns = (sql: SqlClient.SqlClient) =>
  sql`p.external_id AS "externalId", p.title, p.category, p.subcategory, p.attributes, p.description,
    p.image_url AS "imageUrl", p.url, p.price, p.currency, p.in_stock AS "inStock", p.index_state AS "indexState",
    p.indexed_at AS "indexedAt", p.created_at AS "createdAt", p.updated_at AS "updatedAt"`

const pageColumns = (sql: SqlClient.SqlClient) => sql`p.id, ${shownColumns(sql)}, p.position::text AS position`

/**
 * The meaning side's read that also brings the fields of the products a page may show: its neighbours' and
 * those of `carried` (the keyword matches, all of which come first on the page when this read runs). The
 * page then needs no read of its own. The neighbours are found as in `meaningRead`, then joined by id.
 */
export const meaningReadWithRows = (
  sql: SqlClient.SqlClient,
  read: Statement.Statement<unknown>,
  carried: ReadonlyArray<string>
) =>
  sql`
    WITH nearest AS MATERIALIZED (${read})
    SELECT n.distance, ${pageColumns(sql)} FROM nearest n JOIN products p ON p.id = n.id${
    carried.length === 0 ? sql`` : sql`
    UNION ALL
    SELECT NULL::float8, ${pageColumns(sql)} FROM products p
    WHERE p.id IN ${sql.in(carried)} AND p.id NOT IN (SELECT id FROM nearest)`
  }`

/** A row of the meaning side's read (checked by hand: a schema decode of 40 rows cost more than the rest of it). */
const isNeighbour = (row: unknown): row is { readonly id: string; readonly distance: number } =>
  typeof row === "object" && row !== null && typeof Reflect.get(row, "id") === "string" &&
  typeof Reflect.get(row, "distance") === "number"
/** The meaning side's rows, nearest first, with their cosine similarity (rows without a distance are left out). */
export const nearest = (rows: ReadonlyArray<unknown>) => {
  const neighbours = rows.filter((row) => Reflect.get(Object(row), "distance") !== null)
  return neighbours.every(isNeighbour)
    ? Effect.succeed(
      neighbours.sort((a, b) => a.distance - b.distance).map((row) => ({ id: row.id, similarity: 1 - row.distance }))
    )
    : Effect.dieMessage("the meaning side's read returned rows without an id and a distance")
}

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
export const withVectorSettings = (
  sql: SqlClient.SqlClient,
  read: Statement.Statement<unknown>,
  efSearch: number
) =>
  Effect.gen(function*() {
    const [text, params] = read.compile()
    const inlined = text.replace(/\$(\d+)/g, (_, n: string) => literalOf(params[Number(n) - 1]))
    const results = yield* sql.unsafe(
      `SET LOCAL hnsw.iterative_scan = relaxed_order; SET LOCAL hnsw.ef_search = ${efSearch}; ${inlined}`
    ).raw
    const rows = readRows(results)
    return rows ?? (yield* Effect.dieMessage("the meaning side's message did not answer two SETs and a read"))
  })
