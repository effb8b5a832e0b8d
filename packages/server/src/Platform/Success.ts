/**
 * Success responses built without the API's schema encode, for data the
 * service made itself and put in wire form with `WireEncoder`: the encode
 * re-checks every field through many small effects, a large share of a cheap
 * request's time. The body is the one `Envelope.success` encodes to
 * (`test/Http/WireEncoding.test.ts` pins it byte for byte).
 */
import { Envelope, I18n } from "@dastyar/domain"
import { HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"

/** `200` with the success envelope around `data`, in the request's language. */
export const json = (data: unknown): Effect.Effect<HttpServerResponse.HttpServerResponse> =>
  Effect.map(
    I18n.translateCurrent("success"),
    (message) => HttpServerResponse.unsafeJson(Envelope.successWire(data, message))
  )
