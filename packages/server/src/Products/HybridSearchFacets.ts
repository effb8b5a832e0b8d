/**
 * Facet counts of a search: per requested facet (`category`, `subcategory`
 * or an attribute key), how many products of the full match set hold each
 * value, not only those of the page. The match set is the products holding
 * every counted query word (a term of each word's expansion) under the
 * filters, or, when none does, those holding any word.
 */
import type { SqlClient } from "@effect/sql"
import { categoryKey } from "../Search/TextNormalization"
import { optionalFilters, type SearchParams } from "./HybridSearchFilters"

/** Values counted per facet at most, the commonest first (Meilisearch's `maxValuesPerFacet`). */
export const maxValuesPerFacet = 100

export type FacetDistribution = Record<string, Record<string, number>>

export interface FacetRow {
  readonly facet: string
  readonly value: string | null
  readonly n: number
}

const holdsAny = (sql: SqlClient.SqlClient, assistantId: string, terms: ReadonlyArray<string>) =>
  sql`products_scoped_terms(assistant_id, search_terms) && ${terms.map((term) => `${assistantId} ${term}`)}::text[]`

/** One facet's counts over `m`: category and subcategory by their key (shown as written), attributes by value. */
const facetCounts = (sql: SqlClient.SqlClient, name: string) => {
  const column = name === "category" ? "category" : name === "subcategory" ? "subcategory" : null
  if (column !== null) {
    const key = sql.literal(`${column}_key`)
    return sql`(SELECT ${name}::text AS facet, min(${sql.literal(column)}) AS value, count(*)::int AS n FROM m
                WHERE ${key} IS NOT NULL GROUP BY ${key} ORDER BY n DESC, value LIMIT ${maxValuesPerFacet})`
  }
  const key = categoryKey(name)
  return sql`(SELECT ${name}::text AS facet, attribute_keys ->> ${key} AS value, count(*)::int AS n FROM m
              WHERE attribute_keys ? ${key} GROUP BY 2 ORDER BY n DESC, value LIMIT ${maxValuesPerFacet})`
}

/** The statement counting `facets` for a query's term groups (`required`: the counted words' groups). */
export const facetRead = (
  sql: SqlClient.SqlClient,
  assistantId: string,
  params: SearchParams,
  required: ReadonlyArray<ReadonlyArray<string>>,
  groups: ReadonlyArray<ReadonlyArray<string>>,
  facets: ReadonlyArray<string>
) => {
  const columns = sql.literal("category, category_key, subcategory, subcategory_key, attribute_keys")
  const filters = optionalFilters(sql, params)
  return sql<FacetRow>`
    WITH every AS MATERIALIZED (
      SELECT ${columns} FROM products
      WHERE ${sql.and([...filters, ...required.map((terms) => holdsAny(sql, assistantId, terms))])}),
    m AS MATERIALIZED (
      SELECT * FROM every
      UNION ALL
      SELECT ${columns} FROM products
      WHERE NOT EXISTS (SELECT 1 FROM every)
        AND ${sql.and([...filters, sql.or(groups.map((terms) => holdsAny(sql, assistantId, terms)))])})
    ${sql.join(" UNION ALL ", false)(facets.map((name) => facetCounts(sql, name)))}`
}

/** The read's rows as `facetDistribution`; every requested facet is present, empty when nothing holds it. */
export const distributionOf = (
  facets: ReadonlyArray<string>,
  rows: ReadonlyArray<FacetRow>
): FacetDistribution => {
  const distribution: FacetDistribution = Object.fromEntries(facets.map((name) => [name, {}]))
  for (const row of rows) {
    const counts = distribution[row.facet]
    if (counts !== undefined && row.value !== null) counts[row.value] = row.n
  }
  return distribution
}
