/**
 * Answers one Telegram update: the chat's message (or its voice note, when the
 * assistant accepts voice) goes through the chat pipeline as principal
 * `telegram:<chat id>`; the answer comes back as messages, its products as
 * photos with a caption. A refused bot token marks the connection dead; a
 * chat that blocked the bot only loses that answer.
 */
import { Chat, I18n } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as path from "node:path"
import { AssistantsRepo } from "../../Assistants/AssistantsRepo"
import { ChannelChat } from "../ChannelChat"
import { Connections } from "../Connections"
import type { TelegramTask } from "../Inbox"
import { BotApi, type BotApiError } from "./BotApi"
import { productCaption, splitMessage } from "./Format"

/** Products shown per answer; more would flood the chat. */
const maxProducts = 5

export class TelegramDriver extends Effect.Service<TelegramDriver>()("TelegramDriver", {
  effect: Effect.gen(function*() {
    const botApi = yield* BotApi
    const connections = yield* Connections
    const assistants = yield* AssistantsRepo
    const channelChat = yield* ChannelChat

    const sendReply = (token: string, chatId: number, reply: Chat.ChatReply, locale: I18n.Locale) =>
      Effect.gen(function*() {
        for (const part of splitMessage(reply.text)) yield* botApi.sendMessage(token, chatId, part)
        for (const product of reply.products.slice(0, maxProducts)) {
          const caption = productCaption(product, I18n.translate(locale, "channels.product_link"))
          const asText = botApi.sendMessage(token, chatId, caption)
          yield* product.imageUrl === null
            ? asText
            // Telegram fetches the image itself; one it cannot fetch still leaves the product as text.
            : botApi.sendPhoto(token, chatId, product.imageUrl, caption).pipe(
              Effect.catchIf((error) => error.status === 400, () => asText)
            )
        }
      })

    const failed = (code: string, chatId: number) => (error: BotApiError) =>
      error.unauthorized
        ? connections.markDead(code, `Bot API refused the token: ${error.description}`)
        : Effect.logWarning(
          error.status === 403 ? "Telegram chat does not accept the bot's messages" : "Telegram answer not delivered"
        ).pipe(
          Effect.annotateLogs({
            connectionCode: code,
            chatId,
            method: error.method,
            status: error.status,
            reason: error.description
          })
        )

    return {
      handle: Effect.fn("TelegramDriver.handle")(function*(task: TelegramTask) {
        const found = yield* connections.findActive("telegram", task.connectionCode)
        // Disabled, dead or deleted since the update came in: nothing to answer with.
        if (Option.isNone(found) || found.value.secrets._tag !== "telegram") return
        const { row, secrets } = found.value
        const token = secrets.botToken
        const assistant = yield* assistants.findById(row.assistantId)
        if (Option.isNone(assistant)) return
        const locale = I18n.negotiate(task.languageCode ?? assistant.value.language ?? undefined)
        const say = (key: I18n.MessageKey) => botApi.sendMessage(token, task.chatId, I18n.translate(locale, key))

        yield* Effect.gen(function*() {
          yield* botApi.sendChatAction(token, task.chatId, "typing").pipe(Effect.ignore)
          const voice = task.voice
          if (voice !== null && !assistant.value.acceptVoice) return yield* say("channels.voice_refused")
          if (voice === null && (task.text === null || task.text.trim() === "")) {
            return yield* say("channels.unsupported_message")
          }
          if (voice !== null && voice.fileSize !== null && voice.fileSize > Chat.maxAttachmentBytes) {
            return yield* say("channels.unsupported_message")
          }
          const attachments = voice === null ? [] : [
            yield* botApi.downloadFile(token, voice.fileId).pipe(
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
            principal: `telegram:${task.chatId}`,
            message: task.text ?? "",
            attachments
          })
          if (Either.isLeft(answer)) {
            yield* Effect.logInfo("Telegram message not answered").pipe(
              Effect.annotateLogs({ connectionCode: row.code, reason: answer.left.code })
            )
            return yield* say(answer.left.messageKey)
          }
          yield* sendReply(token, task.chatId, answer.right, locale)
        }).pipe(Effect.catchTag("BotApiError", failed(row.code, task.chatId)))
      })
    } as const
  }),
  dependencies: [BotApi.Default, Connections.Default, AssistantsRepo.Default, ChannelChat.Default]
}) {}
