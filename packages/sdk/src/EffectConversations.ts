/**
 * The conversation export for the Effect face, as a byte stream. The
 * `HttpApiClient` reads a whole answer before it returns, so the export goes
 * through a plain `HttpClient` (already aimed at the server, with the API
 * key): the refusals the route declares come back as the domain's tagged
 * errors, the body as it arrives, never held whole.
 */
import { type Conversations, Errors } from "@dastyar/domain"
import { type HttpClient, HttpClientRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"

/** Every error the export route may answer before it starts streaming. */
export const RefusedExport = Schema.Union(
  Errors.AssistantNotFoundResponse,
  Errors.ValidationFailedResponse,
  Errors.InvalidApiKeyResponse,
  Errors.TooManyRequestsResponse,
  Errors.InternalErrorResponse
)

/** NDJSON or CSV of every matching conversation; the request is sent when the stream is run. */
export const exportConversations = (
  http: HttpClient.HttpClient,
  assistantCode: string,
  query: typeof Conversations.ExportQuery.Encoded
) =>
  Effect.gen(function*() {
    const request = HttpClientRequest.get(`/v1/assistants/${encodeURIComponent(assistantCode)}/conversations/export`)
      .pipe(HttpClientRequest.setUrlParams(query))
    const response = yield* http.execute(request)
    if (response.status !== 200) {
      return yield* Effect.flatMap(response.json, Schema.decodeUnknown(RefusedExport)).pipe(Effect.flatMap(Effect.fail))
    }
    return response.stream
  }).pipe(Stream.unwrapScoped)
