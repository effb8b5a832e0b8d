/**
 * What a chat model is to the rest of the service: given the conversation,
 * the retrieved passages and the tools, write an answer, in one piece or
 * streamed. Two implementations: `OpenAiCompatibleModel` (any server speaking
 * chat completions) and `OfflineModel` (built in, extractive, always there).
 */
import type { Models, Products } from "@dastyar/domain"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type * as Stream from "effect/Stream"
import type { AnswerLanguage } from "./Language"

export type ModelMessage =
  | { readonly role: "system"; readonly content: string }
  | {
    readonly role: "user"
    readonly content: string
    /** `data:` URLs of attached images, for models that read images. */
    readonly images?: ReadonlyArray<string> | undefined
  }
  | { readonly role: "assistant"; readonly content: string }

/** A retrieved chunk as the model sees it: `[n]` in the prompt, and the source it cites. */
export interface Passage {
  readonly n: number
  readonly path: string
  readonly text: string
}

export interface ToolOutput {
  /** What the model reads back (JSON text). */
  readonly content: string
  /** Products the call returned, so the turn can show them as `data.products`. */
  readonly products: ReadonlyArray<Products.Product>
}

/** A function the model may call; its `run` never fails (problems become text the model reads). */
export interface Tool {
  readonly name: string
  readonly description: string
  /** JSON Schema of the arguments object. */
  readonly parameters: Readonly<Record<string, unknown>>
  readonly run: (args: unknown) => Effect.Effect<ToolOutput>
}

export interface ModelRequest {
  /** System prompt first, then the bounded history, then the user's message. */
  readonly messages: ReadonlyArray<ModelMessage>
  readonly tools: ReadonlyArray<Tool>
  readonly maxOutputTokens: number
  /** The level to run at, already fitted to what the model supports. */
  readonly reasoning: Models.Reasoning
  /** The same turn in parts, for the offline model, which composes rather than reads a prompt. */
  readonly grounding: {
    readonly question: string
    /** The question before it, when this one follows up on it ("And to another province?"). */
    readonly previousQuestion?: string | undefined
    readonly language: AnswerLanguage
    readonly passages: ReadonlyArray<Passage>
    readonly assistantName: string
    readonly imagesAttached: number
  }
}

export interface Usage {
  readonly promptTokens: number
  readonly completionTokens: number
}

export interface ModelAnswer {
  readonly text: string
  readonly usage: Usage
  /** Products the answer shows: every product a tool call returned (offline: the ones it lists). */
  readonly products: ReadonlyArray<Products.Product>
  /** The answer says it does not know (offline: nothing retrieved bears on the question): it cites no sources. */
  readonly declined?: boolean | undefined
}

export type ModelEvent =
  | { readonly _tag: "Delta"; readonly text: string }
  | { readonly _tag: "Completed"; readonly answer: ModelAnswer }

export class ChatModelError extends Schema.TaggedError<ChatModelError>()("ChatModelError", {
  /** Logged with the fallback; not shown to clients. */
  reason: Schema.Literal("timeout", "unreachable", "rate_limited", "server_error", "rejected", "bad_response"),
  message: Schema.String
}) {}

export interface ChatModelShape {
  readonly generate: (request: ModelRequest) => Effect.Effect<ModelAnswer, ChatModelError>
  /** Deltas as the text is written, then exactly one `Completed` with the whole answer. */
  readonly stream: (request: ModelRequest) => Stream.Stream<ModelEvent, ChatModelError>
}
