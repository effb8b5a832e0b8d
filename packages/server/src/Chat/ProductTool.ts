/**
 * The product-search tool offered to the model when the assistant has it on:
 * the catalog's hybrid search with its filters. The model reads a compact
 * JSON list back; the full products travel to `data.products`.
 */
import type { Products } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { ProductSearchShape } from "../Products/ProductSearch"
import type { Tool, ToolOutput } from "./ChatModel"

const Arguments = Schema.Struct({
  query: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(1000)),
  category: Schema.optional(Schema.String),
  minPrice: Schema.optional(Schema.Number.pipe(Schema.nonNegative())),
  maxPrice: Schema.optional(Schema.Number.pipe(Schema.nonNegative())),
  inStock: Schema.optional(Schema.Boolean)
})

/** Results per call: enough to choose from, few enough to keep the prompt small. */
const resultsPerCall = 5

const parameters = {
  type: "object",
  properties: {
    query: { type: "string", description: "What the customer is looking for, in their words" },
    category: { type: "string", description: "Only products of this exact category" },
    minPrice: {
      type: "number",
      description: "Lowest price, inclusive, as a plain number: set it when the customer names a floor " +
        "(\"over 2 million\", \"بالای ۲ میلیون\" is 2000000)"
    },
    maxPrice: {
      type: "number",
      description: "Highest price, inclusive, as a plain number: set it when the customer names a ceiling " +
        "(\"under 1 million toman\", \"زیر ۵۰۰ هزار\" is 500000)"
    },
    inStock: { type: "boolean", description: "True to list only products in stock" }
  },
  required: ["query"],
  additionalProperties: false
}

const compact = (product: Products.Product) => ({
  title: product.title,
  price: product.price,
  currency: product.currency,
  inStock: product.inStock,
  category: product.category,
  attributes: product.attributes,
  description: product.description === null ? null : product.description.slice(0, 300),
  url: product.url,
  imageUrl: product.imageUrl
})

const failed = (error: string): ToolOutput => ({ content: JSON.stringify({ error }), products: [] })

/**
 * The tool for one turn. `bounds` are the price bounds the customer's question states (PriceBounds.ts):
 * they apply when the model's call sets none, so a stated ceiling holds whatever the model sends.
 */
export const productSearchTool = (
  search: ProductSearchShape,
  assistantId: string,
  bounds: { readonly minPrice?: number; readonly maxPrice?: number } = {}
): Tool => ({
  name: "search_products",
  description: "Search this shop's product catalog by keywords or meaning, in any language. " +
    "Returns matching products with title, price, currency, stock, link and image.",
  parameters,
  run: (args) =>
    Schema.decodeUnknown(Arguments)(args).pipe(
      Effect.flatMap((params) => {
        const minPrice = params.minPrice ?? bounds.minPrice
        const maxPrice = params.maxPrice ?? bounds.maxPrice
        return search.search(assistantId, {
          query: params.query,
          ...(params.category === undefined ? {} : { category: params.category }),
          ...(minPrice === undefined ? {} : { minPrice }),
          ...(maxPrice === undefined ? {} : { maxPrice }),
          ...(params.inStock === undefined ? {} : { inStock: params.inStock }),
          limit: resultsPerCall
        })
      }),
      Effect.map((hits): ToolOutput => ({
        content: JSON.stringify({ products: hits.map(compact) }),
        products: hits
      })),
      Effect.catchTags({
        ParseError: () => Effect.succeed(failed("invalid arguments: `query` (1-1000 characters) is required")),
        SearchUnavailable: () => Effect.succeed(failed("product search is not available right now"))
      }),
      // A broken search (a defect) must not end the whole turn: the model is told the tool failed and answers
      // without it. Interruption (the client left) is not caught.
      Effect.catchAllDefect((defect) =>
        Effect.logError("product search tool failed", defect).pipe(Effect.as(failed("product search failed")))
      ),
      Effect.withSpan("Chat.productSearchTool")
    )
})
