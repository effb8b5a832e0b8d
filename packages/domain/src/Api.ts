/**
 * The whole HTTP API, defined once: the public `/v1` groups, the operator
 * `/admin/v1` group and the probes. Server, OpenAPI document, SDK and CLI all
 * derive from this value.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { AdminAccountListsApi, AdminApi, AdminConnectionsApi, AdminContentApi } from "./Admin"
import { AssistantsApi } from "./Assistants"
import { HooksApi } from "./Channels"
import { ChatApi } from "./Chat"
import { ContentApi } from "./Content"
import { AdminConversationsApi, ConversationsApi } from "./Conversations"
import { CuratedApi } from "./Curated"
import { DocumentsApi } from "./Documents"
import {
  BodyTooDeepResponse,
  InternalErrorResponse,
  MalformedJsonResponse,
  MalformedMultipartResponse,
  PayloadTooLargeResponse,
  RouteNotFoundResponse,
  TooManyPartsResponse,
  UnsupportedContentTypeResponse,
  ValidationFailedResponse
} from "./Errors"
import { ModelsApi } from "./Models"
import { ProductsApi } from "./Products"
import { SynonymsApi } from "./Synonyms"
import { NotReadyResponse, SystemApi } from "./System"
import { AdminWebApi, WebApi } from "./Web"
import { WebConnectionsApi } from "./WebConnections"

/**
 * `HttpApi.make` always declares Effect's own `HttpApiDecodeError`; the server
 * answers with `ValidationFailed` instead, so the document drops it.
 */
const decodeErrorRef = "#/components/schemas/HttpApiDecodeError"
const unusedComponents = new Set(["HttpApiDecodeError", "Issue", "PropertyKey"])
const isDecodeErrorRef = (value: unknown) =>
  typeof value === "object" && value !== null && "$ref" in value && value.$ref === decodeErrorRef
const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const integerHeader = (description: string) => ({ description, schema: { type: "integer" } })

/**
 * Response headers Effect's HttpApi does not model: the rate-limit headers on
 * every key-protected `/v1` response that got past the limiter, `Retry-After` on 429.
 */
const documentRateLimitHeaders = (spec: Record<string, unknown>): Record<string, unknown> => {
  const components = isRecord(spec.components) ? spec.components : {}
  const headers = {
    "X-RateLimit-Limit": integerHeader(
      "Requests allowed in the window: per key and route, or per client IP on the content routes"
    ),
    "X-RateLimit-Remaining": integerHeader("Requests left in the current window"),
    "X-RateLimit-Reset": integerHeader("Seconds until the window resets"),
    "Retry-After": integerHeader("Seconds to wait before retrying (60)")
  }
  const ref = (name: string) => ({ $ref: `#/components/headers/${name}` })
  const paths = isRecord(spec.paths) ? spec.paths : {}
  for (const [path, item] of Object.entries(paths)) {
    if (!path.startsWith("/v1/") || !isRecord(item)) continue
    for (const operation of Object.values(item)) {
      // Key-protected routes, and the content routes (limited per client IP).
      const limited = path.startsWith("/v1/content/") || (isRecord(operation) && Array.isArray(operation.security))
      if (!isRecord(operation) || !limited || !isRecord(operation.responses)) continue
      for (const [status, response] of Object.entries(operation.responses)) {
        if (!isRecord(response) || status === "401") continue
        response.headers = status === "429"
          ? { "Retry-After": ref("Retry-After") }
          : {
            "X-RateLimit-Limit": ref("X-RateLimit-Limit"),
            "X-RateLimit-Remaining": ref("X-RateLimit-Remaining"),
            "X-RateLimit-Reset": ref("X-RateLimit-Reset")
          }
      }
    }
  }
  return { ...spec, components: { ...components, headers } }
}

const dropDecodeError = (spec: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(spec, (key, value: unknown) => {
    if (unusedComponents.has(key)) return undefined
    if (key === "anyOf" && Array.isArray(value)) return value.filter((member) => !isDecodeErrorRef(member))
    if (key === "description" && value === "The request did not match the expected schema") {
      return "Bad request: validation failed (`fields`), malformed JSON or multipart, or unsupported content type"
    }
    return value
  }))

export class DastyarApi extends HttpApi.make("dastyar")
  .add(AssistantsApi)
  .add(ModelsApi)
  .add(ChatApi)
  .add(DocumentsApi)
  .add(ProductsApi)
  .add(SynonymsApi)
  .add(AdminApi)
  .add(ContentApi)
  .add(AdminContentApi)
  .add(AdminConnectionsApi)
  .add(HooksApi)
  .add(WebApi)
  .add(AdminWebApi)
  .add(WebConnectionsApi)
  .add(ConversationsApi)
  .add(CuratedApi)
  .add(AdminConversationsApi)
  .add(AdminAccountListsApi)
  .add(SystemApi)
  .addError(ValidationFailedResponse)
  .addError(MalformedJsonResponse)
  .addError(MalformedMultipartResponse)
  .addError(BodyTooDeepResponse)
  .addError(UnsupportedContentTypeResponse)
  .addError(PayloadTooLargeResponse)
  .addError(TooManyPartsResponse)
  .addError(RouteNotFoundResponse)
  .addError(InternalErrorResponse)
  .addError(NotReadyResponse)
  .annotateContext(OpenApi.annotations({
    title: "Dastyar API",
    version: "1.0.0",
    description: "Assistants with a knowledge base, a product catalog and chat. Every response uses one envelope.",
    transform: (spec) => documentRateLimitHeaders(dropDecodeError(spec))
  }))
{}
