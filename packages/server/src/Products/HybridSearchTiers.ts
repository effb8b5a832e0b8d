/**
 * The keyword side's statements: the products holding the expanded query
 * terms (GIN over the assistant-scoped terms, filters in the same query),
 * read in tiers so that a page the best matches fill reads nothing else.
 */
import type { SqlClient } from "@effect/sql"
import * as SearchEngine from "../Search/SearchEngine"
import { optionalFilters, type SearchParams } from "./HybridSearchFilters"

/** Keyword candidates ranked per query at most (catalog order decides beyond). */
export const maxCandidates = 2000

/**
 * "Holds one of these terms", over the GIN of the assistant-scoped terms.
 * A scoped term ("<assistant> <word>"; ids and words have no spaces) only
 * matches that assistant's rows, so no `assistant_id` condition is added:
 * with one, the planner ANDed the GIN's bitmap with a bitmap of all the
 * assistant's rows from its btree (100k entries read for nothing).
 */
export const holdsAny = (
  sql: SqlClient.SqlClient,
  assistantId: string,
  terms: ReadonlyArray<string>
) => sql`products_scoped_terms(assistant_id, search_terms) && ${terms.map((term) => `${assistantId} ${term}`)}::text[]`

/**
 * A candidate with its searched fields as one string, a line per field
 * (fields are words and single spaces), as the ranking reads them:
 * cheaper than parsing a text[] literal, which showed in profiles of
 * searches of large catalogs.
 */
export type Candidate = { readonly id: string; readonly fields: string; readonly position: string }
/**
 * With each candidate comes its cosine distance to the query's vector
 * (`query_vector`, see `withQueryVector`) when it has one of the current
 * embedder's: the meaning side's ranks of keyword matches (see `fused`).
 */
const candidateColumns = `id, array_to_string(search_fields, E'\\n', '') AS fields, position, ` +
  `CASE WHEN embedding_model = (SELECT model FROM query_vector) ` +
  `THEN embedding <=> (SELECT v FROM query_vector) END AS distance`

/** The products matching every group (holding one of its terms), in catalog order. */
export const matchingAll = (
  sql: SqlClient.SqlClient,
  params: SearchParams,
  assistantId: string,
  groups: ReadonlyArray<ReadonlyArray<string>>
) =>
  sql`
    SELECT ${sql.literal(candidateColumns)} FROM products
    WHERE ${sql.and([...optionalFilters(sql, params), ...groups.map((terms) => holdsAny(sql, assistantId, terms))])}
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
export const matchingAny = (
  sql: SqlClient.SqlClient,
  params: SearchParams,
  assistantId: string,
  groups: ReadonlyArray<ReadonlyArray<string>>,
  perGroup: number,
  fill?: { readonly needed: number }
) => {
  const reads = groups.map((terms, i) =>
    sql`(SELECT ${sql.literal(String(i))} AS g, ${sql.literal(candidateColumns)} FROM products
         WHERE ${sql.and([...optionalFilters(sql, params), holdsAny(sql, assistantId, terms)])}
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
export const matchingAllButOne = (
  sql: SqlClient.SqlClient,
  params: SearchParams,
  assistantId: string,
  groups: ReadonlyArray<ReadonlyArray<string>>
) =>
  sql`
    SELECT ${sql.literal(candidateColumns)} FROM products
    WHERE ${
    sql.and([
      ...optionalFilters(sql, params),
      sql.or(
        groups.map((_, left) =>
          sql.and(groups.filter((_, i) => i !== left).map((terms) => holdsAny(sql, assistantId, terms)))
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
export const matchingInTiers = (
  sql: SqlClient.SqlClient,
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
    matchingAny(sql, params, assistantId, groups, perGroup, leaveOutCommonest ? { needed } : undefined)
  }) a`
  const everyWord = sql`
    SELECT 0 AS tier, id, fields, position, NULL::int AS dropped, NULL::int AS frequency,
      NULL::int[] AS frequencies, distance FROM every`
  if (required.length < 3) {
    return sql`
      WITH every AS MATERIALIZED (${matchingAll(sql, params, assistantId, required)})
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
          WHERE ${
      sql.and([...optionalFilters(sql, params), holdsAny(sql, assistantId, terms)])
    } LIMIT ${countLimit}) s)`
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
    WITH every AS MATERIALIZED (${matchingAll(sql, params, assistantId, required)}),
      sampled AS MATERIALIZED (SELECT ARRAY[${sampledCounts}] AS counts),
      most AS MATERIALIZED (
        SELECT * FROM (${matchingAllButOne(sql, params, assistantId, required)}) m
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
