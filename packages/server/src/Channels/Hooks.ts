/**
 * `POST /hooks/:driver/:connectionCode[/:hookSecret]`: checks who is calling
 * before anything else (unknown or inactive connection → 404, wrong secret or
 * signature → 401, nothing read further), counts the connection's rate limit,
 * then queues the message and answers at once. The answer travels back through
 * the platform. `GET /hooks/whatsapp/:connectionCode` answers Meta's
 * verification handshake.
 */
import { Channels, Errors, Validation } from "@dastyar/domain"
import { HttpServerRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { timingSafeEqual } from "node:crypto"
import { AppConfig } from "../Config"
import { RateLimit } from "../Platform/RateLimit"
import * as Bale from "./Bale/Platform"
import type { BotPlatform } from "./BotPlatform"
import { Connections, type OpenConnection } from "./Connections"
import { Inbox } from "./Inbox"
import * as Telegram from "./Telegram/Platform"
import * as Signature from "./Webhook/Signature"
import { messagesFor, Notification, outsideWindow, refusedFor } from "./WhatsApp/Notification"
import * as HubSignature from "./WhatsApp/Signature"

const TelegramFile = Schema.Struct({
  file_id: Schema.String,
  mime_type: Schema.optional(Schema.String),
  file_size: Schema.optional(Schema.Number)
})

/**
 * The parts of a Bot API `Update` (Telegram's, Bale's) a connection answers; other update kinds are acknowledged
 * and ignored.
 */
const TelegramUpdate = Schema.Struct({
  update_id: Schema.Int,
  message: Schema.optional(Schema.Struct({
    chat: Schema.Struct({ id: Schema.Number }),
    from: Schema.optional(Schema.Struct({ language_code: Schema.optional(Schema.String) })),
    text: Schema.optional(Schema.String),
    caption: Schema.optional(Schema.String),
    voice: Schema.optional(TelegramFile),
    audio: Schema.optional(TelegramFile)
  })),
  callback_query: Schema.optional(Schema.Struct({
    id: Schema.String,
    from: Schema.optional(Schema.Struct({ language_code: Schema.optional(Schema.String) })),
    message: Schema.optional(Schema.Struct({ chat: Schema.Struct({ id: Schema.Number }) })),
    data: Schema.optional(Schema.String)
  }))
})

type HookVerifyQuery = typeof Channels.HookVerifyQuery.Type

const sameSecret = (given: string | undefined, expected: string) => {
  if (given === undefined) return false
  const left = Buffer.from(given)
  const right = Buffer.from(expected)
  return left.length === right.length && timingSafeEqual(left, right)
}

const invalid = (error: ParseResult.ParseError) =>
  new Errors.ValidationFailed({ fields: Validation.fieldsOf(ParseResult.ArrayFormatter.formatErrorSync(error)) })

/**
 * The body's bytes, for signatures; the domain's `MaxBodyBytes` caps how much is read. Read as text because
 * the edge reads (and checks, and caches) a JSON body as text, and the stream cannot be read twice; a valid
 * UTF-8 body encodes back to the same bytes (an invalid one fails the signature or the JSON).
 */
const rawBody = (request: HttpServerRequest.HttpServerRequest) =>
  request.text.pipe(
    Effect.map((text) => new TextEncoder().encode(text)),
    Effect.mapError((error) =>
      error.cause instanceof Error && error.cause.message === "maxBytes exceeded"
        ? new Errors.PayloadTooLarge()
        : new Errors.MalformedJson()
    )
  )

const parseJson = (body: Uint8Array) =>
  Effect.try({
    try: (): unknown => JSON.parse(Buffer.from(body).toString("utf8")),
    catch: () => new Errors.MalformedJson()
  })

export class Hooks extends Effect.Service<Hooks>()("Hooks", {
  effect: Effect.gen(function*() {
    const connections = yield* Connections
    const inbox = yield* Inbox
    const rateLimit = yield* RateLimit
    const { hookRateLimitPerMinute } = yield* AppConfig

    /** Telegram's secret comes in a header, Bale's in the URL's last path segment. */
    const botApi = (
      platform: BotPlatform,
      connection: OpenConnection,
      request: HttpServerRequest.HttpServerRequest,
      pathSecret: string | undefined
    ) =>
      Effect.gen(function*() {
        const secrets = connection.secrets
        if (secrets._tag !== platform.name || (secrets._tag !== "telegram" && secrets._tag !== "bale")) {
          return yield* new Channels.HookConnectionNotFound()
        }
        const given = platform.secretIn === "header" ? request.headers["x-telegram-bot-api-secret-token"] : pathSecret
        if (!sameSecret(given, secrets.hookSecret)) return yield* new Channels.HookUnauthorized()
        yield* rateLimit.consumeIn("hook", connection.row.code, hookRateLimitPerMinute)
        const update = yield* rawBody(request).pipe(
          Effect.flatMap(parseJson),
          Effect.flatMap((json) =>
            Schema.decodeUnknown(TelegramUpdate, { errors: "all" })(json).pipe(Effect.mapError(invalid))
          )
        )
        const pressed = update.callback_query
        if (pressed?.message !== undefined && pressed.data !== undefined) {
          return yield* inbox.accept({
            _tag: "Telegram",
            connectionCode: connection.row.code,
            platform: platform.name,
            updateId: update.update_id,
            chatId: pressed.message.chat.id,
            languageCode: pressed.from?.language_code ?? null,
            text: null,
            voice: null,
            callback: { id: pressed.id, data: pressed.data }
          }, `update:${update.update_id}`)
        }
        const message = update.message
        if (message === undefined) return
        const file = message.voice ?? message.audio
        yield* inbox.accept({
          _tag: "Telegram",
          connectionCode: connection.row.code,
          platform: platform.name,
          updateId: update.update_id,
          chatId: message.chat.id,
          languageCode: message.from?.language_code ?? null,
          text: message.text ?? message.caption ?? null,
          voice: file === undefined
            ? null
            : { fileId: file.file_id, mimeType: file.mime_type ?? null, fileSize: file.file_size ?? null }
        }, `update:${update.update_id}`)
      })

    /** Signed with the app secret over the raw body; each message queued once by its id. */
    const whatsapp = (connection: OpenConnection, request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        const phoneNumberId = connection.row.phoneNumberId
        if (connection.secrets._tag !== "whatsapp" || phoneNumberId === null) {
          return yield* new Channels.HookConnectionNotFound()
        }
        const body = yield* rawBody(request)
        if (!HubSignature.verify(connection.secrets.appSecret, request.headers[HubSignature.header], body)) {
          return yield* new Channels.HookUnauthorized()
        }
        yield* rateLimit.consumeIn("hook", connection.row.code, hookRateLimitPerMinute)
        const notification = yield* parseJson(body).pipe(
          Effect.flatMap((json) => Schema.decodeUnknown(Notification)(json).pipe(Effect.mapError(invalid)))
        )
        // WhatsApp accepted a reply, then reported it undeliverable outside the 24-hour window.
        for (const refused of refusedFor(notification, phoneNumberId)) {
          yield* connections.noteUnanswered({
            code: connection.row.code,
            messageKey: `reply:${refused.id}`,
            chatKey: `whatsapp:${refused.to}`,
            text: null,
            reason: `${outsideWindow} (${refused.description})`,
            sentAt: new Date(refused.sentAt * 1000)
          })
        }
        for (const message of messagesFor(notification, phoneNumberId)) {
          yield* inbox.accept({
            _tag: "WhatsApp",
            connectionCode: connection.row.code,
            messageId: message.id,
            from: message.from,
            kind: message.kind,
            text: message.text,
            sentAt: message.sentAt
          }, `message:${message.id}`)
        }
      })

    const webhook = (connection: OpenConnection, request: HttpServerRequest.HttpServerRequest) =>
      Effect.gen(function*() {
        if (connection.secrets._tag !== "webhook") return yield* new Channels.HookConnectionNotFound()
        const body = yield* rawBody(request)
        const headers = {
          timestamp: request.headers[Channels.signatureHeaders.timestamp],
          signature: request.headers[Channels.signatureHeaders.signature]
        }
        if (!Signature.verify(connection.secrets.secret, headers, body, new Date())) {
          return yield* new Channels.HookUnauthorized()
        }
        yield* rateLimit.consumeIn("hook", connection.row.code, hookRateLimitPerMinute)
        const inbound = yield* parseJson(body).pipe(
          Effect.flatMap((json) => Schema.decodeUnknown(Channels.WebhookInbound)(json).pipe(Effect.mapError(invalid)))
        )
        // A signature covers the timestamp, so an exact replay inside the window has the same digest (whatever the
        // case of its hex digits: the header's text alone would let a replay in other case through).
        const key = inbound.messageId === undefined
          ? `signature:${Signature.signatureDigest(headers.signature ?? "") ?? ""}`
          : `message:${inbound.messageId}`
        yield* inbox.accept({
          _tag: "Webhook",
          connectionCode: connection.row.code,
          principal: inbound.principal,
          message: inbound.message,
          messageId: inbound.messageId ?? null
        }, key)
      })

    const activeConnection = (driver: Channels.Driver, code: string) =>
      connections.findActive(driver, code).pipe(
        Effect.catchTag("SecretKeyMissing", () => Effect.succeed(Option.none<OpenConnection>())),
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new Channels.HookConnectionNotFound()),
          onSome: Effect.succeed
        }))
      )

    return {
      receive: Effect.fn("Hooks.receive")(function*(
        driver: Channels.Driver,
        code: string,
        request: HttpServerRequest.HttpServerRequest,
        pathSecret?: string
      ) {
        const connection = yield* activeConnection(driver, code)
        yield* Effect.annotateCurrentSpan({ "dastyar.connection_code": code, "dastyar.driver": driver })
        // Only Bale's hook URL carries a secret; a path secret on another driver's hook is not its hook.
        if (pathSecret !== undefined && driver !== "bale") return yield* new Channels.HookConnectionNotFound()
        switch (driver) {
          case "telegram":
            yield* botApi(Telegram.platform, connection, request, undefined)
            break
          case "bale":
            yield* botApi(Bale.platform, connection, request, pathSecret)
            break
          case "whatsapp":
            yield* whatsapp(connection, request)
            break
          case "webhook":
            yield* webhook(connection, request)
            break
        }
        return null
      }),

      /** WhatsApp's handshake: the challenge back for the right verify token, else 403. */
      verify: Effect.fn("Hooks.verify")(function*(driver: Channels.Driver, code: string, query: HookVerifyQuery) {
        if (driver !== "whatsapp") return yield* new Channels.HookConnectionNotFound()
        const connection = yield* activeConnection(driver, code)
        if (connection.secrets._tag !== "whatsapp") return yield* new Channels.HookConnectionNotFound()
        yield* rateLimit.consumeIn("hook", connection.row.code, hookRateLimitPerMinute)
        const challenge = query["hub.challenge"]
        if (
          query["hub.mode"] !== "subscribe" || challenge === undefined ||
          !sameSecret(query["hub.verify_token"], connection.secrets.verifyToken)
        ) {
          return yield* new Channels.HookForbidden()
        }
        return challenge
      })
    } as const
  }),
  dependencies: [Connections.Default, Inbox.Default]
}) {}
