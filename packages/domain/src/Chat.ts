/**
 * Chat: one turn of a conversation with an assistant, answered from its
 * knowledge base and catalog. JSON in, the envelope out, or server-sent events
 * when the request asks for `stream: true`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import { ApiKeyAuth } from "./Auth"
import * as Constraint from "./Constraint"
import { errorFields, failure, success } from "./Envelope"
import { token } from "./i18n"
import { Reasoning } from "./Models"
import { Product } from "./Products"

/** Decoded bytes per attachment; base64 makes the field about a third longer. */
export const maxAttachmentBytes = 4 * 1024 * 1024
export const maxAttachments = 4

export const AttachmentKind = Constraint.oneOf("voice", "image")
export type AttachmentKind = typeof AttachmentKind.Type

/**
 * A voice note or an image sent inline. The server judges the file by its
 * bytes, not by `mimeType` or `filename`: a voice note must be audio
 * (Ogg/Opus, MP3, M4A, WAV, WebM…), an image JPEG, PNG, WebP or GIF.
 */
export const Attachment = Schema.Struct({
  kind: AttachmentKind,
  data: Constraint.text({ min: 4, max: Math.ceil(maxAttachmentBytes / 3) * 4 }).pipe(
    Schema.pattern(/^[A-Za-z0-9+/]+={0,2}$/, { message: () => token("constraint.base64") })
  ).annotations({ description: `Base64 of the file, at most ${maxAttachmentBytes} bytes decoded` }),
  mimeType: Schema.optional(Constraint.text({ max: 100 })),
  filename: Schema.optional(Constraint.text({ max: 255 }))
}).annotations({ identifier: "ChatAttachment" })
export type Attachment = typeof Attachment.Type

export const ChatRequest = Schema.Struct({
  principal: Constraint.text({ min: 1, max: 256 }).annotations({
    description: "Which of the caller's own end users is chatting; namespaced by the key's account"
  }),
  message: Constraint.text({ min: 1, max: 32000 }),
  conversationId: Schema.optional(Constraint.text({ min: 1, max: 64 })).annotations({
    description: "Continue this conversation (same assistant and principal); omit to start a new one"
  }),
  attachments: Schema.optional(Constraint.arrayOf(Attachment, { max: maxAttachments })),
  stream: Schema.optional(Constraint.Boolean).annotations({
    description: "Answer as server-sent events: `delta` events with text, then one `done` event with the data object"
  })
}).annotations({
  identifier: "ChatRequest",
  parseOptions: { errors: "all" },
  examples: [{ principal: "customer-1042", message: "Do you ship to Shiraz?" }]
})
export type ChatRequest = typeof ChatRequest.Type

export const Source = Schema.Struct({
  fileId: Schema.String,
  path: Schema.String,
  chunk: Schema.Int,
  text: Schema.optional(
    Schema.String.annotations({ description: "The passage given to the model (the chunk's text)" })
  ),
  score: Schema.optional(
    Schema.Number.annotations({ description: "Retrieval relevance in [0, 1], higher is closer (3 decimals)" })
  ),
  kind: Schema.optional(
    Schema.Literal("document", "curated").annotations({
      description: "`curated`: a curated answer served instead of a model's (`fileId` is its id); absent: a document"
    })
  )
}).annotations({ identifier: "Source" })
export type Source = typeof Source.Type

export const ChatReply = Schema.Struct({
  conversationId: Schema.String,
  messageId: Schema.optional(Schema.String).annotations({
    description: "The stored answer's id, to rate it (feedback routes)"
  }),
  text: Schema.String,
  sources: Schema.Array(Source).annotations({ description: "Exactly the knowledge chunks given to the model" }),
  products: Schema.Array(Product).annotations({
    description: "Products the answer shows (from the product-search tool)"
  }),
  model: Schema.String,
  reasoning: Reasoning.annotations({ description: "Reasoning level actually used" }),
  degraded: Schema.Boolean,
  quota: Schema.Unknown.annotations({ description: "Opaque snapshot of the account's cost ledger; do not parse" })
}).annotations({ identifier: "ChatReply" })
export type ChatReply = typeof ChatReply.Type

/** One server-sent event of a streamed answer; `done` carries the same data as the JSON answer. */
export const ChatStreamEvent = Schema.Union(
  Schema.Struct({ event: Schema.Literal("delta"), data: Schema.Struct({ text: Schema.String }) }),
  Schema.Struct({ event: Schema.Literal("done"), data: ChatReply })
)
export type ChatStreamEvent = typeof ChatStreamEvent.Type

export class ChatAssistantNotFound extends Schema.TaggedError<ChatAssistantNotFound>()(
  "ChatAssistantNotFound",
  errorFields
) {}
export const ChatAssistantNotFoundResponse = failure(ChatAssistantNotFound, {
  status: 404,
  code: "chat.assistant_not_found"
})

export class ConversationNotFound extends Schema.TaggedError<ConversationNotFound>()(
  "ConversationNotFound",
  errorFields
) {}
export const ConversationNotFoundResponse = failure(ConversationNotFound, {
  status: 404,
  code: "chat.conversation_not_found"
})

export class AssistantNotActive extends Schema.TaggedError<AssistantNotActive>()("AssistantNotActive", errorFields) {}
export const AssistantNotActiveResponse = failure(AssistantNotActive, {
  status: 409,
  code: "chat.assistant_not_active"
})

export class ModelUnavailable extends Schema.TaggedError<ModelUnavailable>()("ModelUnavailable", errorFields) {}
export const ModelUnavailableResponse = failure(ModelUnavailable, { status: 503, code: "chat.model_unavailable" })

export class VoiceDisabled extends Schema.TaggedError<VoiceDisabled>()("VoiceDisabled", errorFields) {}
export const VoiceDisabledResponse = failure(VoiceDisabled, { status: 400, code: "chat.voice_disabled" })

export class AttachmentInvalid extends Schema.TaggedError<AttachmentInvalid>()("AttachmentInvalid", errorFields) {}
export const AttachmentInvalidResponse = failure(AttachmentInvalid, { status: 400, code: "chat.attachment_invalid" })

export class TranscriptionUnavailable extends Schema.TaggedError<TranscriptionUnavailable>()(
  "TranscriptionUnavailable",
  errorFields
) {}
export const TranscriptionUnavailableResponse = failure(TranscriptionUnavailable, {
  status: 503,
  code: "chat.transcription_unavailable"
})

export class QuotaExhausted extends Schema.TaggedError<QuotaExhausted>()("QuotaExhausted", errorFields) {}
export const QuotaExhaustedResponse = failure(QuotaExhausted, { status: 402, code: "chat.quota_exhausted" })

/** Every named failure of a chat turn, for the HTTP handler and the messenger channels alike. */
export type ChatTurnError =
  | ChatAssistantNotFound
  | AssistantNotActive
  | ConversationNotFound
  | ModelUnavailable
  | VoiceDisabled
  | AttachmentInvalid
  | TranscriptionUnavailable
  | QuotaExhausted

export class ChatApi extends HttpApiGroup.make("chat")
  .annotate(OpenApi.Title, "Chat")
  .add(
    HttpApiEndpoint.post("send")`/assistants/${HttpApiSchema.param("assistantCode", AssistantId)}/chat`
      .annotate(OpenApi.Summary, "Send a chat message")
      .annotate(
        OpenApi.Description,
        "Answers one user message. With `stream: true` the answer is `text/event-stream`: `event: delta` " +
          "lines with `{\"text\"}` as it is written, then one `event: done` whose data is the same object as " +
          "the JSON answer's `data`. Errors found before answering (404, 402, 409, 503, 400) keep the JSON envelope."
      )
      .setPayload(ChatRequest)
      .addSuccess(success(ChatReply, { identifier: "ChatReplyResponse" }))
      .addError(ChatAssistantNotFoundResponse)
      .addError(ConversationNotFoundResponse)
      .addError(AssistantNotActiveResponse)
      .addError(ModelUnavailableResponse)
      .addError(VoiceDisabledResponse)
      .addError(AttachmentInvalidResponse)
      .addError(TranscriptionUnavailableResponse)
      .addError(QuotaExhaustedResponse)
  )
  .middleware(ApiKeyAuth)
  .prefix("/v1")
  .annotate(OpenApi.Description, "Chat with an assistant, answered from its knowledge base and catalog.")
{}
