/**
 * A chat model behind any server that speaks OpenAI's chat completions
 * (`POST {baseUrl}/chat/completions`): OpenAI, OpenRouter, vLLM, Ollama,
 * llama.cpp's server, LiteLLM and the like. Function calling (the product
 * search tool), `reasoning_effort`, streaming (SSE chunks with
 * `stream_options.include_usage`), a per-request timeout (between chunks
 * when streaming) and retries with backoff on 408/429/5xx, timeouts and
 * network failures.
 *
 * Written over @effect/platform's HttpClient rather than @effect/ai-openai:
 * that package targets OpenAI's Responses API, which Ollama, vLLM and
 * llama.cpp do not all speak, while chat completions is what they share.
 */
import type { Products } from "@dastyar/domain"
import * as Sse from "@effect/experimental/Sse"
import { HttpClient, HttpClientRequest, type HttpClientResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import {
  ChatModelError,
  type ChatModelShape,
  type ModelAnswer,
  type ModelEvent,
  type ModelMessage,
  type ModelRequest,
  type Tool,
  type Usage
} from "./ChatModel"
import { estimateTokens } from "./Tokens"

export interface OpenAiCompatibleOptions {
  readonly baseUrl: string
  readonly apiKey: Option.Option<Redacted.Redacted>
  readonly upstreamModel: string
  readonly timeoutMs: number
  readonly maxRetries: number
  readonly maxTokensParameter: "max_tokens" | "max_completion_tokens"
  readonly vision: boolean
  /** `detail` of image parts (the assistant's `imageDetail`). */
  readonly imageDetail?: "low" | "high" | "auto" | undefined
}

/** Tool rounds per turn; the last round offers no tools, so the model has to answer. */
const maxToolRounds = 4

const ToolCall = Schema.Struct({
  id: Schema.String,
  function: Schema.Struct({ name: Schema.String, arguments: Schema.String })
})
type ToolCall = typeof ToolCall.Type

const WireUsage = Schema.Struct({ prompt_tokens: Schema.Number, completion_tokens: Schema.Number })

const Completion = Schema.Struct({
  choices: Schema.NonEmptyArray(Schema.Struct({
    message: Schema.Struct({
      content: Schema.optional(Schema.NullOr(Schema.String)),
      tool_calls: Schema.optional(Schema.NullOr(Schema.Array(ToolCall)))
    })
  })),
  usage: Schema.optional(Schema.NullOr(WireUsage))
})

const CompletionChunk = Schema.Struct({
  choices: Schema.Array(Schema.Struct({
    delta: Schema.optional(Schema.NullOr(Schema.Struct({
      content: Schema.optional(Schema.NullOr(Schema.String)),
      tool_calls: Schema.optional(Schema.NullOr(Schema.Array(Schema.Struct({
        index: Schema.Number,
        id: Schema.optional(Schema.NullOr(Schema.String)),
        function: Schema.optional(Schema.NullOr(Schema.Struct({
          name: Schema.optional(Schema.NullOr(Schema.String)),
          arguments: Schema.optional(Schema.NullOr(Schema.String))
        })))
      }))))
    })))
  })),
  usage: Schema.optional(Schema.NullOr(WireUsage))
})
const decodeChunk = Schema.decodeUnknown(Schema.parseJson(CompletionChunk))

type WireMessage =
  | { readonly role: "system" | "user" | "assistant"; readonly content: string }
  | { readonly role: "user"; readonly content: ReadonlyArray<Readonly<Record<string, unknown>>> }
  | {
    readonly role: "assistant"
    readonly content: string | null
    readonly tool_calls: ReadonlyArray<{ id: string; type: "function"; function: ToolCall["function"] }>
  }
  | { readonly role: "tool"; readonly tool_call_id: string; readonly content: string }

const isRetryable = (error: ChatModelError) => error.reason !== "rejected" && error.reason !== "bad_response"

const statusError = (status: number, body: string) =>
  new ChatModelError({
    reason: status === 429 ? "rate_limited" : status === 408 ? "timeout" : status >= 500 ? "server_error" : "rejected",
    message: `provider answered ${status}: ${body.slice(0, 200)}`
  })

/** What a finished round leaves: its text, the tool calls it asked for and what it cost. */
interface Round {
  readonly text: string
  readonly toolCalls: ReadonlyArray<ToolCall>
  readonly usage: Usage
}

/** A streamed round as its chunks arrive: tool calls come in pieces, keyed by their index. */
interface RoundState {
  text: string
  usage: Usage | undefined
  readonly calls: Map<number, { readonly id: string; readonly name: string; readonly arguments: string }>
}

const addUsage = (a: Usage, b: Usage): Usage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens
})

export const make = (options: OpenAiCompatibleOptions) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const url = `${options.baseUrl.replace(/\/+$/, "")}/chat/completions`
    const retryPolicy = Schedule.exponential("300 millis", 2).pipe(
      Schedule.jittered,
      Schedule.intersect(Schedule.recurs(options.maxRetries))
    )
    const timedOut = () =>
      new ChatModelError({ reason: "timeout", message: `provider did not answer within ${options.timeoutMs} ms` })

    const toWire = (message: ModelMessage): WireMessage => {
      if (message.role !== "user" || !options.vision || message.images === undefined || message.images.length === 0) {
        return { role: message.role, content: message.content }
      }
      const detail = options.imageDetail === undefined ? {} : { detail: options.imageDetail }
      return {
        role: "user",
        content: [
          { type: "text", text: message.content },
          ...message.images.map((image) => ({ type: "image_url", image_url: { url: image, ...detail } }))
        ]
      }
    }

    const body = (request: ModelRequest, messages: ReadonlyArray<WireMessage>, round: number, stream: boolean) => {
      const offerTools = request.tools.length > 0 && round < maxToolRounds - 1
      return {
        model: options.upstreamModel,
        messages,
        [options.maxTokensParameter]: request.maxOutputTokens,
        ...(request.reasoning === "none" ? {} : { reasoning_effort: request.reasoning }),
        ...(offerTools
          ? {
            tools: request.tools.map((tool) => ({
              type: "function",
              function: { name: tool.name, description: tool.description, parameters: tool.parameters }
            })),
            tool_choice: "auto"
          }
          : {}),
        ...(stream ? { stream: true, stream_options: { include_usage: true } } : { stream: false })
      }
    }

    /** Sends one request and returns a 200 response; other statuses, timeouts and network failures are errors. */
    const open = (payload: Readonly<Record<string, unknown>>) =>
      Effect.gen(function*() {
        let request = HttpClientRequest.post(url).pipe(HttpClientRequest.acceptJson)
        if (Option.isSome(options.apiKey)) {
          request = HttpClientRequest.bearerToken(request, Redacted.value(options.apiKey.value))
        }
        request = yield* HttpClientRequest.bodyJson(request, payload).pipe(
          Effect.mapError(() => new ChatModelError({ reason: "rejected", message: "request could not be encoded" }))
        )
        const response = yield* client.execute(request).pipe(
          Effect.mapError((error) => new ChatModelError({ reason: "unreachable", message: error.message }))
        )
        if (response.status !== 200) {
          const text = yield* response.text.pipe(Effect.orElseSucceed(() => ""))
          return yield* statusError(response.status, text)
        }
        return response
      }).pipe(Effect.timeoutFail({ duration: options.timeoutMs, onTimeout: timedOut }))

    const estimatedUsage = (messages: ReadonlyArray<WireMessage>, text: string): Usage => ({
      promptTokens: estimateTokens(JSON.stringify(messages)),
      completionTokens: estimateTokens(text)
    })

    /** Runs the calls one round asked for; the messages to send next, and the products they found. */
    const runTools = (tools: ReadonlyArray<Tool>, round: Round) =>
      Effect.forEach(round.toolCalls, (call) => {
        const tool = tools.find((candidate) => candidate.name === call.function.name)
        if (tool === undefined) {
          return Effect.succeed({
            call,
            content: JSON.stringify({ error: `no tool named ${call.function.name}` }),
            products: []
          })
        }
        return Effect.try((): unknown => JSON.parse(call.function.arguments || "{}")).pipe(
          Effect.flatMap((args) => tool.run(args)),
          Effect.map((output) => ({ call, content: output.content, products: output.products })),
          Effect.orElseSucceed(() => ({
            call,
            content: JSON.stringify({ error: "arguments are not valid JSON" }),
            products: []
          }))
        )
      }).pipe(
        Effect.map((results) => ({
          messages: [
            {
              role: "assistant" as const,
              content: round.text.length > 0 ? round.text : null,
              tool_calls: round.toolCalls.map((call) => ({
                id: call.id,
                type: "function" as const,
                function: call.function
              }))
            },
            ...results.map((result) => ({
              role: "tool" as const,
              tool_call_id: result.call.id,
              content: result.content
            }))
          ] satisfies ReadonlyArray<WireMessage>,
          products: results.flatMap((result) => result.products)
        }))
      )

    const uniqueProducts = (products: ReadonlyArray<Products.Product>) =>
      products.filter((product, index) => products.findIndex((other) => other.id === product.id) === index)

    const completeOnce = (request: ModelRequest, messages: ReadonlyArray<WireMessage>, round: number) =>
      Effect.gen(function*() {
        const response = yield* open(body(request, messages, round, false))
        const completion = yield* response.json.pipe(
          Effect.flatMap(Schema.decodeUnknown(Completion)),
          Effect.timeoutFail({ duration: options.timeoutMs, onTimeout: timedOut }),
          Effect.catchTags({
            ResponseError: (error) =>
              Effect.fail(new ChatModelError({ reason: "unreachable", message: error.message })),
            ParseError: () =>
              Effect.fail(new ChatModelError({ reason: "bad_response", message: "unexpected completion body" }))
          })
        )
        const message = completion.choices[0].message
        const text = message.content ?? ""
        return {
          text,
          toolCalls: message.tool_calls ?? [],
          usage: completion.usage
            ? { promptTokens: completion.usage.prompt_tokens, completionTokens: completion.usage.completion_tokens }
            : estimatedUsage(messages, text)
        } satisfies Round
      }).pipe(Effect.scoped, Effect.retry({ schedule: retryPolicy, while: isRetryable }))

    const generate: ChatModelShape["generate"] = Effect.fn("ChatModel.generate")(function*(request) {
      let messages: ReadonlyArray<WireMessage> = request.messages.map(toWire)
      let usage: Usage = { promptTokens: 0, completionTokens: 0 }
      let products: ReadonlyArray<Products.Product> = []
      for (let round = 0;; round++) {
        const result = yield* completeOnce(request, messages, round)
        usage = addUsage(usage, result.usage)
        if (result.toolCalls.length === 0 || round >= maxToolRounds - 1) {
          return { text: result.text, usage, products: uniqueProducts(products) } satisfies ModelAnswer
        }
        const next = yield* runTools(request.tools, result)
        messages = [...messages, ...next.messages]
        products = [...products, ...next.products]
      }
    })

    /** One streamed round: text deltas out; tool calls and usage gathered into `state` as the chunks pass. */
    const streamRound = (
      request: ModelRequest,
      messages: ReadonlyArray<WireMessage>,
      round: number,
      state: RoundState
    ) =>
      Stream.unwrapScoped(
        open(body(request, messages, round, true)).pipe(
          Effect.retry({ schedule: retryPolicy, while: isRetryable }),
          Effect.map((response: HttpClientResponse.HttpClientResponse) =>
            response.stream.pipe(
              Stream.decodeText(),
              Stream.pipeThroughChannel(Sse.makeChannel()),
              Stream.timeoutFail(timedOut, options.timeoutMs),
              Stream.takeWhile((event) => event.data.trim() !== "[DONE]"),
              Stream.filter((event) => event.data.trim().length > 0),
              Stream.mapEffect((event) => decodeChunk(event.data)),
              Stream.mapConcat((chunk) => {
                if (chunk.usage) {
                  state.usage = {
                    promptTokens: chunk.usage.prompt_tokens,
                    completionTokens: chunk.usage.completion_tokens
                  }
                }
                const texts: Array<string> = []
                for (const choice of chunk.choices) {
                  const content = choice.delta?.content
                  if (content) {
                    state.text += content
                    texts.push(content)
                  }
                  for (const part of choice.delta?.tool_calls ?? []) {
                    const call = state.calls.get(part.index) ?? { id: "", name: "", arguments: "" }
                    state.calls.set(part.index, {
                      id: part.id ?? call.id,
                      name: call.name + (part.function?.name ?? ""),
                      arguments: call.arguments + (part.function?.arguments ?? "")
                    })
                  }
                }
                return texts
              }),
              Stream.map((text): ModelEvent => ({ _tag: "Delta", text })),
              Stream.catchTags({
                ResponseError: (error) =>
                  Stream.fail(new ChatModelError({ reason: "unreachable", message: error.message })),
                ParseError: () =>
                  Stream.fail(new ChatModelError({ reason: "bad_response", message: "unexpected stream chunk" }))
              })
            )
          )
        )
      )

    const streamFrom = (
      request: ModelRequest,
      messages: ReadonlyArray<WireMessage>,
      round: number,
      usage: Usage,
      products: ReadonlyArray<Products.Product>,
      written: string
    ): Stream.Stream<ModelEvent, ChatModelError> => {
      const state: RoundState = { text: "", usage: undefined, calls: new Map() }
      const next = Stream.unwrap(Effect.suspend((): Effect.Effect<Stream.Stream<ModelEvent, ChatModelError>> => {
        const total = addUsage(usage, state.usage ?? estimatedUsage(messages, state.text))
        const calls = [...state.calls.entries()].sort(([a], [b]) => a - b).map(([, call]): ToolCall => ({
          id: call.id,
          function: { name: call.name, arguments: call.arguments }
        }))
        const text = written + state.text
        if (calls.length === 0 || round >= maxToolRounds - 1) {
          const answer: ModelAnswer = { text, usage: total, products: uniqueProducts(products) }
          return Effect.succeed(Stream.succeed<ModelEvent>({ _tag: "Completed", answer }))
        }
        return Effect.map(
          runTools(request.tools, { text: state.text, toolCalls: calls, usage: total }),
          (result) =>
            streamFrom(
              request,
              [...messages, ...result.messages],
              round + 1,
              total,
              [...products, ...result.products],
              text
            )
        )
      }))
      return Stream.concat(streamRound(request, messages, round, state), next)
    }

    const stream: ChatModelShape["stream"] = (request) =>
      streamFrom(request, request.messages.map(toWire), 0, { promptTokens: 0, completionTokens: 0 }, [], "").pipe(
        Stream.withSpan("ChatModel.stream")
      )

    return { generate, stream } satisfies ChatModelShape
  })
