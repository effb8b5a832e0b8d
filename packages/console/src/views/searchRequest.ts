/** The search playground's form as the request `POST /products/search` takes, facet filters included. */
import { ProductFeed, type ProductSearch } from "@dastyar/sdk"

export type SortOrder = NonNullable<ProductSearch["sort"]>

/** The API's orders; relevance is no `sort` at all. */
export const sortOrders: ReadonlyArray<SortOrder> = ["price:asc", "price:desc", "newest"]

/** The facets the API counts at most in one search (the domain's `maxFacets`). */
const maxFacets = 10

/** Category and subcategory are columns; any other facet is an attribute key. */
export const columnFacets: ReadonlyArray<string> = ["category", "subcategory"]

export interface SearchForm {
  readonly query: string
  /** Facet → chosen value: `category`, `subcategory` or an attribute key. */
  readonly filters: Readonly<Record<string, string>>
  readonly minPrice: string
  readonly maxPrice: string
  readonly inStock: boolean
  readonly semanticRatio: number
  readonly sort: SortOrder | ""
  /** Attribute keys to count, as typed: separated by commas (Latin or Persian). */
  readonly attributeFacets: string
}

export const emptyForm: SearchForm = {
  query: "",
  filters: {},
  minPrice: "",
  maxPrice: "",
  inStock: false,
  // The API's default weight of meaning against keywords.
  semanticRatio: 0.2,
  sort: "",
  attributeFacets: ""
}

export const isSortOrder = (value: string): value is SortOrder => sortOrders.some((order) => order === value)

/** The attribute keys typed, without blanks, repeats or the column facets, as many as the API counts. */
export const attributeKeys = (typed: string): ReadonlyArray<string> =>
  [...new Set(typed.split(/[,،]/).map((key) => key.trim()).filter((key) => key !== ""))]
    .filter((key) => !columnFacets.includes(key))
    .slice(0, maxFacets - columnFacets.length)

const filled = (text: string) => text.trim() !== ""

export const searchRequest = (form: SearchForm): ProductSearch => {
  const { category, subcategory, ...attributes } = form.filters
  return {
    query: form.query,
    ...(category === undefined || !filled(category) ? {} : { category: category.trim() }),
    ...(subcategory === undefined ? {} : { subcategory }),
    // A facet shows an attribute's value as text; the filter compares numbers and true/false typed, as a feed has them.
    ...(Object.keys(attributes).length === 0
      ? {}
      : {
        attributes: Object.fromEntries(
          Object.entries(attributes).map(([key, value]) => [key, ProductFeed.asAttribute(value)])
        )
      }),
    ...(filled(form.minPrice) ? { minPrice: Number(form.minPrice) } : {}),
    ...(filled(form.maxPrice) ? { maxPrice: Number(form.maxPrice) } : {}),
    ...(form.inStock ? { inStock: true } : {}),
    semanticRatio: form.semanticRatio,
    ...(form.sort === "" ? {} : { sort: form.sort }),
    facets: [...columnFacets, ...attributeKeys(form.attributeFacets)]
  }
}

/** The form with one facet's filter set, or cleared when `value` is undefined. */
export const withFilter = (form: SearchForm, facet: string, value: string | undefined): SearchForm => {
  const { [facet]: _previous, ...others } = form.filters
  return { ...form, filters: value === undefined ? others : { ...others, [facet]: value } }
}
