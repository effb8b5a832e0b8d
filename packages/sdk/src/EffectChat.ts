/**
 * A streamed chat turn for the Effect face. The `HttpApiClient` decodes whole
 * JSON answers only, so the streamed turn goes through a plain `HttpClient`
 * (already aimed at the server, with the API key): the refusals the route
 * declares come back as the domain's tagged errors, the answer as the
 * domain's `ChatStreamEvent`s (deltas, then `done` with the decoded reply).
 */
import { Chat, Errors } from "@dastyar/domain"
import { type HttpClient, HttpClientRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { chatEventsOf } from "./ChatEvents"

/** Every error the chat route may answer before it starts streaming. */
export const RefusedTurn = Schema.Union(
  Chat.ChatAssistantNotFoundResponse,
  Chat.ConversationNotFoundResponse,
  Chat.AssistantNotActiveResponse,
  Chat.ModelUnavailableResponse,
  Chat.VoiceDisabledResponse,
  Chat.AttachmentInvalidResponse,
  Chat.TranscriptionUnavailableResponse,
  Chat.QuotaExhaustedResponse,
  Errors.ValidationFailedResponse,
  Errors.InvalidApiKeyResponse,
  Errors.TooManyRequestsResponse,
  Errors.PayloadTooLargeResponse,
  Errors.InternalErrorResponse
)

export type StreamTurnRequest = Omit<typeof Chat.ChatRequest.Encoded, "stream">

/** One turn, streamed; the request is sent when the stream is run. */
export const streamChat = (http: HttpClient.HttpClient, assistantCode: string, request: StreamTurnRequest) =>
  Effect.gen(function*() {
    const post = yield* HttpClientRequest.post(`/v1/assistants/${encodeURIComponent(assistantCode)}/chat`).pipe(
      HttpClientRequest.bodyJson({ ...request, stream: true })
    )
    const response = yield* http.execute(post)
    if (response.status !== 200) {
      return yield* Effect.flatMap(response.json, Schema.decodeUnknown(RefusedTurn)).pipe(Effect.flatMap(Effect.fail))
    }
    return chatEventsOf(Chat.ChatStreamEvent, response.stream)
  }).pipe(Stream.unwrapScoped)
