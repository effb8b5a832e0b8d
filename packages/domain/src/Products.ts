/**
 * The product catalog: written by caller-chosen `externalId`s, searched by
 * keyword and meaning. Field rules follow the spec's Product table.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import { ApiKeyAuth } from "./Auth"
import * as Constraint from "./Constraint"
import { errorFields, failure, ListOf, success } from "./Envelope"
import { AssistantNotFoundResponse, PayloadTooLargeResponse } from "./Errors"
import { token } from "./i18n"
import { MaxBodyBytes } from "./Limits"

/** Product request bodies larger than this are refused before parsing (413). */
export const maxBodyBytes = 3 * 1024 * 1024

/** The rules of an `externalId`, unbranded (a path parameter is a plain string for clients). */
const externalIdRules = Constraint.text({ min: 1, max: 191 }).pipe(
  Schema.pattern(/^[^\s/\\]+$/, { message: () => token("constraint.externalId") })
)
export const ExternalId = externalIdRules.pipe(Schema.brand("ExternalId"))
export type ExternalId = typeof ExternalId.Type

export const IndexState = Constraint.oneOf("pending", "synced", "failed")
export type IndexState = typeof IndexState.Type

const HttpUrl = Constraint.text({ max: 2048 }).pipe(
  Schema.pattern(/^https?:\/\/\S+$/i, { message: () => token("constraint.url") })
)

const reservedAttributes = ["price", "in_stock"]
const maxAttributeKeyLength = 200

export const AttributeValue = Schema.Union(
  Constraint.text({ max: 500 }),
  Constraint.Number,
  Constraint.Boolean
).annotations({ message: () => token("constraint.attributeValue") })

export const Attributes = Schema.Record({ key: Schema.String, value: AttributeValue }).pipe(
  Schema.filter((record) => {
    const keys = Object.keys(record)
    if (keys.length > 100) return token("constraint.maxEntries", { max: 100 })
    // A key failing a record's key schema is dropped silently on decoding, so the length is checked here.
    if (keys.some((key) => key.length > maxAttributeKeyLength)) {
      return token("constraint.maxLength", { max: maxAttributeKeyLength })
    }
    const reserved = keys.find((key) => reservedAttributes.includes(key))
    return reserved === undefined || token("constraint.reservedAttribute", { name: reserved })
  })
).annotations({
  identifier: "ProductAttributes",
  description: "Up to 100 entries; `price` and `in_stock` are reserved"
})

/** Writable fields; every one of them may be sent as a PATCH. */
const writableFields = {
  title: Constraint.text({ min: 1, max: 2000 }),
  category: Schema.NullOr(Constraint.text({ max: 500 })),
  subcategory: Schema.NullOr(Constraint.text({ max: 500 })),
  attributes: Attributes,
  description: Schema.NullOr(Constraint.text({ max: 10000 })),
  imageUrl: Schema.NullOr(HttpUrl),
  url: Schema.NullOr(HttpUrl),
  price: Schema.NullOr(Constraint.nonNegative),
  currency: Schema.NullOr(Constraint.text({ max: 8 })),
  inStock: Constraint.Boolean
}

export const Product = Schema.Struct({
  id: Schema.String,
  externalId: ExternalId,
  ...writableFields,
  indexState: IndexState,
  indexedAt: Schema.NullOr(Schema.DateTimeUtc),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}).annotations({ identifier: "Product" })
export type Product = typeof Product.Type

/** PUT body: full replacement, a field not sent is cleared (`inStock` back to true). */
export const ProductReplace = Schema.Struct({
  title: writableFields.title,
  category: Schema.optional(writableFields.category),
  subcategory: Schema.optional(writableFields.subcategory),
  attributes: Schema.optional(writableFields.attributes),
  description: Schema.optional(writableFields.description),
  imageUrl: Schema.optional(writableFields.imageUrl),
  url: Schema.optional(writableFields.url),
  price: Schema.optional(writableFields.price),
  currency: Schema.optional(writableFields.currency),
  inStock: Schema.optional(writableFields.inStock)
}).annotations({ identifier: "ProductReplace", parseOptions: { errors: "all" } })
export type ProductReplace = typeof ProductReplace.Type

export const ProductCreate = Schema.Struct({ externalId: ExternalId, ...ProductReplace.fields })
  .annotations({
    identifier: "ProductCreate",
    parseOptions: { errors: "all" },
    examples: [{
      externalId: ExternalId.make("sku-1042"),
      title: "Ceramic teapot, 1 l",
      category: "Kitchen",
      attributes: { color: "blue", capacityMl: 1000, dishwasherSafe: true },
      price: 890000,
      currency: "IRR",
      imageUrl: "https://shop.example.com/img/sku-1042.jpg",
      url: "https://shop.example.com/p/sku-1042"
    }]
  })
export type ProductCreate = typeof ProductCreate.Type

export const ProductPatch = Schema.partial(Schema.Struct(writableFields))
  .annotations({ identifier: "ProductPatch", parseOptions: { errors: "all" } })
export type ProductPatch = typeof ProductPatch.Type

export const ProductListQuery = Schema.Struct({
  limit: Schema.optional(Schema.NumberFromString.pipe(Schema.compose(Constraint.intBetween(1, 200)))),
  cursor: Schema.optional(Schema.String),
  q: Schema.optional(Constraint.text({ max: 2000 })),
  category: Schema.optional(Constraint.text({ max: 500 })),
  state: Schema.optional(IndexState)
})

export const ProductPage = Schema.Struct({
  list: Schema.Array(Product),
  nextCursor: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ProductPage" })

/** Facets one search may count at most. */
export const maxFacets = 10

export const ProductSearch = Schema.Struct({
  query: Constraint.text({ min: 1, max: 1000 }),
  category: Schema.optional(Constraint.text({ max: 500 })),
  subcategory: Schema.optional(Constraint.text({ max: 500 })),
  attributes: Schema.optional(
    Schema.Record({ key: Schema.String, value: AttributeValue }).pipe(
      Schema.filter((record) =>
        Object.keys(record).every((key) => key.length <= maxAttributeKeyLength) ||
        token("constraint.maxLength", { max: maxAttributeKeyLength })
      )
    )
  ),
  minPrice: Schema.optional(Constraint.nonNegative),
  maxPrice: Schema.optional(Constraint.nonNegative),
  inStock: Schema.optional(Constraint.Boolean),
  limit: Schema.optional(Constraint.intBetween(1, 100)),
  offset: Schema.optional(Constraint.intBetween(0, 1000)),
  semanticRatio: Schema.optional(
    Constraint.numberBetween(0, 1).annotations({
      description: "Weight of the meaning side against keywords: 0 keywords only, 1 meaning only (default 0.3)"
    })
  ),
  facets: Schema.optional(
    Constraint.arrayOf(Constraint.text({ min: 1, max: maxAttributeKeyLength }), { max: maxFacets }).annotations({
      description: "Count values of these fields over every match: category, subcategory or attribute keys"
    })
  ),
  sort: Schema.optional(
    Constraint.oneOf("price:asc", "price:desc", "newest").annotations({
      description: "Re-orders the relevant matches; relevance still decides what matches (see docs/search.md)"
    })
  )
}).annotations({
  identifier: "ProductSearch",
  parseOptions: { errors: "all" },
  examples: [{ query: "blue teapot", maxPrice: 1000000, inStock: true, limit: 10 }]
})

export const ProductSearchHit = Schema.Struct({
  ...Product.fields,
  distance: Schema.Number.annotations({ description: "Lower is closer" })
}).annotations({ identifier: "ProductSearchHit" })

/** Facet → value → number of matching products (only with `facets` in the request). */
export const FacetDistribution = Schema.Record({
  key: Schema.String,
  value: Schema.Record({ key: Schema.String, value: Schema.Int })
}).annotations({ identifier: "FacetDistribution" })

export const ProductSearchResult = Schema.Struct({
  ...ListOf(ProductSearchHit).fields,
  facetDistribution: Schema.optional(FacetDistribution)
}).annotations({ identifier: "ProductSearchResult" })

/** Products one import takes at most. */
export const maxImportProducts = 1000

export const ProductImport = Schema.Struct({
  products: Constraint.arrayOf(ProductCreate, { max: maxImportProducts })
}).annotations({ identifier: "ProductImport", parseOptions: { errors: "all" } })

export const ProductImportResult = Schema.Struct({
  created: Schema.Int,
  updated: Schema.Int,
  unchanged: Schema.Int
}).annotations({ identifier: "ProductImportResult" })

export const ProductBulkDelete = Schema.Struct({
  externalIds: Constraint.arrayOf(ExternalId, { min: 1, max: 1000 })
}).annotations({ identifier: "ProductBulkDelete", parseOptions: { errors: "all" } })

export const ProductBulkDeleteResult = Schema.Struct({ deleted: Schema.Int, notFound: Schema.Int })
  .annotations({ identifier: "ProductBulkDeleteResult" })

export class ProductNotFound extends Schema.TaggedError<ProductNotFound>()("ProductNotFound", errorFields) {}
export const ProductNotFoundResponse = failure(ProductNotFound, { status: 404, code: "products.not_found" })

export class ExternalIdTaken extends Schema.TaggedError<ExternalIdTaken>()("ExternalIdTaken", errorFields) {}
export const ExternalIdTakenResponse = failure(ExternalIdTaken, { status: 409, code: "products.external_id_taken" })

export class DuplicateExternalId extends Schema.TaggedError<DuplicateExternalId>()(
  "DuplicateExternalId",
  errorFields
) {}
export const DuplicateExternalIdResponse = failure(DuplicateExternalId, {
  status: 400,
  code: "products.duplicate_external_id"
})

export class ProductLimitReached extends Schema.TaggedError<ProductLimitReached>()(
  "ProductLimitReached",
  errorFields
) {}
export const ProductLimitReachedResponse = failure(ProductLimitReached, { status: 403, code: "products.limit_reached" })

export class InvalidCursor extends Schema.TaggedError<InvalidCursor>()("InvalidCursor", errorFields) {}
export const InvalidCursorResponse = failure(InvalidCursor, { status: 400, code: "products.invalid_cursor" })

export class SearchUnavailable extends Schema.TaggedError<SearchUnavailable>()("SearchUnavailable", errorFields) {}
export const SearchUnavailableResponse = failure(SearchUnavailable, {
  status: 503,
  code: "products.search_unavailable"
})

const assistantPath = HttpApiSchema.param("assistantCode", AssistantId)
const externalIdPath = HttpApiSchema.param("externalId", Schema.String)
/** A PUT may create the product under this id, so it must be a valid one (the other routes answer 404 for any). */
const newExternalIdPath = HttpApiSchema.param("externalId", externalIdRules)

export class ProductsApi extends HttpApiGroup.make("products")
  .annotate(OpenApi.Title, "Products")
  .add(
    HttpApiEndpoint.post("create")`/assistants/${assistantPath}/products`
      .annotate(OpenApi.Summary, "Create a product")
      .setPayload(ProductCreate)
      .addSuccess(success(Product, { identifier: "ProductCreatedResponse", status: 201 }))
      .addError(ExternalIdTakenResponse)
      .addError(ProductLimitReachedResponse)
  )
  .add(
    HttpApiEndpoint.get("list")`/assistants/${assistantPath}/products`
      .annotate(OpenApi.Summary, "List products")
      .setUrlParams(ProductListQuery)
      .addSuccess(success(ProductPage, { identifier: "ProductPageResponse" }))
      .addError(InvalidCursorResponse)
      .annotate(OpenApi.Description, "Paginated by cursor, in order of first creation; no count.")
  )
  .add(
    HttpApiEndpoint.post("import")`/assistants/${assistantPath}/products/import`
      .annotate(OpenApi.Summary, "Import products")
      .setPayload(ProductImport)
      .addSuccess(success(ProductImportResult, { identifier: "ProductImportResponse" }))
      .addError(DuplicateExternalIdResponse)
      .addError(ProductLimitReachedResponse)
  )
  .add(
    HttpApiEndpoint.post("bulkDelete")`/assistants/${assistantPath}/products/delete`
      .annotate(OpenApi.Summary, "Delete products in bulk")
      .setPayload(ProductBulkDelete)
      .addSuccess(success(ProductBulkDeleteResult, { identifier: "ProductBulkDeleteResponse" }))
  )
  .add(
    HttpApiEndpoint.post("search")`/assistants/${assistantPath}/products/search`
      .annotate(OpenApi.Summary, "Search products")
      .setPayload(ProductSearch)
      .addSuccess(success(ProductSearchResult, { identifier: "ProductSearchResponse" }))
      .addError(SearchUnavailableResponse)
  )
  .add(
    HttpApiEndpoint.get("get")`/assistants/${assistantPath}/products/${externalIdPath}`
      .annotate(OpenApi.Summary, "Get a product")
      .addSuccess(success(Product, { identifier: "ProductResponse" }))
      .addError(ProductNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.put("replace")`/assistants/${assistantPath}/products/${newExternalIdPath}`
      .annotate(OpenApi.Summary, "Create or replace a product")
      .setPayload(ProductReplace)
      .addSuccess(success(Product, { identifier: "ProductReplacedResponse" }))
      .addError(ProductLimitReachedResponse)
  )
  .add(
    HttpApiEndpoint.patch("update")`/assistants/${assistantPath}/products/${externalIdPath}`
      .annotate(OpenApi.Summary, "Update a product")
      .setPayload(ProductPatch)
      .addSuccess(success(Product, { identifier: "ProductUpdatedResponse" }))
      .addError(ProductNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.del("delete")`/assistants/${assistantPath}/products/${externalIdPath}`
      .annotate(OpenApi.Summary, "Delete a product")
      .addSuccess(success(Schema.Null, { identifier: "ProductDeletedResponse" }))
      .addError(ProductNotFoundResponse)
  )
  .addError(AssistantNotFoundResponse)
  .addError(PayloadTooLargeResponse)
  .middleware(ApiKeyAuth)
  .annotate(MaxBodyBytes, maxBodyBytes)
  .prefix("/v1")
  .annotate(
    OpenApi.Description,
    "The per-assistant product catalog, written by externalId and searched by keyword and meaning."
  )
{}
