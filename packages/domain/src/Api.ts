/**
 * The whole HTTP API, defined once: the public `/v1` groups, the operator
 * `/admin/v1` group and the probes. Server, OpenAPI document, SDK and CLI all
 * derive from this value.
 */
import { HttpApi, OpenApi } from "@effect/platform"
import { AdminApi } from "./Admin"
import { AssistantsApi } from "./Assistants"
import { ChatApi } from "./Chat"
import { DocumentsApi } from "./Documents"
import {
  InternalErrorResponse,
  MalformedJsonResponse,
  PayloadTooLargeResponse,
  RouteNotFoundResponse,
  TooManyPartsResponse,
  UnsupportedContentTypeResponse,
  ValidationFailedResponse
} from "./Errors"
import { ModelsApi } from "./Models"
import { ProductsApi } from "./Products"
import { SystemApi } from "./System"

/**
 * `HttpApi.make` always declares Effect's own `HttpApiDecodeError`; the server
 * answers with `ValidationFailed` instead, so the document drops it.
 */
const decodeErrorRef = "#/components/schemas/HttpApiDecodeError"
const unusedComponents = new Set(["HttpApiDecodeError", "Issue", "PropertyKey"])
const isDecodeErrorRef = (value: unknown) =>
  typeof value === "object" && value !== null && "$ref" in value && value.$ref === decodeErrorRef
const dropDecodeError = (spec: Record<string, unknown>): Record<string, unknown> =>
  JSON.parse(JSON.stringify(spec, (key, value: unknown) => {
    if (unusedComponents.has(key)) return undefined
    if (key === "anyOf" && Array.isArray(value)) return value.filter((member) => !isDecodeErrorRef(member))
    if (key === "description" && value === "The request did not match the expected schema") {
      return "Bad request: validation failed (`fields`), malformed JSON or unsupported content type"
    }
    return value
  }))

export class DastyarApi extends HttpApi.make("dastyar")
  .add(AssistantsApi)
  .add(ModelsApi)
  .add(ChatApi)
  .add(DocumentsApi)
  .add(ProductsApi)
  .add(AdminApi)
  .add(SystemApi)
  .addError(ValidationFailedResponse)
  .addError(MalformedJsonResponse)
  .addError(UnsupportedContentTypeResponse)
  .addError(PayloadTooLargeResponse)
  .addError(TooManyPartsResponse)
  .addError(RouteNotFoundResponse)
  .addError(InternalErrorResponse)
  .annotateContext(OpenApi.annotations({
    title: "Dastyar API",
    version: "1.0.0",
    description: "Assistants with a knowledge base, a product catalog and chat. Every response uses one envelope.",
    transform: dropDecodeError
  }))
{}
