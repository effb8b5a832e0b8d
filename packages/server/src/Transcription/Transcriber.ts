/**
 * Speech to text through an OpenAI-compatible `/audio/transcriptions`
 * endpoint, used by document ingest (audio files), chat (voice notes) and
 * messenger channels. The implementation lands with the knowledge base (issue 5).
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

export class TranscriptionError extends Schema.TaggedError<TranscriptionError>()("TranscriptionError", {
  /** `not_configured` when no endpoint is set; `failed` otherwise. */
  reason: Schema.Literal("not_configured", "failed"),
  message: Schema.String,
  transient: Schema.Boolean
}) {}

export interface TranscriberShape {
  readonly transcribe: (audio: {
    readonly bytes: Uint8Array
    readonly filename: string
    readonly mimeType: string
  }) => Effect.Effect<{ readonly text: string }, TranscriptionError>
}

export class Transcriber extends Context.Tag("Transcriber")<Transcriber, TranscriberShape>() {}
