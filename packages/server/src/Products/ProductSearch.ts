/**
 * Hybrid product search (keyword + meaning, fused), the same the assistant
 * uses in chat. The implementation lands with the catalog (issue 4).
 */
import type { Products } from "@dastyar/domain"
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

/** Which sides of the hybrid search run; only the relevance evaluation asks for one side. */
export type SearchMode = "hybrid" | "keyword" | "meaning"

export interface ProductSearchShape {
  readonly search: (
    assistantId: string,
    params: typeof Products.ProductSearch.Type,
    options?: { readonly mode?: SearchMode }
  ) => Effect.Effect<ReadonlyArray<typeof Products.ProductSearchHit.Type>, Products.SearchUnavailable>
  /** `facetDistribution` of a search with `facets`: value counts over every product it matches. */
  readonly facets: (
    assistantId: string,
    params: typeof Products.ProductSearch.Type
  ) => Effect.Effect<typeof Products.FacetDistribution.Type, Products.SearchUnavailable>
}

export class ProductSearch extends Context.Tag("ProductSearch")<ProductSearch, ProductSearchShape>() {}
