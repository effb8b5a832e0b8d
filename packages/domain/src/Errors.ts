/**
 * Errors shared by every group, and the API-wide ones the HTTP edge produces
 * (authentication, rate limit, validation, malformed requests).
 * Each error is a tagged class plus its `…Response` wire schema (the envelope).
 */
import { HttpApiSchema } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { errorFields, failure, genericFailure } from "./Envelope"
import { translateCurrent } from "./i18n"

export class InvalidApiKey extends Schema.TaggedError<InvalidApiKey>()("InvalidApiKey", errorFields) {}
/** One byte-identical answer for every authentication failure, so keys cannot be probed. */
export const InvalidApiKeyResponse = failure(InvalidApiKey, { status: 401, code: "api_key.invalid" })

export class InvalidAdminToken extends Schema.TaggedError<InvalidAdminToken>()("InvalidAdminToken", errorFields) {}
export const InvalidAdminTokenResponse = failure(InvalidAdminToken, { status: 401, code: "admin_token.invalid" })

export class TooManyRequests extends Schema.TaggedError<TooManyRequests>()("TooManyRequests", errorFields) {}
export const TooManyRequestsResponse = genericFailure(TooManyRequests, {
  status: 429,
  message: "rate_limit.exceeded",
  description: "Rate limit exceeded; retry after the `Retry-After` header's seconds"
})

export class MalformedJson extends Schema.TaggedError<MalformedJson>()("MalformedJson", errorFields) {}
export const MalformedJsonResponse = failure(MalformedJson, { status: 400, code: "request.malformed_json" })

/** A multipart body the parser cannot read: no boundary, broken part headers, or cut off before its end. */
export class MalformedMultipart extends Schema.TaggedError<MalformedMultipart>()("MalformedMultipart", errorFields) {}
export const MalformedMultipartResponse = failure(MalformedMultipart, {
  status: 400,
  code: "request.malformed_multipart"
})

export class BodyTooDeep extends Schema.TaggedError<BodyTooDeep>()("BodyTooDeep", errorFields) {}
export const BodyTooDeepResponse = failure(BodyTooDeep, { status: 400, code: "request.too_deep" })

export class UnsupportedContentType extends Schema.TaggedError<UnsupportedContentType>()(
  "UnsupportedContentType",
  errorFields
) {}
export const UnsupportedContentTypeResponse = failure(UnsupportedContentType, {
  status: 400,
  code: "request.unsupported_content_type"
})

export class PayloadTooLarge extends Schema.TaggedError<PayloadTooLarge>()("PayloadTooLarge", errorFields) {}
export const PayloadTooLargeResponse = failure(PayloadTooLarge, { status: 413, code: "request.payload_too_large" })

/** Answered by the server's `clientError` handler, before any route: the request never reached the app. */
export class HeadersTooLarge extends Schema.TaggedError<HeadersTooLarge>()("HeadersTooLarge", errorFields) {}
export const HeadersTooLargeResponse = failure(HeadersTooLarge, { status: 431, code: "request.headers_too_large" })

export class MalformedRequest extends Schema.TaggedError<MalformedRequest>()("MalformedRequest", errorFields) {}
export const MalformedRequestResponse = failure(MalformedRequest, { status: 400, code: "request.malformed" })

export class RequestTimeout extends Schema.TaggedError<RequestTimeout>()("RequestTimeout", errorFields) {}
export const RequestTimeoutResponse = failure(RequestTimeout, { status: 408, code: "request.timeout" })

export class TooManyParts extends Schema.TaggedError<TooManyParts>()("TooManyParts", errorFields) {}
export const TooManyPartsResponse = failure(TooManyParts, { status: 400, code: "request.too_many_parts" })

export class RouteNotFound extends Schema.TaggedError<RouteNotFound>()("RouteNotFound", errorFields) {}
export const RouteNotFoundResponse = failure(RouteNotFound, { status: 404, code: "route.not_found" })

export class InternalError extends Schema.TaggedError<InternalError>()("InternalError", errorFields) {}
export const InternalErrorResponse = genericFailure(InternalError, {
  status: 500,
  message: "internal.error"
})

export class AssistantNotFound extends Schema.TaggedError<AssistantNotFound>()("AssistantNotFound", errorFields) {}
export const AssistantNotFoundResponse = failure(AssistantNotFound, { status: 404, code: "assistants.not_found" })

/** One invalid field: its dotted path and the rules it broke (translated on the wire). */
export const FieldError = Schema.Struct({
  property: Schema.String,
  constraints: Schema.Array(Schema.String)
}).annotations({ identifier: "FieldError", examples: [{ property: "name", constraints: ["is required"] }] })
export type FieldError = typeof FieldError.Type

export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  ...errorFields,
  fields: Schema.Array(FieldError)
}) {}

/** Validation errors carry a top-level `fields` array beside the envelope, and no `code`. */
export const ValidationFailedResponse = Schema.transformOrFail(
  Schema.Struct({
    data: Schema.Null,
    response: Schema.Struct({ status: Schema.Literal("bad_request"), message: Schema.String }),
    fields: Schema.Array(FieldError)
  }),
  ValidationFailed,
  {
    strict: true,
    decode: (wire) =>
      ParseResult.succeed({ _tag: "ValidationFailed" as const, message: wire.response.message, fields: wire.fields }),
    encode: (error) =>
      Effect.all({
        message: translateCurrent("validation.failed"),
        fields: Effect.forEach(error.fields, (field) =>
          Effect.map(
            Effect.forEach(field.constraints, translateCurrent),
            (constraints) => ({ property: field.property, constraints })
          ))
      }).pipe(
        Effect.map(({ fields, message }) => ({
          data: null,
          response: { status: "bad_request" as const, message },
          fields
        }))
      )
  }
).annotations({
  identifier: "ValidationFailedResponse",
  description: "400: one element of `fields` per invalid field",
  ...HttpApiSchema.annotations({ status: 400 })
})
