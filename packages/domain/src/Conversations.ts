/**
 * What the shop reads of its assistants' conversations: the log (list, one
 * thread, export, deletion), feedback on answers, and the report of the
 * questions nobody answered. Every route is under an assistant of the key's account.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import { AdminAuth, ApiKeyAuth } from "./Auth"
import { Source } from "./Chat"
import * as Constraint from "./Constraint"
import { CuratedAnswer, CuratedFromQuestion, CuratedLimitReachedResponse } from "./Curated"
import { errorFields, failure, ListOf, success } from "./Envelope"
import { AssistantNotFoundResponse } from "./Errors"

/** Where a conversation came from: the chat route, the web widget, a messenger or a custom webhook. */
export const channels = ["api", "web", "telegram", "bale", "whatsapp", "webhook"] as const
export const Channel = Constraint.oneOf(...channels)
export type Channel = typeof Channel.Type

const booleanParam = Constraint.oneOf("true", "false")

/** Filters shared by the list, the export and the operator's list. */
export const conversationFilters = {
  channel: Schema.optional(Channel),
  from: Schema.optional(Constraint.DateTimeParam.annotations({ description: "Started at or after (ISO 8601)" })),
  to: Schema.optional(Constraint.DateTimeParam.annotations({ description: "Started before (ISO 8601)" })),
  principal: Schema.optional(Constraint.text({ min: 1, max: 256 })),
  negativeFeedback: Schema.optional(booleanParam).annotations({
    description: "`true`: only conversations with a thumbs-down on one of their answers"
  }),
  needsAttention: Schema.optional(booleanParam).annotations({
    description: "`true`: only conversations with an answer that was declined or degraded"
  })
}

export const ConversationListQuery = Schema.Struct({
  limit: Schema.optional(Constraint.intParam(1, 200)),
  cursor: Schema.optional(Constraint.text({ max: 500 })),
  ...conversationFilters
}).annotations({ parseOptions: { errors: "all" } })
export type ConversationListQuery = typeof ConversationListQuery.Type

export const ConversationSummary = Schema.Struct({
  id: Schema.String,
  assistantId: Schema.String,
  principal: Schema.String,
  channel: Channel,
  title: Schema.String.annotations({ description: "The first question, at most 200 characters" }),
  messageCount: Schema.Int,
  negativeFeedback: Schema.Boolean,
  needsAttention: Schema.Boolean.annotations({ description: "An answer was declined or degraded" }),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}).annotations({ identifier: "ConversationSummary" })
export type ConversationSummary = typeof ConversationSummary.Type

export const ConversationPage = Schema.Struct({
  list: Schema.Array(ConversationSummary),
  nextCursor: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ConversationPage" })
export type ConversationPage = typeof ConversationPage.Type

export const Rating = Constraint.oneOf("up", "down")
export type Rating = typeof Rating.Type

export const Feedback = Schema.Struct({
  rating: Rating,
  comment: Schema.NullOr(Schema.String),
  updatedAt: Schema.DateTimeUtc
}).annotations({ identifier: "Feedback" })
export type Feedback = typeof Feedback.Type

export const TurnUsage = Schema.Struct({
  promptTokens: Schema.Int,
  completionTokens: Schema.Int,
  embeddingTokens: Schema.Int
}).annotations({ identifier: "TurnUsage" })

export const ShownProduct = Schema.Struct({
  externalId: Schema.String,
  title: Schema.NullOr(Schema.String)
}).annotations({ identifier: "ShownProduct" })

export const ConversationMessage = Schema.Struct({
  id: Schema.String,
  role: Schema.Literal("user", "assistant"),
  content: Schema.String,
  createdAt: Schema.DateTimeUtc,
  sources: Schema.Array(Source).annotations({ description: "Assistant messages: the passages given to the model" }),
  products: Schema.Array(ShownProduct),
  model: Schema.NullOr(Schema.String),
  degraded: Schema.NullOr(Schema.Boolean),
  declined: Schema.NullOr(Schema.Boolean).annotations({
    description: "The answer had nothing to go on: no passage, no product, no curated answer"
  }),
  usage: Schema.NullOr(TurnUsage).annotations({ description: "Tokens the turn cost (cost ledger)" }),
  curatedId: Schema.NullOr(Schema.String).annotations({ description: "The curated answer served, if one was" }),
  feedback: Schema.NullOr(Feedback)
}).annotations({ identifier: "ConversationMessage" })
export type ConversationMessage = typeof ConversationMessage.Type

export const Conversation = Schema.Struct({
  ...ConversationSummary.fields,
  messages: Schema.Array(ConversationMessage)
}).annotations({ identifier: "Conversation" })
export type Conversation = typeof Conversation.Type

export const ExportQuery = Schema.Struct({
  format: Schema.optional(Constraint.oneOf("ndjson", "csv")),
  ...conversationFilters
}).annotations({ parseOptions: { errors: "all" } })
export type ExportQuery = typeof ExportQuery.Type

export const DeletePrincipalQuery = Schema.Struct({ principal: Constraint.text({ min: 1, max: 256 }) })
  .annotations({ parseOptions: { errors: "all" } })

export const Deleted = Schema.Struct({ deleted: Schema.Int }).annotations({ identifier: "ConversationsDeleted" })

export const FeedbackWrite = Schema.Struct({
  rating: Rating,
  comment: Schema.optional(Schema.NullOr(Constraint.text({ max: 2000 })))
}).annotations({ identifier: "FeedbackWrite", parseOptions: { errors: "all" }, examples: [{ rating: "down" }] })
export type FeedbackWrite = typeof FeedbackWrite.Type

export const ReportQuery = Schema.Struct({
  from: Schema.optional(Constraint.DateTimeParam),
  to: Schema.optional(Constraint.DateTimeParam),
  limit: Schema.optional(Constraint.intParam(1, 200))
}).annotations({ parseOptions: { errors: "all" } })
export type ReportQuery = typeof ReportQuery.Type

export const Reason = Schema.Literal("declined", "degraded", "weak_retrieval", "negative_feedback")
export type Reason = typeof Reason.Type

export const UnansweredGroup = Schema.Struct({
  id: Schema.String,
  label: Schema.String.annotations({ description: "The first question of the group" }),
  count: Schema.Int,
  examples: Schema.Array(Schema.String).annotations({ description: "Up to five distinct recent phrasings" }),
  firstSeen: Schema.DateTimeUtc,
  lastSeen: Schema.DateTimeUtc,
  channels: Schema.Record({ key: Schema.String, value: Schema.Int }),
  reasons: Schema.Record({ key: Schema.String, value: Schema.Int })
}).annotations({ identifier: "UnansweredGroup" })
export type UnansweredGroup = typeof UnansweredGroup.Type

export class ConversationNotFound extends Schema.TaggedError<ConversationNotFound>()(
  "ConversationLogNotFound",
  errorFields
) {}
export const ConversationNotFoundResponse = failure(ConversationNotFound, {
  status: 404,
  code: "conversations.not_found"
})

export class MessageNotFound extends Schema.TaggedError<MessageNotFound>()("MessageNotFound", errorFields) {}
export const MessageNotFoundResponse = failure(MessageNotFound, {
  status: 404,
  code: "conversations.message_not_found"
})

export class GroupNotFound extends Schema.TaggedError<GroupNotFound>()("UnansweredGroupNotFound", errorFields) {}
export const GroupNotFoundResponse = failure(GroupNotFound, { status: 404, code: "conversations.group_not_found" })

export class InvalidCursor extends Schema.TaggedError<InvalidCursor>()("ConversationCursorInvalid", errorFields) {}
export const InvalidCursorResponse = failure(InvalidCursor, { status: 400, code: "conversations.invalid_cursor" })

const assistantPath = HttpApiSchema.param("assistantCode", AssistantId)
const conversationPath = HttpApiSchema.param("conversationId", Constraint.text({ min: 1, max: 64 }))
/** A stored message's id, as the chat reply's `messageId` and the log's messages carry it. */
export const MessageId = Constraint.pattern(/^\d{1,18}$/)
const messagePath = HttpApiSchema.param("messageId", MessageId)
const groupPath = HttpApiSchema.param("groupId", Constraint.pattern(/^\d{1,18}$/))

/** The export's body: NDJSON (one conversation with its messages per line) or CSV (one message per row). */
export const ExportBody = Schema.String.pipe(
  HttpApiSchema.withEncoding({ kind: "Text", contentType: "application/x-ndjson" })
)

export class ConversationsApi extends HttpApiGroup.make("conversations")
  .annotate(OpenApi.Title, "Conversations")
  .add(
    HttpApiEndpoint.get("list")`/assistants/${assistantPath}/conversations`
      .annotate(OpenApi.Summary, "List conversations")
      .annotate(OpenApi.Description, "Newest first (by start), paginated by cursor; no count.")
      .setUrlParams(ConversationListQuery)
      .addSuccess(success(ConversationPage, { identifier: "ConversationPageResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(InvalidCursorResponse)
  )
  .add(
    HttpApiEndpoint.get("export")`/assistants/${assistantPath}/conversations/export`
      .annotate(OpenApi.Summary, "Export conversations")
      .annotate(
        OpenApi.Description,
        "Streams every matching conversation, newest first: `format=ndjson` (default) one conversation with " +
          "its messages per line, `format=csv` one message per row. Not wrapped in the envelope."
      )
      .setUrlParams(ExportQuery)
      .addSuccess(ExportBody)
      .addError(AssistantNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.get("get")`/assistants/${assistantPath}/conversations/${conversationPath}`
      .annotate(OpenApi.Summary, "Get a conversation with its messages")
      .addSuccess(success(Conversation, { identifier: "ConversationResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(ConversationNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.del("delete")`/assistants/${assistantPath}/conversations/${conversationPath}`
      .annotate(OpenApi.Summary, "Delete a conversation")
      .addSuccess(success(Schema.Null, { identifier: "ConversationDeletedResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(ConversationNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.del("deletePrincipal")`/assistants/${assistantPath}/conversations`
      .annotate(OpenApi.Summary, "Delete every conversation of one end user")
      .annotate(OpenApi.Description, "Removes the principal's conversations, messages, feedback and report entries.")
      .setUrlParams(DeletePrincipalQuery)
      .addSuccess(success(Deleted, { identifier: "ConversationsDeletedResponse" }))
      .addError(AssistantNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.put(
      "feedback"
    )`/assistants/${assistantPath}/conversations/${conversationPath}/messages/${messagePath}/feedback`
      .annotate(OpenApi.Summary, "Rate an answer")
      .annotate(
        OpenApi.Description,
        "Thumbs up or down with an optional comment; one vote per message, the last counts."
      )
      .setPayload(FeedbackWrite)
      .addSuccess(success(Feedback, { identifier: "FeedbackResponse" }))
      .addError(AssistantNotFoundResponse)
      .addError(ConversationNotFoundResponse)
      .addError(MessageNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.post(
      "answerBetter"
    )`/assistants/${assistantPath}/conversations/${conversationPath}/messages/${messagePath}/curated`
      .annotate(OpenApi.Summary, "Answer this better")
      .annotate(
        OpenApi.Description,
        "Creates a curated answer for the question this answer replied to (the question is filled in; " +
          "`questions` adds phrasings)."
      )
      .setPayload(CuratedFromQuestion)
      .addSuccess(success(CuratedAnswer, { identifier: "CuratedFromMessageResponse", status: 201 }))
      .addError(AssistantNotFoundResponse)
      .addError(ConversationNotFoundResponse)
      .addError(MessageNotFoundResponse)
      .addError(CuratedLimitReachedResponse)
  )
  .add(
    HttpApiEndpoint.get("unanswered")`/assistants/${assistantPath}/unanswered`
      .annotate(OpenApi.Summary, "The questions nobody answered")
      .annotate(
        OpenApi.Description,
        "Questions declined, answered degraded or with weak retrieval, or rated down, grouped by similarity; " +
          "most asked first. `from`/`to` default to the last 30 days."
      )
      .setUrlParams(ReportQuery)
      .addSuccess(success(ListOf(UnansweredGroup), { identifier: "UnansweredReportResponse" }))
      .addError(AssistantNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.post("groupToCurated")`/assistants/${assistantPath}/unanswered/${groupPath}/curated`
      .annotate(OpenApi.Summary, "Answer a group of unanswered questions")
      .annotate(OpenApi.Description, "Creates a curated answer whose question variants are the group's phrasings.")
      .setPayload(CuratedFromQuestion)
      .addSuccess(success(CuratedAnswer, { identifier: "CuratedFromGroupResponse", status: 201 }))
      .addError(AssistantNotFoundResponse)
      .addError(GroupNotFoundResponse)
      .addError(CuratedLimitReachedResponse)
  )
  .middleware(ApiKeyAuth)
  .prefix("/v1")
  .annotate(OpenApi.Description, "What customers asked, how it went, and what was left unanswered.")
{}

export const AdminConversationListQuery = Schema.Struct({
  limit: Schema.optional(Constraint.intParam(1, 200)),
  cursor: Schema.optional(Constraint.text({ max: 500 })),
  accountId: Schema.optional(Constraint.text({ min: 1, max: 64 })),
  assistantId: Schema.optional(Constraint.text({ min: 1, max: 64 })),
  ...conversationFilters
}).annotations({ parseOptions: { errors: "all" } })
export type AdminConversationListQuery = typeof AdminConversationListQuery.Type

export const AdminConversationSummary = Schema.Struct({
  ...ConversationSummary.fields,
  accountId: Schema.String
}).annotations({ identifier: "AdminConversationSummary" })

export const AdminConversationPage = Schema.Struct({
  list: Schema.Array(AdminConversationSummary),
  nextCursor: Schema.NullOr(Schema.String)
}).annotations({ identifier: "AdminConversationPage" })

export const Retention = Schema.Struct({
  days: Schema.NullOr(Constraint.intBetween(1, 36500)).annotations({
    description: "Conversations older than this many days are deleted; null keeps them"
  })
}).annotations({ identifier: "ConversationRetention", parseOptions: { errors: "all" }, examples: [{ days: 90 }] })

export class RetentionAccountNotFound extends Schema.TaggedError<RetentionAccountNotFound>()(
  "RetentionAccountNotFound",
  errorFields
) {}
export const RetentionAccountNotFoundResponse = failure(RetentionAccountNotFound, {
  status: 404,
  code: "accounts.not_found"
})

const adminConversationPath = HttpApiSchema.param("conversationId", Constraint.text({ min: 1, max: 64 }))
const retentionAccountPath = HttpApiSchema.param("accountId", Schema.String)
const RetentionResponse = success(Retention, { identifier: "RetentionResponse" })

/** The operator's view of conversations across accounts, and each account's retention. */
export class AdminConversationsApi extends HttpApiGroup.make("adminConversations")
  .annotate(OpenApi.Title, "Admin: conversations")
  .add(
    HttpApiEndpoint.get("list", "/conversations")
      .annotate(OpenApi.Summary, "List conversations of every account")
      .setUrlParams(AdminConversationListQuery)
      .addSuccess(success(AdminConversationPage, { identifier: "AdminConversationPageResponse" }))
      .addError(InvalidCursorResponse)
  )
  .add(
    HttpApiEndpoint.get("get")`/conversations/${adminConversationPath}`
      .annotate(OpenApi.Summary, "Get a conversation")
      .addSuccess(success(Conversation, { identifier: "AdminConversationResponse" }))
      .addError(ConversationNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.del("delete")`/conversations/${adminConversationPath}`
      .annotate(OpenApi.Summary, "Delete a conversation")
      .addSuccess(success(Schema.Null, { identifier: "AdminConversationDeletedResponse" }))
      .addError(ConversationNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.get("getRetention")`/accounts/${retentionAccountPath}/retention`
      .annotate(OpenApi.Summary, "Read how long an account's conversations are kept")
      .addSuccess(RetentionResponse)
      .addError(RetentionAccountNotFoundResponse)
  )
  .add(
    HttpApiEndpoint.put("setRetention")`/accounts/${retentionAccountPath}/retention`
      .annotate(OpenApi.Summary, "Set how long an account's conversations are kept")
      .setPayload(Retention)
      .addSuccess(RetentionResponse)
      .addError(RetentionAccountNotFoundResponse)
  )
  .middleware(AdminAuth)
  .prefix("/admin/v1")
  .annotate(OpenApi.Description, "Operator API: conversations across accounts, retention. Bearer operator token.")
{}
