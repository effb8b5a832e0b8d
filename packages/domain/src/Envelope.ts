/**
 * The response envelope, written once.
 *
 * Every success and error schema of the API is a transformation whose encoded
 * side is the wire envelope `{data, response: {status, message, code?}, fields?}`
 * and whose decoded side is the plain value or tagged error. Encoding reads the
 * request's locale (see `i18n`), so handlers never build envelopes or texts.
 */
import { HttpApiSchema } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { type MessageKey, translateCurrent } from "./i18n"

/**
 * `response.status` values. The spec lists the first eight; it leaves 415 and
 * 500 open, so 415 reports `bad_request` (like 401, 413 and 429) and 500
 * gets `internal_error`.
 */
export const ResponseStatus = Schema.Literal(
  "success",
  "bad_request",
  "not_found",
  "forbidden",
  "conflict",
  "payment_required",
  "unprocessable",
  "service_unavailable",
  "internal_error"
)
export type ResponseStatus = typeof ResponseStatus.Type

/** The one mapping from HTTP status to `response.status`. */
export const responseStatusFor = (httpStatus: number): ResponseStatus => {
  if (httpStatus < 400) return "success"
  switch (httpStatus) {
    case 402:
      return "payment_required"
    case 403:
      return "forbidden"
    case 404:
      return "not_found"
    case 409:
      return "conflict"
    case 422:
      return "unprocessable"
    case 503:
      return "service_unavailable"
    default:
      return httpStatus >= 500 ? "internal_error" : "bad_request"
  }
}

const SuccessResponse = Schema.Struct({
  status: Schema.Literal("success"),
  message: Schema.String
})

/** The success envelope around data already in its wire form: what `success` encodes to. */
export const successWire = <I>(data: I, message: string) => ({
  data,
  response: { status: "success" as const, message }
})

/**
 * Wraps a data schema in the success envelope.
 * `identifier` names the envelope in the OpenAPI document (it must differ from
 * the inner schema's, or the components would reference themselves).
 */
export const success = <A, I, R>(
  data: Schema.Schema<A, I, R>,
  options: { readonly identifier: string; readonly status?: number }
) =>
  Schema.transformOrFail(
    Schema.Struct({ data, response: SuccessResponse }),
    Schema.typeSchema(data),
    {
      strict: true,
      decode: (wire) => ParseResult.succeed(wire.data),
      encode: (value) => Effect.map(translateCurrent("success"), (message) => successWire(value, message))
    }
  ).annotations({
    identifier: options.identifier,
    ...HttpApiSchema.annotations({ status: options.status ?? 200 })
  })

/** `{list, count}`: the data of every list response (except the product list). */
export const ListOf = <A, I, R>(item: Schema.Schema<A, I, R>) =>
  Schema.Struct({ list: Schema.Array(item), count: Schema.Int })

/** The message field every API error carries; filled in from the wire on the client side. */
export const errorFields = { message: Schema.optional(Schema.String) }

type TaggedErrorSchema<Self, Tag extends string> =
  & Schema.Schema<Self, { readonly _tag: Tag; readonly message?: string | undefined }>
  & { readonly _tag: Tag }

interface FailureOptions {
  /** HTTP status of the error. */
  readonly status: number
  readonly description?: string
}

const errorEnvelope = <Self, Tag extends string, W extends { readonly response: { readonly message: string } }, WI>(
  error: TaggedErrorSchema<Self, Tag>,
  wire: Schema.Schema<W, WI>,
  messageKey: string,
  build: (message: string) => W,
  options: FailureOptions
) =>
  Schema.transformOrFail(wire, error, {
    strict: true,
    decode: (envelope) => ParseResult.succeed({ _tag: error._tag, message: envelope.response.message }),
    encode: () => Effect.map(translateCurrent(messageKey), build)
  }).annotations({
    identifier: `${error._tag}Response`,
    description: options.description ?? `${options.status} ${messageKey}`,
    ...HttpApiSchema.annotations({ status: options.status })
  })

/**
 * The wire schema of an error that comes from a named rule: the envelope with
 * `response.code` (also the message key, unless `message` names another).
 */
export const failure = <Self, Tag extends string, const Code extends MessageKey | (string & {})>(
  error: TaggedErrorSchema<Self, Tag>,
  options: FailureOptions & { readonly code: Code; readonly message?: MessageKey }
) => {
  const status = responseStatusFor(options.status)
  const wire = Schema.Struct({
    data: Schema.Null,
    response: Schema.Struct({
      status: Schema.Literal(status),
      message: Schema.String,
      code: Schema.Literal(options.code)
    })
  })
  return errorEnvelope(error, wire, options.message ?? options.code, (message) => ({
    data: null,
    response: { status, message, code: options.code }
  }), options)
}

/** The wire schema of a generic error (validation, 429, 500): the envelope without `code`. */
export const genericFailure = <Self, Tag extends string>(
  error: TaggedErrorSchema<Self, Tag>,
  options: FailureOptions & { readonly message: MessageKey }
) => {
  const status = responseStatusFor(options.status)
  const wire = Schema.Struct({
    data: Schema.Null,
    response: Schema.Struct({ status: Schema.Literal(status), message: Schema.String })
  })
  return errorEnvelope(
    error,
    wire,
    options.message,
    (message) => ({ data: null, response: { status, message } }),
    options
  )
}
