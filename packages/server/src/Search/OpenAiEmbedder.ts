/**
 * Embeddings from any OpenAI-compatible `POST {baseUrl}/embeddings` (OpenAI,
 * Ollama, vLLM, TEI, LiteLLM…). Batches inputs, retries 429, 5xx and network
 * failures with jittered exponential backoff, and L2-normalises what comes back
 * (not every server does).
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { EmbedderError, type EmbedderShape } from "./Embedder"

export interface OpenAiEmbedderOptions {
  /** Up to and including the version segment, e.g. `https://api.openai.com/v1`. */
  readonly baseUrl: string
  readonly model: string
  readonly apiKey: Option.Option<Redacted.Redacted>
  /** Sent as `dimensions` (models that can shorten their vectors); otherwise the model's own size. */
  readonly dimensions: Option.Option<number>
  readonly batchSize: number
  readonly timeout?: Duration.DurationInput
}

const EmbeddingsResponse = Schema.Struct({
  data: Schema.Array(Schema.Struct({ index: Schema.Int, embedding: Schema.Array(Schema.Number) })),
  usage: Schema.optional(
    Schema.Struct({ prompt_tokens: Schema.optional(Schema.Number), total_tokens: Schema.optional(Schema.Number) })
  )
})

const unitLength = (vector: ReadonlyArray<number>): ReadonlyArray<number> => {
  const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0))
  return norm === 0 ? vector : vector.map((x) => x / norm)
}

const isTransientStatus = (status: number) => status === 408 || status === 429 || status >= 500

export const make = (options: OpenAiEmbedderOptions) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const url = `${options.baseUrl.replace(/\/+$/, "")}/embeddings`
    const retryPolicy = Schedule.exponential("500 millis", 2).pipe(
      Schedule.jittered,
      Schedule.intersect(Schedule.recurs(5))
    )

    const embedBatch = (texts: ReadonlyArray<string>) =>
      Effect.gen(function*() {
        let request = HttpClientRequest.post(url).pipe(HttpClientRequest.acceptJson)
        if (Option.isSome(options.apiKey)) {
          request = HttpClientRequest.bearerToken(request, Redacted.value(options.apiKey.value))
        }
        request = yield* HttpClientRequest.bodyJson(request, {
          model: options.model,
          input: texts,
          encoding_format: "float",
          ...Option.match(options.dimensions, { onNone: () => ({}), onSome: (dimensions) => ({ dimensions }) })
        })
        const response = yield* client.execute(request)
        if (response.status !== 200) {
          const body = yield* response.text.pipe(Effect.orElseSucceed(() => ""))
          return yield* new EmbedderError({
            message: `embeddings provider answered ${response.status}: ${body.slice(0, 200)}`,
            transient: isTransientStatus(response.status)
          })
        }
        const decoded = yield* response.json.pipe(Effect.flatMap(Schema.decodeUnknown(EmbeddingsResponse)))
        if (decoded.data.length !== texts.length) {
          return yield* new EmbedderError({
            message: "embeddings provider returned the wrong number of vectors",
            transient: false
          })
        }
        const ordered = [...decoded.data].sort((a, b) => a.index - b.index).map((item) => unitLength(item.embedding))
        return { vectors: ordered, tokens: decoded.usage?.prompt_tokens ?? decoded.usage?.total_tokens ?? 0 }
      }).pipe(
        Effect.scoped,
        Effect.timeoutFail({
          duration: options.timeout ?? "30 seconds",
          onTimeout: () => new EmbedderError({ message: "embeddings provider timed out", transient: true })
        }),
        Effect.catchTags({
          RequestError: (error) =>
            Effect.fail(
              new EmbedderError({ message: `embeddings provider unreachable: ${error.message}`, transient: true })
            ),
          ResponseError: (error) =>
            Effect.fail(
              new EmbedderError({
                message: `embeddings provider response unreadable: ${error.message}`,
                transient: true
              })
            ),
          ParseError: () =>
            Effect.fail(
              new EmbedderError({ message: "embeddings provider sent an unexpected body", transient: false })
            ),
          HttpBodyError: () =>
            Effect.fail(new EmbedderError({ message: "embeddings request could not be encoded", transient: false }))
        }),
        Effect.retry({ schedule: retryPolicy, while: (error) => error.transient })
      )

    const embed: EmbedderShape["embed"] = Effect.fn("Embedder.embed")(function*(texts) {
      const batches: Array<ReadonlyArray<string>> = []
      for (let i = 0; i < texts.length; i += options.batchSize) batches.push(texts.slice(i, i + options.batchSize))
      const results = yield* Effect.forEach(batches, embedBatch, { concurrency: 2 })
      return {
        vectors: results.flatMap((result) => result.vectors),
        tokens: results.reduce((sum, result) => sum + result.tokens, 0)
      }
    })

    const dimensionsPart = Option.match(options.dimensions, { onNone: () => "", onSome: (n) => `:${n}` })
    return { modelId: `openai-compatible:${options.model}${dimensionsPart}`, embed } satisfies EmbedderShape
  })
