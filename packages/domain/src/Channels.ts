/**
 * Messenger channels: connections of an assistant to a messaging platform
 * (operator routes in `Admin.ts`), and the hook where platforms deliver
 * messages, `POST /hooks/:driver/:connectionCode` (no API key; each driver
 * authenticates its platform its own way).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as DateTime from "effect/DateTime"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import * as Constraint from "./Constraint"
import { errorFields, failure, success } from "./Envelope"
import { TooManyRequestsResponse } from "./Errors"
import { token } from "./i18n"
import { MaxBodyBytes } from "./Limits"
import { WebConnectionCreate, WebSettings } from "./WebSettings"

/** Hook bodies larger than this are refused (413) before they are read. */
export const maxHookBodyBytes = 1024 * 1024

/** How far a signed webhook request's timestamp may be from the server's clock. */
export const signatureToleranceSeconds = 5 * 60

/** Headers of the `webhook` driver, inbound and outbound alike. */
export const signatureHeaders = {
  timestamp: "x-dastyar-timestamp",
  signature: "x-dastyar-signature"
} as const

export const Driver = Constraint.oneOf("telegram", "webhook", "bale", "whatsapp", "web")
export type Driver = typeof Driver.Type

export const ConnectionStatus = Schema.Literal("active", "disabled", "dead")
export type ConnectionStatus = typeof ConnectionStatus.Type

export const ConnectionCode = Schema.String.pipe(Schema.brand("ConnectionCode"))
export type ConnectionCode = typeof ConnectionCode.Type

const HttpUrl = Constraint.text({ max: 2048 }).pipe(
  Schema.pattern(/^https?:\/\/\S+$/i, { message: () => token("constraint.url") })
)

export const TelegramConnectionCreate = Schema.Struct({
  driver: Schema.Literal("telegram"),
  botToken: Constraint.text({ max: 200 }).pipe(
    Schema.pattern(/^\d{1,20}:[A-Za-z0-9_-]{20,}$/, { message: () => token("constraint.botToken") })
  ).annotations({ description: "The token @BotFather gave the bot; stored encrypted, never returned" })
}).annotations({ identifier: "TelegramConnectionCreate" })

export const BaleConnectionCreate = Schema.Struct({
  driver: Schema.Literal("bale"),
  botToken: Constraint.text({ max: 200 }).pipe(
    Schema.pattern(/^(\d{1,20}:)?[A-Za-z0-9_-]{20,}$/, { message: () => token("constraint.baleBotToken") })
  ).annotations({ description: "The token Bale's @BotFather gave the bot; stored encrypted, never returned" })
}).annotations({ identifier: "BaleConnectionCreate" })

export const WhatsAppConnectionCreate = Schema.Struct({
  driver: Schema.Literal("whatsapp"),
  phoneNumberId: Constraint.text({ max: 40 }).pipe(
    Schema.pattern(/^\d{5,40}$/, { message: () => token("constraint.phoneNumberId") })
  ).annotations({ description: "The Cloud API's phone number ID (not the phone number itself)" }),
  accessToken: Constraint.text({ min: 20, max: 2048 }).annotations({
    description: "A system user's permanent access token with `whatsapp_business_messaging`; stored encrypted"
  }),
  appSecret: Constraint.text({ min: 16, max: 256 }).annotations({
    description: "The Meta app's secret, to check `X-Hub-Signature-256`; stored encrypted, never returned"
  }),
  verifyToken: Constraint.text({ min: 8, max: 256 }).annotations({
    description: "Any string you choose; paste the same into the app's webhook settings; stored encrypted"
  })
}).annotations({ identifier: "WhatsAppConnectionCreate" })

export const WebhookConnectionCreate = Schema.Struct({
  driver: Schema.Literal("webhook"),
  callbackUrl: HttpUrl.annotations({ description: "Where answers are POSTed, signed like inbound requests" }),
  secret: Constraint.text({ min: 32, max: 256 }).annotations({
    description: "Shared HMAC-SHA256 key for both directions; stored encrypted, never returned"
  })
}).annotations({ identifier: "WebhookConnectionCreate" })

export const ConnectionCreate = Schema.Union(
  TelegramConnectionCreate,
  WebhookConnectionCreate,
  BaleConnectionCreate,
  WhatsAppConnectionCreate,
  WebConnectionCreate
).annotations({
  identifier: "ConnectionCreate",
  parseOptions: { errors: "all" },
  examples: [{ driver: "telegram", botToken: "123456789:AAF1d2e3f4g5h6i7j8k9l0mnopqrstuvwx" }]
})
export type ConnectionCreate = typeof ConnectionCreate.Type

export const Connection = Schema.Struct({
  connectionCode: ConnectionCode,
  assistantId: AssistantId,
  driver: Driver,
  hookUrl: Schema.String.annotations({
    description: "`DASTYAR_PUBLIC_URL` + `/hooks/:driver/:connectionCode` (web: `/v1/web/:connectionCode`)"
  }),
  status: ConnectionStatus.annotations({
    description: "`dead` when the platform refused the connection's credentials (e.g. a revoked bot token)"
  }),
  statusReason: Schema.NullOr(Schema.String).annotations({
    description: "Why the connection is dead, or (WhatsApp) why the last reply could not be sent"
  }),
  botUsername: Schema.NullOr(Schema.String).annotations({ description: "Telegram, Bale: the bot's @username" }),
  callbackUrl: Schema.NullOr(Schema.String).annotations({ description: "Webhook: where answers go" }),
  phoneNumberId: Schema.NullOr(Schema.String).annotations({ description: "WhatsApp: the Cloud API phone number ID" }),
  web: Schema.optional(WebSettings).annotations({ description: "Web: the widget's settings" }),
  embedSnippet: Schema.optional(Schema.String).annotations({
    description: "Web: the line to paste into the shop's pages, `<script src=\"{DASTYAR_PUBLIC_URL}/widget.js\" …>`"
  }),
  connectionSecret: Schema.optional(Schema.String).annotations({
    description: "Web, in the creation answer only: the key of the identity HMAC (`userHash`); stored encrypted"
  }),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}).annotations({
  identifier: "Connection",
  examples: [{
    connectionCode: ConnectionCode.make("con_5d1c0e9f2b7a4c3e8f6a0b1d"),
    assistantId: AssistantId.make("ast_7c9e2a4b6d8f0a1c3e5b7d9f"),
    driver: "telegram",
    hookUrl: "https://dastyar.example.com/hooks/telegram/con_5d1c0e9f2b7a4c3e8f6a0b1d",
    status: "active",
    statusReason: null,
    botUsername: "acme_shop_bot",
    callbackUrl: null,
    phoneNumberId: null,
    createdAt: DateTime.unsafeMake("2026-11-03T10:00:00Z"),
    updatedAt: DateTime.unsafeMake("2026-11-03T10:00:00Z")
  }]
})
export type Connection = typeof Connection.Type

export class ConnectionNotFound extends Schema.TaggedError<ConnectionNotFound>()("ConnectionNotFound", errorFields) {}
export const ConnectionNotFoundResponse = failure(ConnectionNotFound, { status: 404, code: "connections.not_found" })

export class TelegramRejected extends Schema.TaggedError<TelegramRejected>()("TelegramRejected", errorFields) {}
export const TelegramRejectedResponse = failure(TelegramRejected, {
  status: 400,
  code: "connections.telegram_rejected",
  description: "400: the Bot API refused the token or the webhook registration"
})

export class TelegramUnavailable
  extends Schema.TaggedError<TelegramUnavailable>()("TelegramUnavailable", errorFields)
{}
export const TelegramUnavailableResponse = failure(TelegramUnavailable, {
  status: 503,
  code: "connections.telegram_unavailable"
})

export class MessengerRejected extends Schema.TaggedError<MessengerRejected>()("MessengerRejected", errorFields) {}
export const MessengerRejectedResponse = failure(MessengerRejected, {
  status: 400,
  code: "connections.platform_rejected",
  description: "400: Bale or WhatsApp refused the credentials or the webhook registration"
})

export class MessengerUnavailable
  extends Schema.TaggedError<MessengerUnavailable>()("MessengerUnavailable", errorFields)
{}
export const MessengerUnavailableResponse = failure(MessengerUnavailable, {
  status: 503,
  code: "connections.platform_unavailable",
  description: "503: Bale's or WhatsApp's API cannot be reached right now"
})

export class SecretKeyMissing extends Schema.TaggedError<SecretKeyMissing>()("SecretKeyMissing", errorFields) {}
export const SecretKeyMissingResponse = failure(SecretKeyMissing, {
  status: 503,
  code: "connections.secret_key_missing",
  description: "503: with an external database, connections need `DASTYAR_SECRET_KEY`"
})

export class CallbackUrlRefused extends Schema.TaggedError<CallbackUrlRefused>()("CallbackUrlRefused", errorFields) {}
export const CallbackUrlRefusedResponse = failure(CallbackUrlRefused, {
  status: 400,
  code: "connections.callback_refused",
  description: "400: the callback URL does not resolve, or resolves to a loopback, link-local, private, unspecified " +
    "or multicast address (private networks are allowed by the server's `DASTYAR_WEBHOOK_ALLOW_PRIVATE`)"
})

export class HookUnauthorized extends Schema.TaggedError<HookUnauthorized>()("HookUnauthorized", errorFields) {}
export const HookUnauthorizedResponse = failure(HookUnauthorized, {
  status: 401,
  code: "hooks.unauthorized",
  description:
    "401: wrong or missing secret token (telegram), or bad signature or stale timestamp (webhook); nothing processed"
})

export class HookForbidden extends Schema.TaggedError<HookForbidden>()("HookForbidden", errorFields) {}
export const HookForbiddenResponse = failure(HookForbidden, {
  status: 403,
  code: "hooks.forbidden",
  description: "403: the verification request's `hub.verify_token` is wrong (whatsapp)"
})

export class HookConnectionNotFound extends Schema.TaggedError<HookConnectionNotFound>()(
  "HookConnectionNotFound",
  errorFields
) {}
export const HookConnectionNotFoundResponse = failure(HookConnectionNotFound, {
  status: 404,
  code: "hooks.not_found",
  description: "404: unknown, disabled or dead connection; nothing processed"
})

/** What a custom integration (`webhook` driver) posts to its hook. */
export const WebhookInbound = Schema.Struct({
  principal: Constraint.text({ min: 1, max: 200 }).annotations({
    description: "Your end user; the assistant sees `webhook:<principal>`, one conversation per principal"
  }),
  message: Constraint.text({ min: 1, max: 32000 }),
  messageId: Schema.optional(Constraint.text({ min: 1, max: 200 })).annotations({
    description: "Your id of the message, echoed in the answer; a repeated id is processed once"
  })
}).annotations({ identifier: "WebhookInbound", parseOptions: { errors: "all" } })
export type WebhookInbound = typeof WebhookInbound.Type

/** What the `webhook` driver POSTs to the connection's callback URL. */
export const WebhookDelivery = Schema.Struct({
  connectionCode: Schema.String,
  principal: Schema.String,
  messageId: Schema.NullOr(Schema.String),
  conversationId: Schema.NullOr(Schema.String),
  text: Schema.String.annotations({ description: "The answer; when `error` is set, a polite text for the user" }),
  products: Schema.Array(Schema.Struct({
    externalId: Schema.String,
    title: Schema.String,
    price: Schema.NullOr(Schema.Number),
    currency: Schema.NullOr(Schema.String),
    imageUrl: Schema.NullOr(Schema.String),
    url: Schema.NullOr(Schema.String)
  })),
  degraded: Schema.Boolean,
  error: Schema.NullOr(Schema.String).annotations({
    description: "The chat error's `response.code` (e.g. `chat.model_unavailable`) when there is no answer"
  })
}).annotations({ identifier: "WebhookDelivery" })
export type WebhookDelivery = typeof WebhookDelivery.Type

/** A Telegram `Update` object, as the Bot API sends it (only `update_id` is needed; others are ignored). */
export const TelegramUpdate = Schema.Struct(
  { update_id: Schema.Int },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
).annotations({ identifier: "TelegramUpdate" })

/** A WhatsApp Cloud API webhook notification (`object`, `entry[].changes[].value`); read by the driver. */
export const WhatsAppNotification = Schema.Struct(
  { object: Schema.String, entry: Schema.Array(Schema.Unknown) },
  Schema.Record({ key: Schema.String, value: Schema.Unknown })
).annotations({ identifier: "WhatsAppNotification" })

/** WhatsApp's webhook verification request (Meta calls it when the webhook URL is saved). */
export const HookVerifyQuery = Schema.Struct({
  "hub.mode": Schema.optional(Schema.String),
  "hub.verify_token": Schema.optional(Schema.String),
  "hub.challenge": Schema.optional(Schema.String)
})

const hookDescription = [
  "Where messaging platforms deliver messages; API clients never call it. The answer is sent back through the",
  "platform, not in this response: the hook answers 200 at once and the message is processed from a durable queue.",
  "`telegram`: the `X-Telegram-Bot-Api-Secret-Token` header must carry the secret registered with `setWebhook`;",
  "a redelivered `update_id` is processed once.",
  "`bale`: Bale sends no secret header, so its webhook URL carries a secret path segment",
  "(`/hooks/bale/:connectionCode/:hookSecret`, registered by the service); a redelivered `update_id` is processed once.",
  "`whatsapp`: the Cloud API's notification, `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the",
  "app secret>`; messages are answered, status events ignored, a redelivered message id processed once.",
  "`webhook`: the body is `WebhookInbound`, signed: `X-Dastyar-Timestamp` (Unix seconds, within 5 minutes) and",
  "`X-Dastyar-Signature: sha256=<hex HMAC-SHA256 of \"<timestamp>.<raw body>\" with the connection's secret>`.",
  "Answers go to the callback URL as `WebhookDelivery`, signed the same way, retried with backoff.",
  "Bodies over 1 MB are refused (413); each connection has its own rate limit (429)."
].join(" ")

export class HooksApi extends HttpApiGroup.make("hooks")
  .annotate(OpenApi.Title, "Messenger hooks")
  .add(
    HttpApiEndpoint.post("deliver")`/hooks/${HttpApiSchema.param("driver", Driver)}/${
      HttpApiSchema.param("connectionCode", Schema.String)
    }`
      .annotate(OpenApi.Summary, "Messenger hook")
      .annotate(OpenApi.Description, hookDescription)
      .setPayload(Schema.Union(TelegramUpdate, WebhookInbound, WhatsAppNotification))
      .addSuccess(success(Schema.Null, { identifier: "HookAcceptedResponse" }))
      .addError(HookUnauthorizedResponse)
      .addError(HookConnectionNotFoundResponse)
      .addError(TooManyRequestsResponse)
      .annotate(MaxBodyBytes, maxHookBodyBytes)
  )
  .add(
    HttpApiEndpoint.post("deliverWithSecret")`/hooks/${HttpApiSchema.param("driver", Driver)}/${
      HttpApiSchema.param("connectionCode", Schema.String)
    }/${HttpApiSchema.param("hookSecret", Schema.String)}`
      .annotate(OpenApi.Summary, "Messenger hook with a secret path (bale)")
      .annotate(OpenApi.Description, "The hook of platforms that send no secret header: the path carries it.")
      .setPayload(TelegramUpdate)
      .addSuccess(success(Schema.Null, { identifier: "HookWithSecretAcceptedResponse" }))
      .addError(HookUnauthorizedResponse)
      .addError(HookConnectionNotFoundResponse)
      .addError(TooManyRequestsResponse)
      .annotate(MaxBodyBytes, maxHookBodyBytes)
  )
  .add(
    HttpApiEndpoint.get("verify")`/hooks/${HttpApiSchema.param("driver", Driver)}/${
      HttpApiSchema.param("connectionCode", Schema.String)
    }`
      .annotate(OpenApi.Summary, "Messenger webhook verification (whatsapp)")
      .annotate(
        OpenApi.Description,
        "Meta's handshake when a webhook URL is saved: with `hub.mode=subscribe` and the connection's verify token, "
          + "the answer is `hub.challenge` as text/plain; any other token gets 403."
      )
      .setUrlParams(HookVerifyQuery)
      .addSuccess(HttpApiSchema.Text())
      .addError(HookForbiddenResponse)
      .addError(HookConnectionNotFoundResponse)
      .addError(TooManyRequestsResponse)
  )
  .annotate(
    OpenApi.Description,
    "Inbound messages from messaging platforms (Telegram, Bale, WhatsApp, custom webhooks)."
  )
{}
