/**
 * The body of `POST /products/import`, decoded a hundred products at a time:
 * decoding a thousand products with the domain's schema in one go held the
 * event loop, and every other shop's search with it (docs/benchmarks.md).
 * The answer is the framework's own: a body that is not a valid import is
 * decoded again whole by `Products.ProductImport`, so its 400 names the same
 * fields in the same order.
 */
import { Products } from "@dastyar/domain"
import { HttpApiError, type HttpServerRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Predicate from "effect/Predicate"
import * as Schema from "effect/Schema"
import * as EventLoop from "../Platform/EventLoop"

/** Products decoded between two turns of the event loop. */
const piece = 100

const decodeWhole = Schema.decodeUnknown(Products.ProductImport)
const decodeProducts = Schema.decodeUnknownEither(Schema.Array(Products.ProductCreate))
/** The import without its products: what the body holds besides them is checked with an empty list. */
const decodeRest = Schema.decodeUnknownEither(Products.ProductImport)

/**
 * The body as the framework reads it for a route with a JSON payload: `HttpApiBuilder` keeps its
 * `requestPayload` private, so its reading is repeated here.
 */
const bodyOf = (request: HttpServerRequest.HttpServerRequest): Effect.Effect<unknown> => {
  const contentType = request.headers["content-type"]?.toLowerCase().trim() ?? "application/json"
  if (contentType.includes("application/json")) return Effect.orDie(request.json)
  if (contentType.startsWith("text/")) return Effect.orDie(request.text)
  return Effect.map(Effect.orDie(request.arrayBuffer), (buffer) => new Uint8Array(buffer))
}

/** The products of a body, a piece at a time; none when any piece is not valid or the body is not an import. */
const inPieces = (body: unknown) =>
  Effect.gen(function*() {
    if (!Predicate.isRecord(body) || !Array.isArray(body.products)) return null
    const items: ReadonlyArray<unknown> = body.products
    if (items.length > Products.maxImportProducts) return null
    const rest = decodeRest({ ...body, products: [] })
    if (Either.isLeft(rest)) return null
    const products: Array<Products.ProductCreate> = []
    for (let start = 0; start < items.length; start += piece) {
      if (start > 0) yield* EventLoop.turn
      const decoded = decodeProducts(items.slice(start, start + piece))
      if (Either.isLeft(decoded)) return null
      products.push(...decoded.right)
    }
    return { ...rest.right, products }
  })

/** The import's payload, or the framework's decode failure (a 400 naming each invalid field). */
export const importPayload = (
  request: HttpServerRequest.HttpServerRequest
): Effect.Effect<typeof Products.ProductImport.Type, HttpApiError.HttpApiDecodeError> =>
  Effect.gen(function*() {
    const body = yield* bodyOf(request)
    const fast = yield* inPieces(body)
    if (fast !== null) return fast
    return yield* decodeWhole(body)
  }).pipe(Effect.catchIf(ParseResult.isParseError, HttpApiError.HttpApiDecodeError.refailParseError))
