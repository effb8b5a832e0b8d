/**
 * The WhatsApp Cloud API calls a connection uses, over
 * `DASTYAR_WHATSAPP_API_BASE`/`DASTYAR_WHATSAPP_API_VERSION`: the phone
 * number's details (to check the credentials) and text messages. The access
 * token travels as a Bearer header, never in a URL. Calls are retried by the
 * channels' one policy (`Retry.ts`) during an outage; other refusals fail at once.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { AppConfig } from "../../Config"
import * as Outbound from "../../Platform/Outbound"
import * as Retry from "../Retry"
import { windowClosedCode } from "./Notification"

/** WhatsApp's limit on a text message's body. */
export const textLimit = 4096

/** Graph error codes of a passing condition: rate limits (4, 80007, 130429), "service unavailable" (2, 131016). */
const passingCodes = new Set([2, 4, 80007, 130429, 131016])

export class GraphApiError extends Schema.TaggedError<GraphApiError>()("GraphApiError", {
  operation: Schema.String,
  /** HTTP status; 0 when the Graph API could not be reached. */
  status: Schema.Number,
  /** The Graph error's `code` (e.g. 190 for a bad token, 131047 outside the 24-hour window). */
  code: Schema.NullOr(Schema.Number),
  description: Schema.String,
  retryAfterSeconds: Schema.NullOr(Schema.Number)
}) {
  get transient() {
    return this.status === 0 || this.status === 429 || this.status >= 500 ||
      (this.code !== null && passingCodes.has(this.code))
  }
  /** The access token is refused (expired, revoked, or never valid): the connection is dead. */
  get unauthorized() {
    return this.status === 401 || this.code === 190
  }
  /** More than 24 hours since the customer's last message: only a template message could reach them. */
  get windowClosed() {
    return this.code === windowClosedCode
  }
}

const ErrorBody = Schema.Struct({
  error: Schema.Struct({
    message: Schema.optional(Schema.String),
    code: Schema.optional(Schema.Number)
  })
})

const PhoneNumber = Schema.Struct({
  id: Schema.optional(Schema.String),
  display_phone_number: Schema.optional(Schema.String),
  verified_name: Schema.optional(Schema.String)
})

export class GraphApi extends Effect.Service<GraphApi>()("GraphApi", {
  effect: Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const { whatsapp } = yield* AppConfig
    const policy = yield* Retry.policy
    const base = `${whatsapp.apiBase.replace(/\/+$/, "")}/${whatsapp.apiVersion}`

    const unreachable = (operation: string) => () =>
      new GraphApiError({
        operation,
        status: 0,
        code: null,
        description: "the WhatsApp Cloud API could not be reached",
        retryAfterSeconds: null
      })

    /** One request, no retry: the JSON answer of a 2xx, else the Graph error. */
    const once = (operation: string, request: HttpClientRequest.HttpClientRequest) =>
      Effect.gen(function*() {
        const response = yield* client.execute(request)
        const body: unknown = yield* response.json.pipe(Effect.orElseSucceed(() => null))
        if (response.status >= 200 && response.status < 300) return body
        const error = Schema.decodeUnknownOption(ErrorBody)(body)
        const retryAfter = Number.parseInt(response.headers["retry-after"] ?? "", 10)
        return yield* new GraphApiError({
          operation,
          status: response.status,
          code: error._tag === "Some" ? error.value.error.code ?? null : null,
          description: error._tag === "Some"
            ? error.value.error.message ?? `HTTP ${response.status}`
            : `HTTP ${response.status}`,
          retryAfterSeconds: Number.isFinite(retryAfter) ? retryAfter : null
        })
      }).pipe(
        Effect.scoped,
        Effect.timeout("30 seconds"),
        Effect.catchTags({
          RequestError: unreachable(operation),
          ResponseError: unreachable(operation),
          TimeoutException: unreachable(operation)
        })
      )

    const call = (operation: string, request: HttpClientRequest.HttpClientRequest) =>
      Retry.retrying(once(operation, request), policy, `whatsapp.${operation}`).pipe(
        Effect.withSpan(`GraphApi.${operation}`)
      )

    return {
      /** The number's details; fails like a message would when the token or the ID is wrong. */
      phoneNumber: (accessToken: string, phoneNumberId: string) =>
        call(
          "phoneNumber",
          HttpClientRequest.get(`${base}/${encodeURIComponent(phoneNumberId)}`).pipe(
            HttpClientRequest.setUrlParam("fields", "display_phone_number,verified_name"),
            HttpClientRequest.bearerToken(accessToken)
          )
        ).pipe(
          Effect.flatMap((body) =>
            Schema.decodeUnknown(PhoneNumber)(body).pipe(
              Effect.mapError(() =>
                new GraphApiError({
                  operation: "phoneNumber",
                  status: 502,
                  code: null,
                  description: "unexpected Graph API answer",
                  retryAfterSeconds: null
                })
              )
            )
          )
        ),

      /** A free-form text message (possible only within 24 hours of the customer's last message). */
      sendText: (accessToken: string, phoneNumberId: string, to: string, body: string) =>
        Effect.flatMap(
          HttpClientRequest.bodyJson(
            HttpClientRequest.post(`${base}/${encodeURIComponent(phoneNumberId)}/messages`).pipe(
              HttpClientRequest.bearerToken(accessToken)
            ),
            {
              messaging_product: "whatsapp",
              recipient_type: "individual",
              to,
              type: "text",
              text: { preview_url: false, body }
            }
          ).pipe(Effect.orDie),
          (request) => call("messages", request)
        ).pipe(Effect.asVoid)
    } as const
  }),
  dependencies: [Outbound.layer]
}) {}
