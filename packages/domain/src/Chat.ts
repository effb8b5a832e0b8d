import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import { ApiKeyAuth } from "./Auth"
import * as Constraint from "./Constraint"
import { errorFields, failure, success } from "./Envelope"
import { NotImplementedResponse } from "./Errors"
import { Reasoning } from "./Models"

export const ChatRequest = Schema.Struct({
  principal: Constraint.text({ min: 1, max: 256 }).annotations({
    description: "Which of the caller's own end users is chatting"
  }),
  message: Constraint.text({ min: 1, max: 32000 }),
  conversationId: Schema.optional(Constraint.text({ min: 1, max: 64 }))
}).annotations({
  identifier: "ChatRequest",
  parseOptions: { errors: "all" },
  examples: [{ principal: "customer-1042", message: "Do you ship to Shiraz?" }]
})

export const Source = Schema.Struct({
  fileId: Schema.String,
  path: Schema.String,
  chunk: Schema.Int
}).annotations({ identifier: "Source" })

export const ChatReply = Schema.Struct({
  conversationId: Schema.String,
  text: Schema.String,
  sources: Schema.Array(Source),
  model: Schema.String,
  reasoning: Reasoning,
  degraded: Schema.Boolean,
  quota: Schema.Unknown.annotations({ description: "Opaque cost ledger entry; do not parse" })
}).annotations({ identifier: "ChatReply" })

export class ChatAssistantNotFound extends Schema.TaggedError<ChatAssistantNotFound>()(
  "ChatAssistantNotFound",
  errorFields
) {}
export const ChatAssistantNotFoundResponse = failure(ChatAssistantNotFound, {
  status: 404,
  code: "chat.assistant_not_found"
})

export class ModelUnavailable extends Schema.TaggedError<ModelUnavailable>()("ModelUnavailable", errorFields) {}
export const ModelUnavailableResponse = failure(ModelUnavailable, { status: 503, code: "chat.model_unavailable" })

export class VoiceDisabled extends Schema.TaggedError<VoiceDisabled>()("VoiceDisabled", errorFields) {}
export const VoiceDisabledResponse = failure(VoiceDisabled, { status: 400, code: "chat.voice_disabled" })

export class ChatApi extends HttpApiGroup.make("chat")
  .add(
    HttpApiEndpoint.post("send")`/assistants/${HttpApiSchema.param("assistantCode", AssistantId)}/chat`
      .annotate(OpenApi.Summary, "Send a chat message")
      .setPayload(ChatRequest)
      .addSuccess(success(ChatReply, { identifier: "ChatReplyResponse" }))
      .addError(ChatAssistantNotFoundResponse)
      .addError(ModelUnavailableResponse)
      .addError(VoiceDisabledResponse)
      .addError(NotImplementedResponse)
  )
  .middleware(ApiKeyAuth)
  .prefix("/v1")
  .annotate(OpenApi.Description, "Chat with an assistant, answered from its knowledge base and catalog.")
{}
