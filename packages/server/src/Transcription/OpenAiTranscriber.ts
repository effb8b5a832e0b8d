/**
 * Speech to text through any OpenAI-compatible `POST {baseUrl}/audio/transcriptions`
 * (OpenAI, Groq, faster-whisper-server, LocalAI…): a multipart body with the
 * audio `file` and the `model`, answered by `{"text": "…"}`. Retries 408, 429,
 * 5xx and network failures with jittered exponential backoff.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { randomBytes } from "node:crypto"
import { type TranscriberShape, TranscriptionError } from "./Transcriber"

export interface OpenAiTranscriberOptions {
  /** Up to and including the version segment, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string
  readonly model: string
  readonly apiKey: Option.Option<Redacted.Redacted>
  readonly timeout?: Duration.DurationInput
  /** First delay of the retry backoff (doubling, at most 4 retries). */
  readonly retryDelay?: Duration.DurationInput
}

const TranscriptionResponse = Schema.Struct({ text: Schema.String })

interface Part {
  readonly name: string
  readonly value: string | Uint8Array
  readonly filename?: string
  readonly contentType?: string
}

/**
 * A `multipart/form-data` body written out (the global `FormData` of Node 20
 * does not travel through the undici 7 client the platform uses).
 */
const multipartBody = (boundary: string, parts: ReadonlyArray<Part>): Uint8Array => {
  const quoted = (text: string) => text.replace(/["\r\n]/g, "_")
  const pieces = parts.flatMap((part) => {
    const disposition = `form-data; name="${part.name}"${
      part.filename === undefined ? "" : `; filename="${quoted(part.filename)}"`
    }`
    const type = part.contentType === undefined ? "" : `Content-Type: ${part.contentType}\r\n`
    return [
      Buffer.from(`--${boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`),
      typeof part.value === "string" ? Buffer.from(part.value) : part.value,
      Buffer.from("\r\n")
    ]
  })
  return Buffer.concat([...pieces, Buffer.from(`--${boundary}--\r\n`)])
}

const isTransientStatus = (status: number) => status === 408 || status === 429 || status >= 500

export const make = (options: OpenAiTranscriberOptions) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const url = `${options.baseUrl.replace(/\/+$/, "")}/audio/transcriptions`
    const retryPolicy = Schedule.exponential(options.retryDelay ?? "1 second", 2).pipe(
      Schedule.jittered,
      Schedule.intersect(Schedule.recurs(4))
    )

    const attempt = (audio: Parameters<TranscriberShape["transcribe"]>[0]) =>
      Effect.gen(function*() {
        const boundary = `dastyar-${randomBytes(12).toString("hex")}`
        let request = HttpClientRequest.post(url).pipe(
          HttpClientRequest.acceptJson,
          HttpClientRequest.bodyUint8Array(
            multipartBody(boundary, [
              { name: "file", filename: audio.filename, contentType: audio.mimeType, value: audio.bytes },
              { name: "model", value: options.model },
              { name: "response_format", value: "json" }
            ]),
            `multipart/form-data; boundary=${boundary}`
          )
        )
        if (Option.isSome(options.apiKey)) {
          request = HttpClientRequest.bearerToken(request, Redacted.value(options.apiKey.value))
        }
        const response = yield* client.execute(request)
        if (response.status !== 200) {
          const body = yield* response.text.pipe(Effect.orElseSucceed(() => ""))
          return yield* new TranscriptionError({
            reason: "failed",
            message: `transcription provider answered ${response.status}: ${body.slice(0, 200)}`,
            transient: isTransientStatus(response.status)
          })
        }
        const decoded = yield* response.json.pipe(Effect.flatMap(Schema.decodeUnknown(TranscriptionResponse)))
        return { text: decoded.text }
      }).pipe(
        Effect.scoped,
        Effect.timeoutFail({
          duration: options.timeout ?? "5 minutes",
          onTimeout: () =>
            new TranscriptionError({ reason: "failed", message: "transcription provider timed out", transient: true })
        }),
        Effect.catchTags({
          RequestError: (error) =>
            Effect.fail(
              new TranscriptionError({
                reason: "failed",
                message: `transcription provider unreachable: ${error.message}`,
                transient: true
              })
            ),
          ResponseError: (error) =>
            Effect.fail(
              new TranscriptionError({
                reason: "failed",
                message: `transcription response unreadable: ${error.message}`,
                transient: true
              })
            ),
          ParseError: () =>
            Effect.fail(
              new TranscriptionError({
                reason: "failed",
                message: "transcription provider sent an unexpected body",
                transient: false
              })
            )
        })
      )

    const transcribe: TranscriberShape["transcribe"] = Effect.fn("Transcriber.transcribe")(function*(audio) {
      return yield* attempt(audio).pipe(Effect.retry({ schedule: retryPolicy, while: (error) => error.transient }))
    })
    return { transcribe } satisfies TranscriberShape
  })
