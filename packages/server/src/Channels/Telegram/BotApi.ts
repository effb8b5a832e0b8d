/**
 * The few Telegram Bot API methods a connection uses, over
 * `DASTYAR_TELEGRAM_API_BASE` (Telegram's, a self-hosted Bot API server, or a
 * test stand-in). Every call is retried with backoff on 5xx and network errors
 * and after `retry_after` on 429; other refusals fail at once. The bot token is
 * part of every URL, so no URL ever reaches an error or a log, and spans show it
 * redacted (`Platform/Outbound.ts`).
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { AppConfig } from "../../Config"
import * as Outbound from "../../Platform/Outbound"

export class BotApiError extends Schema.TaggedError<BotApiError>()("BotApiError", {
  method: Schema.String,
  /** The Bot API's `error_code` (HTTP status); 0 when Telegram could not be reached. */
  status: Schema.Number,
  description: Schema.String,
  retryAfterSeconds: Schema.NullOr(Schema.Number)
}) {
  /** Worth another try: Telegram was unreachable or overloaded, or asked to slow down. */
  get transient() {
    return this.status === 0 || this.status === 429 || this.status >= 500
  }
  /** The token itself is refused (revoked, or never valid): the connection is dead. */
  get unauthorized() {
    return this.status === 401
  }
}

const Reply = Schema.Struct({
  ok: Schema.Boolean,
  result: Schema.optional(Schema.Unknown),
  error_code: Schema.optional(Schema.Number),
  description: Schema.optional(Schema.String),
  parameters: Schema.optional(Schema.Struct({ retry_after: Schema.optional(Schema.Number) }))
})

const User = Schema.Struct({ id: Schema.Number, username: Schema.optional(Schema.String) })
const File = Schema.Struct({
  file_id: Schema.String,
  file_path: Schema.optional(Schema.String),
  file_size: Schema.optional(Schema.Number)
})

/** Attempts per call, and the longest `retry_after` worth waiting for inside one call. */
const maxAttempts = 6
const maxRetryAfter = Duration.minutes(2)

const backoff = (attempt: number, error: BotApiError) =>
  error.retryAfterSeconds !== null
    ? Duration.seconds(error.retryAfterSeconds)
    : Duration.millis(Math.min(30_000, 500 * 2 ** (attempt - 1)))

export class BotApi extends Effect.Service<BotApi>()("BotApi", {
  effect: Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const { telegramApiBase } = yield* AppConfig
    const base = telegramApiBase.replace(/\/+$/, "")

    const unreachable = (method: string) => () =>
      new BotApiError({ method, status: 0, description: "Telegram could not be reached", retryAfterSeconds: null })

    /** One call, no retry. */
    const once = (token: string, method: string, params: Record<string, unknown>) =>
      Effect.gen(function*() {
        const request = yield* HttpClientRequest.bodyJson(
          HttpClientRequest.post(`${base}/bot${token}/${method}`),
          params
        )
        const response = yield* client.execute(request)
        const reply = yield* response.json.pipe(Effect.flatMap(Schema.decodeUnknown(Reply)))
        if (reply.ok) return reply.result
        return yield* new BotApiError({
          method,
          status: reply.error_code ?? response.status,
          description: reply.description ?? `HTTP ${response.status}`,
          retryAfterSeconds: reply.parameters?.retry_after ?? null
        })
      }).pipe(
        Effect.scoped,
        Effect.timeout("30 seconds"),
        Effect.catchTags({
          RequestError: unreachable(method),
          ResponseError: unreachable(method),
          ParseError: unreachable(method),
          TimeoutException: unreachable(method),
          HttpBodyError: unreachable(method)
        })
      )

    const retrying = <A>(effect: Effect.Effect<A, BotApiError>, attempt = 1): Effect.Effect<A, BotApiError> =>
      Effect.catchTag(effect, "BotApiError", (error) => {
        const delay = backoff(attempt, error)
        if (!error.transient || attempt >= maxAttempts || Duration.greaterThan(delay, maxRetryAfter)) {
          return Effect.fail(error)
        }
        return Effect.logWarning("Bot API call failed; retrying").pipe(
          Effect.annotateLogs({ method: error.method, status: error.status, retryInMs: Duration.toMillis(delay) }),
          Effect.zipRight(Effect.sleep(delay)),
          Effect.zipRight(retrying(effect, attempt + 1))
        )
      })

    const call = (token: string, method: string, params: Record<string, unknown> = {}) =>
      retrying(once(token, method, params)).pipe(Effect.withSpan(`BotApi.${method}`))

    const decode = <A, I>(schema: Schema.Schema<A, I>, method: string) => (value: unknown) =>
      Schema.decodeUnknown(schema)(value).pipe(
        Effect.mapError(() =>
          new BotApiError({ method, status: 502, description: "unexpected Bot API answer", retryAfterSeconds: null })
        )
      )

    return {
      getMe: (token: string) => call(token, "getMe").pipe(Effect.flatMap(decode(User, "getMe"))),

      /** Only `message` updates are asked for; `secret_token` comes back in every delivery's header. */
      setWebhook: (token: string, url: string, secretToken: string) =>
        call(token, "setWebhook", { url, secret_token: secretToken, allowed_updates: ["message"] }).pipe(Effect.asVoid),

      deleteWebhook: (token: string) => call(token, "deleteWebhook").pipe(Effect.asVoid),

      sendMessage: (token: string, chatId: number, html: string) =>
        call(token, "sendMessage", {
          chat_id: chatId,
          text: html,
          parse_mode: "HTML",
          link_preview_options: { is_disabled: true }
        }).pipe(Effect.asVoid),

      sendPhoto: (token: string, chatId: number, photoUrl: string, captionHtml: string) =>
        call(token, "sendPhoto", { chat_id: chatId, photo: photoUrl, caption: captionHtml, parse_mode: "HTML" }).pipe(
          Effect.asVoid
        ),

      sendChatAction: (token: string, chatId: number, action: "typing") =>
        once(token, "sendChatAction", { chat_id: chatId, action }).pipe(Effect.asVoid),

      /** `getFile`, then the file itself (the Bot API serves files up to 20 MB). */
      downloadFile: (token: string, fileId: string) =>
        Effect.gen(function*() {
          const file = yield* call(token, "getFile", { file_id: fileId }).pipe(Effect.flatMap(decode(File, "getFile")))
          if (file.file_path === undefined) {
            return yield* new BotApiError({
              method: "getFile",
              status: 400,
              description: "file not available",
              retryAfterSeconds: null
            })
          }
          const filePath = file.file_path
          const download = Effect.gen(function*() {
            const response = yield* client.get(`${base}/file/bot${token}/${filePath}`)
            if (response.status !== 200) {
              return yield* new BotApiError({
                method: "file",
                status: response.status,
                description: `file download answered ${response.status}`,
                retryAfterSeconds: null
              })
            }
            return new Uint8Array(yield* response.arrayBuffer)
          }).pipe(
            Effect.scoped,
            Effect.timeout("60 seconds"),
            Effect.catchTags({
              RequestError: unreachable("file"),
              ResponseError: unreachable("file"),
              TimeoutException: unreachable("file")
            })
          )
          return { bytes: yield* retrying(download), filePath }
        }).pipe(Effect.withSpan("BotApi.downloadFile"))
    } as const
  }),
  dependencies: [Outbound.layer]
}) {}
