/**
 * Request admission: what the edge decides from a request's line and headers
 * alone, before routing, without reading the body. Content types matched
 * exactly, `Content-Length` over the route's limit refused, path and query
 * strings checked against the character rule. The body itself is read only
 * when a route asks for it, after its authentication (`AdmittedRequest`).
 */
import { DastyarApi, Errors, Limits } from "@dastyar/domain"
import {
  HttpApi,
  HttpApiSchema,
  type HttpApp,
  HttpIncomingMessage,
  HttpMethod,
  HttpServerRequest
} from "@effect/platform"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { admitted, type BodyRules } from "./AdmittedRequest"
import { refusal, unstorableInUrl } from "./UnstorableStrings"

/** JSON bodies larger than this are refused before parsing (the Node server's own cap). */
export const maxJsonBodyBytes = 10 * 1024 * 1024

/**
 * The router refuses path parameters longer than this (find-my-way's default is
 * 100). Long enough for a 191-character `externalId` of three-byte characters
 * percent-encoded; the schemas decide the real limits.
 */
export const maxPathParamLength = 191 * 9

interface Route {
  readonly method: string
  readonly segments: ReadonlyArray<string>
  readonly multipart: boolean
  /** `Limits.MaxBodyBytes` of the endpoint or its group, if the domain declares one. */
  readonly maxBytes: Option.Option<number>
}

/** Every endpoint of the API, as the edge needs to know it. */
const routes: ReadonlyArray<Route> = (() => {
  const found: Array<Route> = []
  HttpApi.reflect(DastyarApi, {
    onGroup: () => {},
    onEndpoint: ({ endpoint, group, mergedAnnotations }) =>
      found.push({
        method: endpoint.method,
        segments: endpoint.path.split("/"),
        multipart: Option.exists(
          endpoint.payloadSchema,
          (schema) => HttpApiSchema.getMultipart(schema.ast) !== undefined
        ),
        maxBytes: Context.getOption(mergedAnnotations, Limits.MaxBodyBytes).pipe(
          Option.orElse(() => Context.getOption(group.annotations, Limits.MaxBodyBytes))
        )
      })
  })
  return found
})()

/** The endpoint a request's method and path segments match (`/` at the end ignored), if any. */
const routeOf = (method: string, segments: ReadonlyArray<string>): Route | undefined => {
  const parts = segments.length > 1 && segments.at(-1) === "" ? segments.slice(0, -1) : segments
  return routes.find((route) =>
    route.method === method &&
    route.segments.length === parts.length &&
    route.segments.every((segment, index) =>
      segment.startsWith(":") ? (parts[index] ?? "") !== "" : segment === parts[index]
    )
  )
}

const pathSegments = (url: string) => (url.split("?", 1)[0] ?? "").split("/")

/** The media type alone, without parameters (`application/json; charset=utf-8` → `application/json`). */
const mediaTypeOf = (contentType: string) => (contentType.split(";")[0] ?? "").trim().toLowerCase()

/**
 * Refuses, before routing, bodies the API can never accept (a body without a `Content-Type` included):
 * JSON everywhere, multipart only where the domain declares a multipart payload, matched exactly.
 */
const bodyRules = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  if (!HttpMethod.hasBody(request.method)) return undefined
  const route = routeOf(request.method, pathSegments(request.url))
  const contentType = request.headers["content-type"] ?? ""
  const mediaType = mediaTypeOf(contentType)
  const length = Number(request.headers["content-length"] ?? "0")
  const chunked = request.headers["transfer-encoding"] !== undefined
  const json = mediaType === "application/json"
  const accepted = json || (mediaType === "multipart/form-data" && route?.multipart === true)
  if ((length > 0 || chunked) && !accepted) return yield* new Errors.UnsupportedContentType()
  // The multipart parser throws (a 500) on a missing boundary instead of failing; refuse it as unparsable here.
  if (mediaType === "multipart/form-data" && !/;\s*boundary=[^;\s]/i.test(contentType)) {
    return yield* new Errors.MalformedMultipart()
  }
  const maxBytes = Option.getOrElse(route?.maxBytes ?? Option.none(), () => maxJsonBodyBytes)
  if (json && length > maxBytes) return yield* new Errors.PayloadTooLarge()
  const rules: BodyRules = { maxBytes, json, chunked }
  return rules
})

/** A path segment's parameter name (`externalId` for `:externalId`), for the character rule's `fields`. */
const parameterNames = (method: string) => (segments: ReadonlyArray<string>) =>
  (routeOf(method, segments)?.segments ?? []).map((segment) => segment.replace(/^:/, ""))

/**
 * Admits a request to `app`: its path and query checked against the character
 * rule, its content type and declared length against the route's, and its body
 * left unread for the route's readers.
 */
export const admit = <E, R>(app: HttpApp.Default<E, R>) => {
  const checked = Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const inUrl = unstorableInUrl(request.url, parameterNames(request.method))
    if (inUrl.length > 0) return yield* refusal(inUrl)
    const rules = yield* bodyRules
    if (rules === undefined) return yield* app
    // The limit also caps what the multipart parser reads (unless the route's multipart limits say otherwise).
    return yield* HttpIncomingMessage.withMaxBodySize(
      Effect.provideService(app, HttpServerRequest.HttpServerRequest, admitted(request, rules)),
      Option.some(rules.maxBytes)
    )
  })
  return Effect.withFiberRuntime<
    Effect.Effect.Success<typeof checked>,
    Effect.Effect.Error<typeof checked>,
    Effect.Effect.Context<typeof checked>
  >((fiber) => {
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    // The common case (a GET with a plain URL) has nothing to check: the app as it is, no generator.
    return !HttpMethod.hasBody(request.method) && !request.url.includes("%") ? app : checked
  })
}
