/**
 * The HTTP client for calls the service makes to upstreams (embeddings, chat
 * models, transcription, messenger APIs). Provided to those services only, so
 * it never replaces the client a test aims at the service itself.
 *
 * The platform's client span records the full URL (`url.full`). A URL that
 * carries a credential (a bot token in the path) gets no such span: a span with
 * the URL redacted (`Redaction.redactUrl`) stands in for it.
 */
import { HttpClient } from "@effect/platform"
import { NodeHttpClient } from "@effect/platform-node"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { hasCredential, redactUrl } from "./Redaction"

const redactingUrls = <E, R>(client: HttpClient.HttpClient.With<E, R>) =>
  client.pipe(
    HttpClient.withTracerDisabledWhen((request) => hasCredential(request.url)),
    HttpClient.transform((response, request) =>
      hasCredential(request.url)
        ? Effect.withSpan(response, `http.client ${request.method}`, {
          kind: "client",
          captureStackTrace: false,
          attributes: { "http.request.method": request.method, "url.full": redactUrl(request.url) }
        })
        : response
    )
  )

export const layer = Layer.effect(HttpClient.HttpClient, Effect.map(HttpClient.HttpClient, redactingUrls)).pipe(
  Layer.provide(NodeHttpClient.layerUndici)
)
