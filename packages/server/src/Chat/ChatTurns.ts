/**
 * One chat turn, whoever asks: the public HTTP route (`Chat/Http.ts`) and the
 * messenger channels both go through this service, so they share validation,
 * conversations, retrieval, tools, fallback, the cost ledger and the errors.
 *
 * Flow of a turn: check the assistant (owned, active, model runnable) and the
 * quota → open or continue the conversation (scoped to account + assistant +
 * principal) → voice notes to text → retrieve chunks above the relevance floor
 * → the model answers (product-search tool on when the assistant has it) →
 * persist both messages and the ledger entry → reply.
 */
import type { Chat, Conversations } from "@dastyar/domain"
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Stream from "effect/Stream"

/** A voice note or image as bytes: the HTTP route decodes base64, channels pass the file they downloaded. */
export interface TurnAttachment {
  readonly kind: Chat.AttachmentKind
  readonly bytes: Uint8Array
  /** A hint only; the kind of file is judged from its bytes. */
  readonly mimeType?: string | undefined
  readonly filename?: string | undefined
}

export interface TurnInput {
  readonly accountId: string
  /** The assistant code; an assistant of another account is `ChatAssistantNotFound`. */
  readonly assistantId: string
  /** The caller's end user (channels: e.g. `telegram:<chat id>`); conversations never cross principals. */
  readonly principal: string
  /** The user's text; may be empty when a voice note carries the message. */
  readonly message: string
  /** Continue this conversation; unknown or someone else's is `ConversationNotFound`. */
  readonly conversationId?: string | undefined
  readonly attachments?: ReadonlyArray<TurnAttachment> | undefined
  /** Where the message came from, for the conversation log (default `api`). */
  readonly channel?: Conversations.Channel | undefined
}

/** A streamed turn: text deltas as the model writes, then the same reply the non-streaming call returns. */
export type TurnEvent =
  | { readonly _tag: "Delta"; readonly text: string }
  | { readonly _tag: "Done"; readonly reply: Chat.ChatReply }

/** A stored message as a client shows it again (e.g. the website widget after a reload). */
export interface TranscriptMessage {
  readonly id: string
  readonly role: "user" | "assistant"
  readonly text: string
  readonly sources: ReadonlyArray<Chat.Source>
}

export interface TranscriptOwner {
  readonly accountId: string
  readonly assistantId: string
  readonly principal: string
}

export interface ChatTurnsShape {
  /** Answers one message. Provider trouble never fails the turn: it falls back (`degraded: true`). */
  readonly reply: (input: TurnInput) => Effect.Effect<Chat.ChatReply, Chat.ChatTurnError>
  /**
   * The same turn, streamed. Every named error is raised before the stream is
   * returned, so a caller can still answer it as a normal error; the stream itself does not fail.
   */
  readonly replyStream: (
    input: TurnInput
  ) => Effect.Effect<Stream.Stream<TurnEvent>, Chat.ChatTurnError>
  /** The conversation's messages, oldest first; none when it is not this owner's (or is gone). */
  readonly transcript: (
    owner: TranscriptOwner,
    conversationId: string
  ) => Effect.Effect<ReadonlyArray<TranscriptMessage>>
}

export class ChatTurns extends Context.Tag("ChatTurns")<ChatTurns, ChatTurnsShape>() {}
