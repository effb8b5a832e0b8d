/**
 * The promise client's chat: one answer (`chat`), the same answer as it is
 * written (`chatStream`, an async iterator of `delta` then `done` events), and
 * a conversation that remembers its `conversationId` between turns.
 */
import { chatEvents, type ChatReply, type ChatStreamEvent } from "./ChatEvents"
import { DastyarApiError } from "./DastyarApiError"
import type { components } from "./generated/openapi"
import type { RawClient } from "./RawClient"
import { unwrap } from "./Unwrap"

export type ChatRequest = Omit<components["schemas"]["ChatRequest"], "stream">
export type ChatAttachment = components["schemas"]["ChatAttachment"]
export type { ChatReply, ChatStreamEvent }

/** What a conversation's turn may add to the message: attachments. */
export type TurnOptions = Omit<ChatRequest, "principal" | "message" | "conversationId">

export interface Conversation {
  /** Undefined until the first answer names it. */
  readonly id: string | undefined
  readonly send: (message: string, options?: TurnOptions) => Promise<ChatReply>
  readonly stream: (message: string, options?: TurnOptions) => AsyncGenerator<ChatStreamEvent>
}

export interface ChatMethods {
  /** One turn. Continue a conversation with `conversationId` from an earlier reply. */
  readonly chat: (assistantCode: string, request: ChatRequest) => Promise<ChatReply>
  /**
   * One turn, streamed: `{type: "delta", text}` events as the answer is written,
   * then one `{type: "done", reply}` with the same reply `chat` returns.
   * Errors the server finds before answering (404, 402, 409, 503…) are thrown
   * as `DastyarApiError` by the first `next()`.
   */
  readonly chatStream: (assistantCode: string, request: ChatRequest) => AsyncGenerator<ChatStreamEvent>
  /** A conversation of one end user (`principal`) that keeps its `conversationId`. */
  readonly conversation: (
    assistantCode: string,
    principal: string,
    options?: { readonly conversationId?: string | undefined }
  ) => Conversation
}

export const makeChatMethods = (raw: RawClient): ChatMethods => {
  const path = (assistantCode: string) => ({ params: { path: { assistantCode } } })

  const chat: ChatMethods["chat"] = (assistantCode, request) =>
    unwrap(raw.POST("/v1/assistants/{assistantCode}/chat", { ...path(assistantCode), body: request }))

  async function* chatStream(assistantCode: string, request: ChatRequest): AsyncGenerator<ChatStreamEvent> {
    const result = await raw.POST("/v1/assistants/{assistantCode}/chat", {
      ...path(assistantCode),
      body: { ...request, stream: true },
      parseAs: "stream"
    })
    if (!result.response.ok || result.data === undefined || result.data === null) {
      throw DastyarApiError.fromResponse(result.response, result.error)
    }
    yield* chatEvents(result.data)
  }

  const conversation: ChatMethods["conversation"] = (assistantCode, principal, options = {}) => {
    let id = options.conversationId
    const request = (message: string, extra: TurnOptions): ChatRequest => ({
      ...extra,
      principal,
      message,
      ...(id === undefined ? {} : { conversationId: id })
    })
    return {
      get id() {
        return id
      },
      send: async (message, extra = {}) => {
        const reply = await chat(assistantCode, request(message, extra))
        id = reply.conversationId
        return reply
      },
      stream: async function*(message, extra = {}) {
        for await (const event of chatStream(assistantCode, request(message, extra))) {
          if (event.type === "done") id = event.reply.conversationId
          yield event
        }
      }
    }
  }

  return { chat, chatStream, conversation }
}
