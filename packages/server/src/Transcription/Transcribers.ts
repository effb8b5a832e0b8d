/**
 * The configured `Transcriber`: the OpenAI-compatible provider when
 * `DASTYAR_TRANSCRIPTION_BASE_URL` is set; otherwise every call fails with
 * `not_configured` (audio jobs end `failed` with `transcription_not_configured`).
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { AppConfig } from "../Config"
import * as Outbound from "../Platform/Outbound"
import * as OpenAiTranscriber from "./OpenAiTranscriber"
import { Transcriber, TranscriptionError } from "./Transcriber"

const notConfigured = Transcriber.of({
  transcribe: () =>
    Effect.fail(
      new TranscriptionError({
        reason: "not_configured",
        message: "no transcription provider is configured (DASTYAR_TRANSCRIPTION_BASE_URL)",
        transient: false
      })
    )
})

export const layer = Layer.effect(
  Transcriber,
  Effect.gen(function*() {
    const { transcription } = yield* AppConfig
    return yield* Option.match(transcription.baseUrl, {
      onNone: () => Effect.succeed(notConfigured),
      onSome: (baseUrl) => OpenAiTranscriber.make({ ...transcription, baseUrl })
    })
  })
).pipe(Layer.provide(Outbound.layer))
