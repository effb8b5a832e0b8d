/**
 * The website widget's routes: the browser's (`/v1/web/:connectionCode/…`, no
 * API key: the connection is the public identifier, the page's `Origin` must be
 * one of its `allowedOrigins`) and the operator's (settings, a preview token
 * for the console).
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiMiddleware, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import { AdminAuth } from "./Auth"
import * as Channels from "./Channels"
import {
  AssistantNotActiveResponse,
  ChatAssistantNotFoundResponse,
  ModelUnavailableResponse,
  QuotaExhaustedResponse
} from "./Chat"
import * as Constraint from "./Constraint"
import { Feedback, FeedbackWrite, MessageId, MessageNotFoundResponse } from "./Conversations"
import { errorFields, failure, success } from "./Envelope"
import { AssistantNotFoundResponse, TooManyRequestsResponse } from "./Errors"
import { MaxBodyBytes } from "./Limits"
import { Origin, type WebSettings, WebSettingsUpdate, WidgetLanguage } from "./WebSettings"

/** Browser bodies are small: a question and a token. Larger ones are refused (413) before they are read. */
export const maxWebBodyBytes = 16 * 1024
export const maxWebMessageLength = 2000

/** Headers of the browser routes: the visitor token, and the console's preview token. */
export const webHeaders = { visitor: "x-dastyar-visitor", preview: "x-dastyar-preview" } as const

/** How long a console preview token is good for. */
export const previewTokenSeconds = 15 * 60

export class WebConnectionNotFound
  extends Schema.TaggedError<WebConnectionNotFound>()("WebConnectionNotFound", errorFields)
{}
export const WebConnectionNotFoundResponse = failure(WebConnectionNotFound, {
  status: 404,
  code: "web.not_found",
  description: "404: unknown, disabled or non-web connection"
})

export class OriginRefused extends Schema.TaggedError<OriginRefused>()("OriginRefused", errorFields) {}
export const OriginRefusedResponse = failure(OriginRefused, {
  status: 403,
  code: "web.origin_refused",
  description: "403: the request's `Origin` is missing or not in the connection's `allowedOrigins`; nothing ran"
})

export class VisitorTokenInvalid
  extends Schema.TaggedError<VisitorTokenInvalid>()("VisitorTokenInvalid", errorFields)
{}
export const VisitorTokenInvalidResponse = failure(VisitorTokenInvalid, {
  status: 401,
  code: "web.visitor_invalid",
  description: "401: the visitor token is missing, altered or issued for another connection; start a session"
})

export class IdentityRefused extends Schema.TaggedError<IdentityRefused>()("IdentityRefused", errorFields) {}
export const IdentityRefusedResponse = failure(IdentityRefused, {
  status: 401,
  code: "web.identity_invalid",
  description: "401: `userHash` is not HMAC-SHA256(connection secret, userId)"
})

/** The web connection a browser request is for, once its origin and limits have been checked. */
export class CurrentWebConnection extends Context.Tag("@dastyar/domain/CurrentWebConnection")<CurrentWebConnection, {
  readonly connectionCode: string
  readonly assistantId: string
  readonly accountId: string
  readonly settings: WebSettings
  /** The connection's identity secret (HMAC key of `userHash`). */
  readonly secret: string
}>() {}

/**
 * The connection by its code (404), the request's `Origin` in its allowed
 * origins or a console preview token (403), then its limits per client IP and
 * per connection (429). CORS headers on every answer to an allowed origin.
 */
export class WebAccess extends HttpApiMiddleware.Tag<WebAccess>()("WebAccess", {
  failure: Schema.Union(WebConnectionNotFoundResponse, OriginRefusedResponse, TooManyRequestsResponse),
  provides: CurrentWebConnection
}) {}

export const WidgetConfig = Schema.Struct({
  title: Schema.String,
  greeting: Schema.String,
  colour: Schema.String,
  defaultLanguage: WidgetLanguage,
  showProducts: Schema.Boolean,
  showSources: Schema.Boolean
}).annotations({ identifier: "WidgetConfig" })
export type WidgetConfig = typeof WidgetConfig.Type

export const WebSource = Schema.Struct({
  path: Schema.String,
  text: Schema.String.annotations({ description: "The passage the answer was given" })
}).annotations({ identifier: "WebSource" })
export type WebSource = typeof WebSource.Type

export const WebProduct = Schema.Struct({
  externalId: Schema.String,
  title: Schema.String,
  price: Schema.NullOr(Schema.Number),
  currency: Schema.NullOr(Schema.String),
  imageUrl: Schema.NullOr(Schema.String),
  url: Schema.NullOr(Schema.String)
}).annotations({ identifier: "WebProduct" })
export type WebProduct = typeof WebProduct.Type

/** An answer as the widget shows it; sources and products are empty when the connection hides them. */
export const WebReply = Schema.Struct({
  messageId: Schema.optional(Schema.String).annotations({ description: "The answer's id, to rate it" }),
  text: Schema.String,
  sources: Schema.Array(WebSource),
  products: Schema.Array(WebProduct),
  degraded: Schema.Boolean
}).annotations({ identifier: "WebReply" })
export type WebReply = typeof WebReply.Type

export const WebMessage = Schema.Struct({
  id: Schema.optional(Schema.String).annotations({ description: "The message's id (an answer's, to rate it)" }),
  role: Schema.Literal("user", "assistant"),
  text: Schema.String,
  sources: Schema.Array(WebSource)
}).annotations({ identifier: "WebMessage" })
export type WebMessage = typeof WebMessage.Type

export const WebTranscript = Schema.Struct({ messages: Schema.Array(WebMessage) }).annotations({
  identifier: "WebTranscript"
})

export const WebSessionRequest = Schema.Struct({
  visitorToken: Schema.optional(Constraint.text({ min: 1, max: 1000 })).annotations({
    description: "The token this browser holds; omit to become a new visitor"
  }),
  userId: Schema.optional(Constraint.text({ min: 1, max: 200 })).annotations({
    description: "The shop's id of its signed-in customer, so their conversation follows them across devices"
  }),
  userHash: Schema.optional(Constraint.pattern(/^[0-9a-f]{64}$/)).annotations({
    description: "Hex HMAC-SHA256 of `userId` with the connection's secret, computed on the shop's server"
  })
}).annotations({ identifier: "WebSessionRequest", parseOptions: { errors: "all" } })
export type WebSessionRequest = typeof WebSessionRequest.Type

export const WebSession = Schema.Struct({
  visitorToken: Schema.String.annotations({
    description: "Opaque, signed, bound to this connection; send it as `X-Dastyar-Visitor`"
  }),
  messages: Schema.Array(WebMessage).annotations({ description: "The current conversation, oldest first" })
}).annotations({ identifier: "WebSession" })
export type WebSession = typeof WebSession.Type

export const WebMessageRequest = Schema.Struct({
  message: Constraint.text({ min: 1, max: maxWebMessageLength }),
  stream: Schema.optional(Constraint.Boolean).annotations({
    description: "Answer as server-sent events: `delta` events with `{\"text\"}`, then one `done` with the WebReply"
  })
}).annotations({ identifier: "WebMessageRequest", parseOptions: { errors: "all" } })
export type WebMessageRequest = typeof WebMessageRequest.Type

export const PreviewRequest = Schema.Struct({ origin: Origin }).annotations({ identifier: "WebPreviewRequest" })

export const Preview = Schema.Struct({
  previewToken: Schema.String.annotations({
    description: "Send as `X-Dastyar-Preview` (the widget's `data-preview-token`); lets `origin` use the widget"
  }),
  expiresAt: Schema.DateTimeUtc
}).annotations({ identifier: "WebPreview" })

const connectionPath = HttpApiSchema.param("connectionCode", Channels.ConnectionCode)
const VisitorHeaders = Schema.Struct({ [webHeaders.visitor]: Schema.optional(Schema.String) })

export class WebApi extends HttpApiGroup.make("web")
  .annotate(OpenApi.Title, "Website widget")
  .add(
    HttpApiEndpoint.get("config")`/web/${connectionPath}/config`
      .annotate(OpenApi.Summary, "The widget's settings")
      .addSuccess(success(WidgetConfig, { identifier: "WidgetConfigResponse" }))
  )
  .add(
    HttpApiEndpoint.post("session")`/web/${connectionPath}/session`
      .annotate(OpenApi.Summary, "Start or continue a visitor's session")
      .annotate(
        OpenApi.Description,
        "A valid `visitorToken` of this connection continues its conversation; otherwise a new visitor token is " +
          "issued. With `userId` and `userHash` the session is the signed-in customer's on every device."
      )
      .setPayload(WebSessionRequest)
      .addSuccess(success(WebSession, { identifier: "WebSessionResponse" }))
      .addError(IdentityRefusedResponse)
  )
  .add(
    HttpApiEndpoint.get("messages")`/web/${connectionPath}/messages`
      .annotate(OpenApi.Summary, "The visitor's conversation")
      .setHeaders(VisitorHeaders)
      .addSuccess(success(WebTranscript, { identifier: "WebTranscriptResponse" }))
      .addError(VisitorTokenInvalidResponse)
  )
  .add(
    HttpApiEndpoint.post("send")`/web/${connectionPath}/messages`
      .annotate(OpenApi.Summary, "Ask the assistant")
      .annotate(
        OpenApi.Description,
        "Answers through the assistant's chat (knowledge base and catalog). With `stream: true`: " +
          "`text/event-stream` with `event: delta` lines, then one `event: done` whose data is the WebReply. " +
          "402 when the account's quota is used up."
      )
      .setHeaders(VisitorHeaders)
      .setPayload(WebMessageRequest)
      .addSuccess(success(WebReply, { identifier: "WebReplyResponse" }))
      .addError(VisitorTokenInvalidResponse)
      .addError(ChatAssistantNotFoundResponse)
      .addError(AssistantNotActiveResponse)
      .addError(ModelUnavailableResponse)
      .addError(QuotaExhaustedResponse)
  )
  .add(
    HttpApiEndpoint.post("newConversation")`/web/${connectionPath}/conversations`
      .annotate(OpenApi.Summary, "Start a new conversation")
      .annotate(OpenApi.Description, "The next message starts a new conversation; the old one stays stored.")
      .setHeaders(VisitorHeaders)
      .addSuccess(success(WebTranscript, { identifier: "WebNewConversationResponse" }))
      .addError(VisitorTokenInvalidResponse)
  )
  .add(
    HttpApiEndpoint.post("feedback")`/web/${connectionPath}/messages/${
      HttpApiSchema.param("messageId", MessageId)
    }/feedback`
      .annotate(OpenApi.Summary, "Rate an answer of the visitor's conversation")
      .annotate(
        OpenApi.Description,
        "Thumbs up or down with an optional comment; one vote per answer, the last counts. Only answers of " +
          "the visitor's current conversation: any other message is 404."
      )
      .setHeaders(VisitorHeaders)
      .setPayload(FeedbackWrite)
      .addSuccess(success(Feedback, { identifier: "WebFeedbackResponse" }))
      .addError(VisitorTokenInvalidResponse)
      .addError(MessageNotFoundResponse)
  )
  .middleware(WebAccess)
  .prefix("/v1")
  .annotate(MaxBodyBytes, maxWebBodyBytes)
  .annotate(
    OpenApi.Description,
    "The website widget's routes. No API key: the request's `Origin` must be one of the connection's " +
      "`allowedOrigins` (403 otherwise, nothing runs); limited per client IP and per connection (429). " +
      "Bodies over 16 KB are refused (413)."
  )
{}

export class AdminWebApi extends HttpApiGroup.make("adminWeb")
  .annotate(OpenApi.Title, "Admin: website widget")
  .add(
    HttpApiEndpoint.patch("updateWebConnection")`/assistants/${
      HttpApiSchema.param("assistantId", AssistantId)
    }/connections/${connectionPath}/web`
      .annotate(OpenApi.Summary, "Change a web connection's settings")
      .setPayload(WebSettingsUpdate)
      .addSuccess(success(Channels.Connection, { identifier: "WebConnectionUpdatedResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(Channels.ConnectionNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.post("previewWebConnection")`/assistants/${
      HttpApiSchema.param("assistantId", AssistantId)
    }/connections/${connectionPath}/web/preview`
      .annotate(OpenApi.Summary, "A short-lived preview token for the console")
      .annotate(
        OpenApi.Description,
        "Lets `origin` (the console's own) use the widget for 15 minutes without adding it to `allowedOrigins`."
      )
      .setPayload(PreviewRequest)
      .addSuccess(success(Preview, { identifier: "WebPreviewResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(Channels.ConnectionNotFoundResponse)
  )
  .middleware(AdminAuth)
  .prefix("/admin/v1")
  .annotate(OpenApi.Description, "Operator API: website widget connections. Bearer operator token.")
{}
