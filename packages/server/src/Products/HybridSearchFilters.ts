/**
 * The request's optional filters (category, subcategory, attributes, price,
 * stock) as SQL conditions, shared by the keyword and the meaning reads.
 */
import type { Products } from "@dastyar/domain"
import type { SqlClient } from "@effect/sql"
import { categoryKey } from "../Search/TextNormalization"

export type SearchParams = typeof Products.ProductSearch.Type

/**
 * The request's optional filters (category, attributes, price, stock), as
 * SQL conditions. The keyword reads (`onFoundRows`) test the category on
 * the rows the GIN found: `IS NOT DISTINCT FROM` (the same as `=` for a
 * value that is never null) is not indexable, and with `=` the planner
 * ANDed the GIN's bitmap with one from the (assistant, category) btree,
 * read whole without the assistant's id, for a few hundred rows. The meaning side's exact scan of a small assistant
 * has the id and uses that btree.
 */
export const optionalFilters = (
  sql: SqlClient.SqlClient,
  params: SearchParams,
  onFoundRows = true
) => {
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
export const filtersOf = (
  sql: SqlClient.SqlClient,
  assistantId: string,
  params: SearchParams
) => [
  sql`assistant_id = ${assistantId}`,
  ...optionalFilters(sql, params, false)
]
