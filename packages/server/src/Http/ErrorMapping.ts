/**
 * The one place where failures the framework raises outside our handlers become
 * API errors: schema decode failures → `ValidationFailed` with `fields`,
 * unparsable JSON, wrong content types, oversized bodies and multipart limits,
 * unknown routes, and any defect → a logged 500 in the envelope.
 * It wraps the router, before the API's error schemas encode the envelope.
 */
import { DastyarApi, Errors, I18n, Limits, Validation } from "@dastyar/domain"
import {
  HttpApi,
  HttpApiBuilder,
  HttpApiError,
  HttpApiSchema,
  HttpIncomingMessage,
  HttpMethod,
  HttpServerError,
  HttpServerRequest,
  Multipart
} from "@effect/platform"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"

/** JSON bodies larger than this are refused before parsing (the Node server's own cap). */
export const maxJsonBodyBytes = 10 * 1024 * 1024

type EdgeError =
  | Errors.ValidationFailed
  | Errors.RouteNotFound
  | Errors.TooManyParts
  | Errors.MalformedJson
  | Errors.BodyTooDeep
  | Errors.PayloadTooLarge
  | Errors.UnsupportedContentType
  | Errors.InternalError

/**
 * The parser's report of a part whose Content-Disposition is missing or unreadable, or whose
 * `filename*` cannot be decoded (see patches/multipasta): the part is refused, never dropped.
 */
const UnreadableDisposition = Schema.Struct({
  _tag: Schema.Literal("InvalidDisposition"),
  part: Schema.Number,
  header: Schema.optional(Schema.String)
})
const unreadableDisposition = Schema.decodeUnknownOption(UnreadableDisposition)

/** A 400 naming the part by its position (`parts.N`, 0-based) and quoting the header it sent. */
const unreadablePart = ({ header, part }: typeof UnreadableDisposition.Type) =>
  new Errors.ValidationFailed({
    fields: [{
      property: `parts.${part}`,
      constraints: [I18n.token("request.part.unreadable_disposition", {
        number: part + 1,
        header: header === undefined ? "-" : header.length > 200 ? `${header.slice(0, 200)}…` : header
      })]
    }]
  })

const fromDefect = (defect: unknown): Option.Option<EdgeError> => {
  if (defect instanceof Multipart.MultipartError) {
    const unreadable = unreadableDisposition(defect.cause)
    if (Option.isSome(unreadable)) return Option.some(unreadablePart(unreadable.value))
    switch (defect.reason) {
      case "TooManyParts":
        return Option.some(new Errors.TooManyParts())
      case "Parse":
      case "InternalError":
        return Option.some(new Errors.MalformedJson())
      default:
        return Option.some(new Errors.PayloadTooLarge())
    }
  }
  // Decoding a body nested thousands of levels deep overflows the stack.
  if (defect instanceof RangeError && defect.message.includes("call stack")) {
    return Option.some(new Errors.BodyTooDeep())
  }
  if (HttpServerError.isServerError(defect) && defect._tag === "RequestError") {
    // The Node server caps bodies it reads (10 MB, like `maxJsonBodyBytes`).
    const tooLarge = defect.cause instanceof Error && defect.cause.message === "maxBytes exceeded"
    return Option.some(tooLarge ? new Errors.PayloadTooLarge() : new Errors.MalformedJson())
  }
  return Option.none()
}

/** Failures the framework raises, as API errors; the handlers' own errors pass through untouched. */
const recover = <E>(cause: Cause.Cause<E>): Effect.Effect<never, E | EdgeError> => {
  if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
  const failure: unknown = Option.getOrUndefined(Cause.failureOption(cause))
  if (failure instanceof HttpApiError.HttpApiDecodeError) {
    return Effect.fail(new Errors.ValidationFailed({ fields: Validation.fieldsOf(failure.issues) }))
  }
  if (HttpServerError.isServerError(failure) && failure._tag === "RouteNotFound") {
    return Effect.fail(new Errors.RouteNotFound())
  }
  if (failure !== undefined) return Effect.failCause(cause)
  const mapped = Option.flatMap(Cause.dieOption(cause), fromDefect)
  if (Option.isSome(mapped)) return Effect.fail(mapped.value)
  return Effect.logError("unhandled defect", cause).pipe(Effect.zipRight(Effect.fail(new Errors.InternalError())))
}

const routePattern = (path: string): RegExp =>
  new RegExp(`^${path.split("/").map((segment) => segment.startsWith(":") ? "[^/]+" : segment).join("/")}/?$`)

/** `METHOD path` patterns of the endpoints whose payload the domain declares as multipart. */
const multipartRoutes: ReadonlyArray<{ readonly method: string; readonly path: RegExp }> = (() => {
  const routes: Array<{ readonly method: string; readonly path: RegExp }> = []
  HttpApi.reflect(DastyarApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => {
      const multipart = Option.exists(
        endpoint.payloadSchema,
        (schema) => HttpApiSchema.getMultipart(schema.ast) !== undefined
      )
      if (!multipart) return
      routes.push({ method: endpoint.method, path: routePattern(endpoint.path) })
    }
  })
  return routes
})()

/** Body limits the domain declares (`Limits.MaxBodyBytes` on a group or endpoint), by route pattern. */
const bodyLimits: ReadonlyArray<{ readonly method: string; readonly path: RegExp; readonly maxBytes: number }> = (() => {
  const limits: Array<{ readonly method: string; readonly path: RegExp; readonly maxBytes: number }> = []
  HttpApi.reflect(DastyarApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, mergedAnnotations }) => {
      const maxBytes = Context.getOption(mergedAnnotations, Limits.MaxBodyBytes).pipe(
        Option.orElse(() => Context.getOption(group.annotations, Limits.MaxBodyBytes))
      )
      if (Option.isNone(maxBytes)) return
      limits.push({ method: endpoint.method, path: routePattern(endpoint.path), maxBytes: maxBytes.value })
    }
  })
  return limits
})()

const bodyLimitOf = (method: string, url: string): number => {
  const path = url.split("?")[0] ?? ""
  return bodyLimits.find((limit) => limit.method === method && limit.path.test(path))?.maxBytes ?? maxJsonBodyBytes
}

const acceptsMultipart = (method: string, url: string) => {
  const path = url.split("?")[0] ?? ""
  return multipartRoutes.some((route) => route.method === method && route.path.test(path))
}

/** JSON everywhere; multipart only where the domain declares a multipart payload. */
const isAcceptedBody = (contentType: string, method: string, url: string) =>
  contentType.includes("application/json") ||
  (contentType.includes("multipart/form-data") && acceptsMultipart(method, url))

/** Refuses, before routing, bodies the API can never accept. */
const checkRequestShape = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (!HttpMethod.hasBody(request.method)) return
  const contentType = request.headers["content-type"]?.toLowerCase()
  const length = Number(request.headers["content-length"] ?? "0")
  const hasBody = length > 0 || request.headers["transfer-encoding"] !== undefined
  if (contentType !== undefined && hasBody && !isAcceptedBody(contentType, request.method, request.url)) {
    return yield* new Errors.UnsupportedContentType()
  }
  const maxBytes = bodyLimitOf(request.method, request.url)
  if (contentType !== undefined && contentType.includes("application/json") && length > maxBytes) {
    return yield* new Errors.PayloadTooLarge()
  }
  return maxBytes
})

export const layer = HttpApiBuilder.middleware(DastyarApi, (app) =>
  checkRequestShape.pipe(
    // A chunked body has no Content-Length to check up front; reading stops at the same limit.
    Effect.flatMap((maxBytes) =>
      maxBytes === undefined ? app : HttpIncomingMessage.withMaxBodySize(app, Option.some(maxBytes))
    ),
    Effect.catchAllCause(recover)
  ))
