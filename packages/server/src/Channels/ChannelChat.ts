/**
 * One answer for a messenger user: the chat pipeline with one conversation per
 * chat (its id kept per connection and chat), continued on every message and
 * started afresh when the old one is gone. Named chat failures come back as
 * values, with the text key the channel says instead.
 */
import { Chat, type Conversations, type I18n } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { ChatTurns, type TurnAttachment } from "../Chat/ChatTurns"
import { ConnectionsRepo } from "./ConnectionsRepo"

export interface ChannelTurn {
  readonly accountId: string
  readonly assistantId: string
  readonly connectionCode: string
  /** The chat within the connection (e.g. `telegram:<chat id>`): the principal and the conversation key. */
  readonly principal: string
  readonly message: string
  readonly attachments?: ReadonlyArray<TurnAttachment>
}

/** What the user is told when there is no answer, and the error's `response.code` for integrations. */
export interface NoAnswer {
  readonly messageKey: I18n.MessageKey
  readonly code: string
}

const noAnswer = (error: Chat.ChatTurnError): NoAnswer => {
  switch (error._tag) {
    case "VoiceDisabled":
      return { messageKey: "channels.voice_refused", code: "chat.voice_disabled" }
    case "AttachmentInvalid":
      return { messageKey: "channels.unsupported_message", code: "chat.attachment_invalid" }
    case "TranscriptionUnavailable":
      return { messageKey: "channels.unsupported_message", code: "chat.transcription_unavailable" }
    case "ChatAssistantNotFound":
      return { messageKey: "channels.reply_failed", code: "chat.assistant_not_found" }
    case "AssistantNotActive":
      return { messageKey: "channels.reply_failed", code: "chat.assistant_not_active" }
    case "ConversationNotFound":
      return { messageKey: "channels.reply_failed", code: "chat.conversation_not_found" }
    case "ModelUnavailable":
      return { messageKey: "channels.reply_failed", code: "chat.model_unavailable" }
    case "QuotaExhausted":
      return { messageKey: "channels.reply_failed", code: "chat.quota_exhausted" }
  }
}

/** The messenger a principal came through: channel principals start with it (`telegram:<chat id>`). */
const channelOf = (principal: string): Conversations.Channel => {
  const prefix = principal.slice(0, principal.indexOf(":"))
  return prefix === "telegram" || prefix === "bale" || prefix === "whatsapp" || prefix === "webhook" ? prefix : "api"
}

export class ChannelChat extends Effect.Service<ChannelChat>()("ChannelChat", {
  effect: Effect.gen(function*() {
    const turns = yield* ChatTurns
    const repo = yield* ConnectionsRepo

    const reply = (turn: ChannelTurn, conversationId: string | undefined) =>
      turns.reply({
        accountId: turn.accountId,
        assistantId: turn.assistantId,
        principal: turn.principal,
        message: turn.message,
        conversationId,
        attachments: turn.attachments,
        channel: channelOf(turn.principal)
      })

    return {
      answer: Effect.fn("ChannelChat.answer")(function*(turn: ChannelTurn) {
        const known = yield* repo.conversationOf(turn.connectionCode, turn.principal)
        const result = yield* reply(turn, known).pipe(
          // The stored conversation was removed (e.g. with its messages): start a new one.
          Effect.catchTag(
            "ConversationNotFound",
            (error) => known === undefined ? Effect.fail(error) : reply(turn, undefined)
          ),
          Effect.either
        )
        if (Either.isLeft(result)) return Either.left({ ...noAnswer(result.left), conversationId: known ?? null })
        if (result.right.conversationId !== known) {
          yield* repo.saveConversation(turn.connectionCode, turn.principal, result.right.conversationId)
        }
        return Either.right(result.right)
      })
    } as const
  }),
  dependencies: [ConnectionsRepo.Default]
}) {}
