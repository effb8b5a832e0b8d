/**
 * Answers one Bot API update (Telegram, or Bale with its own profile): the
 * chat's message (or its voice note, when the assistant accepts voice) goes
 * through the chat pipeline as principal `<platform>:<chat id>`; the answer
 * comes back as messages in the platform's markup and limits, its products as
 * photos with a caption (or as text where the platform shows no photo by URL).
 * A refused bot token marks the connection dead; a chat that blocked the bot
 * only loses that answer.
 */
import { Chat, I18n } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as path from "node:path"
import { AssistantsRepo } from "../../Assistants/AssistantsRepo"
import { ConversationLog } from "../../Conversations/ConversationLog"
import * as Bale from "../Bale/Platform"
import type { BotPlatform } from "../BotPlatform"
import { ChannelChat } from "../ChannelChat"
import { Connections } from "../Connections"
import { ConnectionsRepo } from "../ConnectionsRepo"
import type { TelegramTask } from "../Inbox"
import { BotApi, type BotApiError } from "./BotApi"
import { feedbackKeyboard, parseFeedback } from "./FeedbackButtons"
import { productCaption, splitMessage } from "./Format"
import * as Telegram from "./Platform"

/** Products shown per answer; more would flood the chat. */
const maxProducts = 5

export class BotDriver extends Effect.Service<BotDriver>()("BotDriver", {
  effect: Effect.gen(function*() {
    const botApi = yield* BotApi
    const connections = yield* Connections
    const assistants = yield* AssistantsRepo
    const channelChat = yield* ChannelChat
    const conversations = yield* ConnectionsRepo
    const log = yield* ConversationLog

    const sendReply = (
      platform: BotPlatform,
      token: string,
      chatId: number,
      reply: Chat.ChatReply,
      locale: I18n.Locale
    ) =>
      Effect.gen(function*() {
        const parts = splitMessage(reply.text, platform.messageLimit, platform.markup)
        for (const [index, part] of parts.entries()) {
          // 👍/👎 under the answer's last part.
          const buttons = index === parts.length - 1 && reply.messageId !== undefined
            ? feedbackKeyboard(reply.messageId)
            : undefined
          yield* botApi.sendMessage(platform, token, chatId, part, buttons)
        }
        for (const product of reply.products.slice(0, maxProducts)) {
          const label = I18n.translate(locale, "channels.product_link")
          const caption = productCaption(product, label, platform.markup, platform.captionLimit)
          const asText = botApi.sendMessage(platform, token, chatId, caption)
          yield* product.imageUrl === null || !platform.productPhotos
            ? asText
            // The platform fetches the image itself; one it cannot fetch still leaves the product as text.
            : botApi.sendPhoto(platform, token, chatId, product.imageUrl, caption).pipe(
              Effect.catchIf((error) => error.status === 400, () => asText)
            )
        }
      })

    const failed = (platform: BotPlatform, code: string, chatId: number) => (error: BotApiError) =>
      error.unauthorized
        ? connections.markDead(code, `${platform.label} Bot API refused the token: ${error.description}`)
        : Effect.logWarning(
          error.status === 403
            ? `${platform.label} chat does not accept the bot's messages`
            : `${platform.label} answer not delivered`
        ).pipe(
          Effect.annotateLogs({
            connectionCode: code,
            chatId,
            method: error.method,
            status: error.status,
            reason: error.description
          })
        )

    /** A vote on an answer of the chat's own conversation; false when it is not one (or is gone). */
    const recordVote = (accountId: string, assistantId: string, code: string, principal: string, data: string) =>
      Effect.gen(function*() {
        const vote = parseFeedback(data)
        if (vote === undefined) return false
        const conversationId = yield* conversations.conversationOf(code, principal)
        if (conversationId === undefined) return false
        return yield* log.feedback({ accountId, assistantId }, conversationId, vote.messageId, { rating: vote.rating })
          .pipe(
            Effect.as(true),
            Effect.catchTags({
              ConversationLogNotFound: () => Effect.succeed(false),
              MessageNotFound: () => Effect.succeed(false)
            })
          )
      })

    return {
      handle: Effect.fn("BotDriver.handle")(function*(task: TelegramTask) {
        const platform = task.platform === "bale" ? Bale.platform : Telegram.platform
        yield* Effect.annotateCurrentSpan({ platform: platform.name })
        const found = yield* connections.findActive(platform.name, task.connectionCode)
        // Disabled, dead or deleted since the update came in: nothing to answer with.
        if (Option.isNone(found)) return
        const { row, secrets } = found.value
        if (secrets._tag !== "telegram" && secrets._tag !== "bale") return
        const token = secrets.botToken
        const assistant = yield* assistants.findById(row.assistantId)
        if (Option.isNone(assistant)) return
        const locale = I18n.negotiate(task.languageCode ?? assistant.value.language ?? undefined)
        const say = (key: I18n.MessageKey) =>
          botApi.sendMessage(platform, token, task.chatId, I18n.translate(locale, key))

        const callback = task.callback
        if (callback !== undefined) {
          const principal = `${platform.name}:${task.chatId}`
          const recorded = yield* recordVote(
            assistant.value.accountId,
            row.assistantId,
            row.code,
            principal,
            callback.data
          )
          const notice = I18n.translate(locale, recorded ? "channels.feedback_thanks" : "channels.feedback_gone")
          return yield* botApi.answerCallbackQuery(platform, token, callback.id, notice).pipe(
            Effect.catchTag("BotApiError", failed(platform, row.code, task.chatId))
          )
        }

        yield* Effect.gen(function*() {
          yield* botApi.sendChatAction(platform, token, task.chatId, "typing").pipe(Effect.ignore)
          const voice = task.voice
          if (voice !== null && !assistant.value.acceptVoice) return yield* say("channels.voice_refused")
          if (voice === null && (task.text === null || task.text.trim() === "")) {
            return yield* say("channels.unsupported_message")
          }
          if (voice !== null && voice.fileSize !== null && voice.fileSize > Chat.maxAttachmentBytes) {
            return yield* say("channels.unsupported_message")
          }
          const attachments = voice === null ? [] : [
            yield* botApi.downloadFile(platform, token, voice.fileId).pipe(
              Effect.map(({ bytes, filePath }) => ({
                kind: "voice" as const,
                bytes,
                mimeType: voice.mimeType ?? undefined,
                filename: path.basename(filePath)
              }))
            )
          ]
          const answer = yield* channelChat.answer({
            accountId: assistant.value.accountId,
            assistantId: row.assistantId,
            connectionCode: row.code,
            principal: `${platform.name}:${task.chatId}`,
            message: task.text ?? "",
            attachments
          })
          if (Either.isLeft(answer)) {
            yield* Effect.logInfo(`${platform.label} message not answered`).pipe(
              Effect.annotateLogs({ connectionCode: row.code, reason: answer.left.code })
            )
            return yield* say(answer.left.messageKey)
          }
          yield* sendReply(platform, token, task.chatId, answer.right, locale)
        }).pipe(Effect.catchTag("BotApiError", failed(platform, row.code, task.chatId)))
      })
    } as const
  }),
  dependencies: [
    BotApi.Default,
    Connections.Default,
    ConnectionsRepo.Default,
    AssistantsRepo.Default,
    ChannelChat.Default
  ]
}) {}
