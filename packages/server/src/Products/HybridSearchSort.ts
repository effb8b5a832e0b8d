/**
 * Sorting a search's relevant matches (`sort`): relevance decides what
 * matches and which bucket a product is in (how many query words it
 * matches, as the first ranking rule; products only the meaning side found
 * come last), and within a bucket the sort replaces the later ranking
 * rules, which then only break its ties. Products without a price sort
 * last by price.
 */
import type { Products } from "@dastyar/domain"
import type { SqlClient } from "@effect/sql"
import type * as SearchEngine from "../Search/SearchEngine"

export type SortOrder = NonNullable<typeof Products.ProductSearch.Type["sort"]>

export interface SortKey {
  readonly id: string
  readonly price: number | null
  readonly created: number
}

/** The sort keys of the given products. */
export const sortKeysRead = (sql: SqlClient.SqlClient, ids: ReadonlyArray<string>) =>
  sql<{ readonly id: string; readonly price: number | null; readonly created: number }>`
    SELECT id, price::float8 AS price, extract(epoch FROM created_at)::float8 AS created
    FROM products WHERE id = ANY(${ids}::text[])`

const compareBy = (order: SortOrder, a: SortKey | undefined, b: SortKey | undefined): number => {
  if (order === "newest") return (b?.created ?? 0) - (a?.created ?? 0)
  const pa = a?.price ?? null
  const pb = b?.price ?? null
  if (pa === null || pb === null) return pa === pb ? 0 : pa === null ? 1 : -1
  return order === "price:asc" ? pa - pb : pb - pa
}

/** Re-orders fused results by `order` within their buckets (see the module comment); ties keep relevance. */
export const sortMatches = (
  results: ReadonlyArray<SearchEngine.Fused>,
  matched: ReadonlyMap<string, number>,
  keys: ReadonlyMap<string, SortKey>,
  order: SortOrder
): ReadonlyArray<SearchEngine.Fused> =>
  results
    .map((result, index) => ({ result, index, bucket: -(matched.get(result.id) ?? -1) }))
    .sort((a, b) =>
      a.bucket - b.bucket || compareBy(order, keys.get(a.result.id), keys.get(b.result.id)) || a.index - b.index
    )
    .map(({ result }) => result)
