/**
 * The one place where failures the framework raises outside our handlers become
 * API errors: schema decode failures → `ValidationFailed` with `fields`,
 * unparsable JSON or multipart bodies, oversized bodies and multipart limits, unstorable characters
 * found when a body is read, unknown routes, the database being unreachable →
 * 503 `service.not_ready`, and any other defect → a logged 500 in the envelope.
 * It wraps the router (behind request admission, `Admission.ts`), before the
 * API's error schemas encode the envelope.
 */
import { DastyarApi, Documents, Errors, I18n, System, Validation } from "@dastyar/domain"
import {
  HttpApiBuilder,
  HttpApiError,
  HttpApiSchema,
  HttpServerError,
  HttpServerResponse,
  Multipart
} from "@effect/platform"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { isDatabaseUnreachable } from "../Database/Database"
import { fileTooLarge } from "../Documents/Documents"
import * as Admission from "./Admission"
import { isBodyTooLarge, OversizedPart } from "./AdmittedRequest"
import { refusal, UnstorableBody } from "./UnstorableStrings"

type EdgeError =
  | Errors.ValidationFailed
  | Errors.RouteNotFound
  | Errors.TooManyParts
  | Errors.MalformedJson
  | Errors.MalformedMultipart
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
  if (defect instanceof UnstorableBody) return Option.some(refusal(defect.properties))
  if (defect instanceof Multipart.MultipartError) {
    const unreadable = unreadableDisposition(defect.cause)
    if (Option.isSome(unreadable)) return Option.some(unreadablePart(unreadable.value))
    switch (defect.reason) {
      case "TooManyParts":
        return Option.some(new Errors.TooManyParts())
      case "Parse":
      case "InternalError":
        return Option.some(new Errors.MalformedMultipart())
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
    // The body readers stop at the route's limit (`Admission.maxJsonBodyBytes` unless the domain declares one).
    return Option.some(isBodyTooLarge(defect.cause) ? new Errors.PayloadTooLarge() : new Errors.MalformedJson())
  }
  return Option.none()
}

/**
 * A file the multipart parser stopped past the per-file limit while writing it: the same named 413 the
 * service gives a file over the limit. Encoded here, because that error belongs to the upload route, not
 * to the API-wide errors this middleware may fail with.
 */
const oversizedPart = (part: OversizedPart) =>
  Schema.encode(Documents.FileTooLargeResponse)(fileTooLarge([part])).pipe(
    Effect.flatMap((body) =>
      HttpServerResponse.json(body, { status: HttpApiSchema.getStatusError(Documents.FileTooLargeResponse) })
    ),
    Effect.orDie
  )

/** Failures the framework raises, as API errors; the handlers' own errors pass through untouched. */
const recover = <E>(cause: Cause.Cause<E>): Effect.Effect<HttpServerResponse.HttpServerResponse, E | EdgeError> => {
  if (Cause.isInterruptedOnly(cause)) return Effect.failCause(cause)
  const failure: unknown = Option.getOrUndefined(Cause.failureOption(cause))
  if (failure instanceof HttpApiError.HttpApiDecodeError) {
    return Effect.fail(new Errors.ValidationFailed({ fields: Validation.fieldsOf(failure.issues) }))
  }
  if (HttpServerError.isServerError(failure) && failure._tag === "RouteNotFound") {
    return Effect.fail(new Errors.RouteNotFound())
  }
  if (failure !== undefined) return Effect.failCause(cause)
  const defect = Option.getOrUndefined(Cause.dieOption(cause))
  if (defect instanceof OversizedPart) return oversizedPart(defect)
  const mapped = Option.flatMap(Option.fromNullable(defect), fromDefect)
  if (Option.isSome(mapped)) return Effect.fail(mapped.value)
  return Effect.logError("unhandled defect", cause).pipe(Effect.zipRight(Effect.fail(new Errors.InternalError())))
}

export const layer = HttpApiBuilder.middleware(
  DastyarApi,
  (app) => Admission.admit(app).pipe(Effect.catchAllCause(recover))
)
