/**
 * The few Bot API methods a connection uses, for each platform speaking
 * Telegram's protocol (`BotPlatform`): Telegram over `DASTYAR_TELEGRAM_API_BASE`
 * (Telegram's, a self-hosted Bot API server, or a test stand-in), Bale over
 * `DASTYAR_BALE_API_BASE`. Calls are retried by the channels' one policy
 * (`Retry.ts`): backoff on 5xx and network errors, `retry_after` on 429; other
 * refusals fail at once. The bot token is part of every URL, so no URL ever
 * reaches an error or a log, and spans show it redacted (`Platform/Outbound.ts`).
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { AppConfig } from "../../Config"
import * as Outbound from "../../Platform/Outbound"
import type { BotPlatform } from "../BotPlatform"
import * as Retry from "../Retry"

export class BotApiError extends Schema.TaggedError<BotApiError>()("BotApiError", {
  method: Schema.String,
  /** The Bot API's `error_code` (HTTP status); 0 when the platform could not be reached. */
  status: Schema.Number,
  description: Schema.String,
  retryAfterSeconds: Schema.NullOr(Schema.Number)
}) {
  /** Worth another try: the platform was unreachable or overloaded, or asked to slow down. */
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

export class BotApi extends Effect.Service<BotApi>()("BotApi", {
  effect: Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const config = yield* AppConfig
    const policy = yield* Retry.policy
    const baseOf = (platform: BotPlatform) => config[platform.apiBase].replace(/\/+$/, "")

    const unreachable = (platform: BotPlatform, method: string) => () =>
      new BotApiError({
        method,
        status: 0,
        description: `${platform.label} could not be reached`,
        retryAfterSeconds: null
      })

    /** One call, no retry. */
    const once = (platform: BotPlatform, token: string, method: string, params: Record<string, unknown>) =>
      Effect.gen(function*() {
        const request = yield* HttpClientRequest.bodyJson(
          HttpClientRequest.post(`${baseOf(platform)}/bot${token}/${method}`),
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
          RequestError: unreachable(platform, method),
          ResponseError: unreachable(platform, method),
          ParseError: unreachable(platform, method),
          TimeoutException: unreachable(platform, method),
          HttpBodyError: unreachable(platform, method)
        })
      )

    const retrying = <A>(platform: BotPlatform, effect: Effect.Effect<A, BotApiError>, method: string) =>
      Retry.retrying(effect, policy, `${platform.name}.${method}`)

    const call = (platform: BotPlatform, token: string, method: string, params: Record<string, unknown> = {}) =>
      retrying(platform, once(platform, token, method, params), method).pipe(
        Effect.withSpan(`BotApi.${method}`, { attributes: { platform: platform.name } })
      )

    const decode = <A, I>(schema: Schema.Schema<A, I>, method: string) => (value: unknown) =>
      Schema.decodeUnknown(schema)(value).pipe(
        Effect.mapError(() =>
          new BotApiError({ method, status: 502, description: "unexpected Bot API answer", retryAfterSeconds: null })
        )
      )

    /** Every method takes the platform first (a profile from `Telegram/Platform.ts` or `Bale/Platform.ts`). */
    return {
      getMe: (platform: BotPlatform, token: string) =>
        call(platform, token, "getMe").pipe(Effect.flatMap(decode(User, "getMe"))),

      /**
       * Telegram: only `message` updates are asked for; `secret_token` comes back in every delivery's header.
       * A platform without the header takes only the URL (which carries the secret).
       */
      setWebhook: (platform: BotPlatform, token: string, url: string, secretToken: string) =>
        call(
          platform,
          token,
          "setWebhook",
          platform.secretIn === "header"
            ? { url, secret_token: secretToken, allowed_updates: ["message", "callback_query"] }
            : { url }
        ).pipe(Effect.asVoid),

      deleteWebhook: (platform: BotPlatform, token: string) =>
        call(platform, token, "deleteWebhook").pipe(Effect.asVoid),

      /** `text` in the platform's markup (`Format.ts`); `replyMarkup` e.g. an inline keyboard under it. */
      sendMessage: (platform: BotPlatform, token: string, chatId: number, text: string, replyMarkup?: unknown) =>
        call(platform, token, "sendMessage", {
          ...(platform.markup === "html"
            ? { chat_id: chatId, text, parse_mode: "HTML", link_preview_options: { is_disabled: true } }
            : { chat_id: chatId, text }),
          ...(replyMarkup === undefined ? {} : { reply_markup: replyMarkup })
        }).pipe(Effect.asVoid),

      /** Stops the button's spinner in the user's app, with a short notice. */
      answerCallbackQuery: (platform: BotPlatform, token: string, callbackQueryId: string, text: string) =>
        once(platform, token, "answerCallbackQuery", { callback_query_id: callbackQueryId, text }).pipe(
          Effect.asVoid
        ),

      sendPhoto: (platform: BotPlatform, token: string, chatId: number, photoUrl: string, caption: string) =>
        call(
          platform,
          token,
          "sendPhoto",
          platform.markup === "html"
            ? { chat_id: chatId, photo: photoUrl, caption, parse_mode: "HTML" }
            : { chat_id: chatId, photo: photoUrl, caption }
        ).pipe(Effect.asVoid),

      sendChatAction: (platform: BotPlatform, token: string, chatId: number, action: "typing") =>
        once(platform, token, "sendChatAction", { chat_id: chatId, action }).pipe(Effect.asVoid),

      /** `getFile`, then the file itself (the Bot API serves files up to 20 MB). */
      downloadFile: (platform: BotPlatform, token: string, fileId: string) =>
        Effect.gen(function*() {
          const file = yield* call(platform, token, "getFile", { file_id: fileId }).pipe(
            Effect.flatMap(decode(File, "getFile"))
          )
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
            const response = yield* client.get(`${baseOf(platform)}/file/bot${token}/${filePath}`)
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
              RequestError: unreachable(platform, "file"),
              ResponseError: unreachable(platform, "file"),
              TimeoutException: unreachable(platform, "file")
            })
          )
          return { bytes: yield* retrying(platform, download, "file"), filePath }
        }).pipe(Effect.withSpan("BotApi.downloadFile"))
    } as const
  }),
  dependencies: [Outbound.layer]
}) {}
