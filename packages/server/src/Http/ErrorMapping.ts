/**
 * The one place where failures the framework raises outside our handlers become
 * API errors: schema decode failures → `ValidationFailed` with `fields`,
 * unparsable JSON, wrong content types, oversized bodies and multipart limits,
 * unknown routes, the database being unreachable → 503 `service.not_ready`, and
 * any other defect → a logged 500 in the envelope.
 * It wraps the router, before the API's error schemas encode the envelope.
 */
import { DastyarApi, Errors, I18n, Limits, System, Validation } from "@dastyar/domain"
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
import { NodeHttpServerRequest } from "@effect/platform-node"
import * as Cause from "effect/Cause"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { isDatabaseUnreachable } from "../Database/Database"

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
  | System.NotReady

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
  // Postgres down or restarting: the client may retry, as with /ready's 503.
  if (isDatabaseUnreachable(defect)) return Option.some(new System.NotReady())
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

/**
 * The router refuses path parameters longer than this (find-my-way's default is
 * 100). Long enough for a 191-character `externalId` of three-byte characters
 * percent-encoded; the schemas decide the real limits.
 */
export const maxPathParamLength = 191 * 9

/** Every endpoint's `METHOD` and path segments, to name the path parameters of a request. */
const endpointPaths: ReadonlyArray<{ readonly method: string; readonly segments: ReadonlyArray<string> }> = (() => {
  const paths: Array<{ readonly method: string; readonly segments: ReadonlyArray<string> }> = []
  HttpApi.reflect(DastyarApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint }) => paths.push({ method: endpoint.method, segments: endpoint.path.split("/") })
  })
  return paths
})()

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
const bodyLimits: ReadonlyArray<{ readonly method: string; readonly path: RegExp; readonly maxBytes: number }> =
  (() => {
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

/** The media type alone, without parameters (`application/json; charset=utf-8` → `application/json`). */
const mediaTypeOf = (contentType: string) => (contentType.split(";")[0] ?? "").trim().toLowerCase()

/** JSON everywhere; multipart only where the domain declares a multipart payload. Matched exactly. */
const isAcceptedBody = (mediaType: string, method: string, url: string) =>
  mediaType === "application/json" || (mediaType === "multipart/form-data" && acceptsMultipart(method, url))

/** Refuses, before routing, bodies the API can never accept; a body without a `Content-Type` included. */
const checkRequestShape = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (!HttpMethod.hasBody(request.method)) return undefined
  const mediaType = mediaTypeOf(request.headers["content-type"] ?? "")
  const length = Number(request.headers["content-length"] ?? "0")
  const chunked = request.headers["transfer-encoding"] !== undefined
  if ((length > 0 || chunked) && !isAcceptedBody(mediaType, request.method, request.url)) {
    return yield* new Errors.UnsupportedContentType()
  }
  // The multipart parser throws (a 500) on a missing boundary instead of failing; refuse it as unparsable here.
  if (mediaType === "multipart/form-data" && !/;\s*boundary=[^;\s]/i.test(request.headers["content-type"] ?? "")) {
    return yield* new Errors.MalformedJson()
  }
  const maxBytes = bodyLimitOf(request.method, request.url)
  const json = mediaType === "application/json"
  if (json && length > maxBytes) return yield* new Errors.PayloadTooLarge()
  return { maxBytes, json, chunked }
})

/**
 * Reads a chunked JSON body up to `maxBytes`. Past the limit the rest is
 * drained, not the connection reset (as the platform's reader does), so the
 * client reads the 413.
 */
const readChunkedBody = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  Effect.async<string, Errors.PayloadTooLarge | Errors.MalformedJson>((resume) => {
    const source = NodeHttpServerRequest.toIncomingMessage(request)
    const chunks: Array<Buffer> = []
    let bytes = 0
    let over = false
    source.on("data", (chunk: Buffer) => {
      if (over) return
      bytes += chunk.length
      if (bytes <= maxBytes) return void chunks.push(chunk)
      over = true
      chunks.length = 0
      resume(Effect.fail(new Errors.PayloadTooLarge()))
    })
    source.on("end", () => {
      if (!over) resume(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
    })
    source.on("error", () => {
      if (!over) resume(Effect.fail(new Errors.MalformedJson()))
    })
  })

/** The request with its already-read body, for the handlers. */
const withBody = (request: HttpServerRequest.HttpServerRequest, body: string) =>
  HttpServerRequest.fromWeb(
    new Request(`http://localhost${request.url}`, { method: request.method, headers: request.headers, body })
  ).modify({
    url: request.url,
    ...Option.match(request.remoteAddress, { onNone: () => ({}), onSome: (remoteAddress) => ({ remoteAddress }) })
  })

/**
 * NUL (which Postgres refuses in text and JSON) and UTF-16 surrogates without
 * their pair (which JSON storage refuses): never stored, so refused everywhere.
 */
const unstorable = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/

/** A position in a JSON body: its key and its parent, so a deep body costs no path copies. */
interface BodyPosition {
  readonly key: string
  readonly parent: BodyPosition | undefined
}

const propertyOf = (position: BodyPosition | undefined): string => {
  const keys: Array<string> = []
  for (let at = position; at !== undefined; at = at.parent) keys.unshift(at.key)
  return keys.length === 0 ? "body" : keys.join(".")
}

/** Validation `fields` names of the strings (object keys included) in a JSON body that hold unstorable characters. */
const unstorableInBody = (body: unknown): Array<string> => {
  const found: Array<string> = []
  // A loop, not recursion: a hostile body may nest thousands of levels deep.
  const pending: Array<{ readonly value: unknown; readonly position: BodyPosition | undefined }> = [
    { value: body, position: undefined }
  ]
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const { position, value } = next
    if (typeof value === "string") {
      if (unstorable.test(value)) found.push(propertyOf(position))
    } else if (Array.isArray(value)) {
      value.forEach((item: unknown, index) =>
        pending.push({ value: item, position: { key: String(index), parent: position } })
      )
    } else if (typeof value === "object" && value !== null) {
      for (const [key, item] of Object.entries(value)) {
        const at = { key, parent: position }
        if (unstorable.test(key)) found.push(propertyOf(at))
        pending.push({ value: item, position: at })
      }
    }
  }
  return found
}

const decodeOrRaw = (text: string) => {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}

/** Names of the path and query parameters that hold unstorable characters once decoded. */
const unstorableInUrl = (method: string, url: string): Array<string> => {
  // Node's parser refuses control characters in the request line and reads it as latin1 (no surrogates):
  // only a percent-escape can decode to an unstorable character, so most URLs need no decoding at all.
  if (!url.includes("%")) return []
  const [path = "", query = ""] = url.split("?", 2)
  const segments = path.split("/")
  const endpoint = endpointPaths.find((candidate) =>
    candidate.method === method &&
    candidate.segments.length === segments.length &&
    candidate.segments.every((segment, index) => segment.startsWith(":") || segment === segments[index])
  )
  const found = segments.flatMap((segment, index) =>
    unstorable.test(decodeOrRaw(segment)) ? [endpoint?.segments[index]?.replace(/^:/, "") ?? "path"] : []
  )
  for (const [key, value] of new URLSearchParams(query)) {
    if (unstorable.test(key) || unstorable.test(value)) found.push(key)
  }
  return found
}

const refuseUnstorable = (properties: ReadonlyArray<string>) =>
  properties.length === 0 ? Effect.void : Effect.fail(
    new Errors.ValidationFailed({
      fields: Array.from(new Set(properties), (property) => ({
        property,
        constraints: [I18n.token("constraint.character")]
      }))
    })
  )

/**
 * Checks every string the API takes (path, query and JSON body) once, here,
 * before any handler: one rule for the characters no field may hold.
 */
const checkStrings = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  yield* refuseUnstorable(unstorableInUrl(request.method, request.url))
  const mediaType = mediaTypeOf(request.headers["content-type"] ?? "")
  if (!HttpMethod.hasBody(request.method) || mediaType !== "application/json") return
  // Unparsable bodies are left to the framework, which answers them itself.
  const body = yield* Effect.option(request.json)
  if (Option.isSome(body)) yield* refuseUnstorable(unstorableInBody(body.value))
})

export const layer = HttpApiBuilder.middleware(DastyarApi, (app) => {
  const checked = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const shape = yield* checkRequestShape
    const withStrings = checkStrings.pipe(Effect.zipRight(app))
    if (shape === undefined) return yield* withStrings
    if (shape.json && shape.chunked) {
      const body = yield* readChunkedBody(request, shape.maxBytes)
      return yield* Effect.provideService(withStrings, HttpServerRequest.HttpServerRequest, withBody(request, body))
    }
    // Reading stops at the same limit as the Content-Length check above.
    return yield* HttpIncomingMessage.withMaxBodySize(withStrings, Option.some(shape.maxBytes))
  })
  return Effect.withFiberRuntime<
    Effect.Effect.Success<typeof checked>,
    Effect.Effect.Error<typeof checked>,
    Effect.Effect.Context<typeof checked>
  >((fiber) => {
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    // The common case (a GET with a plain URL) has nothing to check: the app as it is, no generator.
    return !HttpMethod.hasBody(request.method) && !request.url.includes("%") ? app : checked
  }).pipe(Effect.catchAllCause(recover))
})
