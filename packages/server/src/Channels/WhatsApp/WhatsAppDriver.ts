/**
 * Answers one WhatsApp message: the chat pipeline as principal
 * `whatsapp:<wa_id>`, the answer sent through the Cloud API as text messages
 * split at WhatsApp's 4,096 characters, products as text. WhatsApp allows a
 * free-form reply only within 24 hours of the customer's message: a message
 * already older (a late redelivery) or a reply refused for it (131047) is
 * recorded, and the connection's status reason says why no reply was sent.
 * A refused access token marks the connection dead.
 */
import { I18n } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { AssistantsRepo } from "../../Assistants/AssistantsRepo"
import { ChannelChat } from "../ChannelChat"
import { Connections } from "../Connections"
import type { WhatsAppTask } from "../Inbox"
import { productCaption, splitMessage } from "../Telegram/Format"
import { GraphApi, type GraphApiError, textLimit } from "./GraphApi"
import { outsideWindow } from "./Notification"

/** Products shown per answer; more would flood the chat. */
const maxProducts = 5

/** WhatsApp's customer-service window. */
const windowMillis = 24 * 60 * 60 * 1000

export class WhatsAppDriver extends Effect.Service<WhatsAppDriver>()("WhatsAppDriver", {
  effect: Effect.gen(function*() {
    const graph = yield* GraphApi
    const connections = yield* Connections
    const assistants = yield* AssistantsRepo
    const channelChat = yield* ChannelChat

    const unanswered = (task: WhatsAppTask, why: string) =>
      connections.noteUnanswered({
        code: task.connectionCode,
        messageKey: `message:${task.messageId}`,
        chatKey: `whatsapp:${task.from}`,
        text: task.text,
        reason: why,
        sentAt: new Date(task.sentAt * 1000)
      })

    const failed = (task: WhatsAppTask) => (error: GraphApiError) =>
      error.unauthorized
        ? connections.markDead(task.connectionCode, `WhatsApp refused the access token: ${error.description}`)
        : error.windowClosed
        ? unanswered(task, `${outsideWindow} (${error.code}: ${error.description})`)
        : Effect.logWarning("WhatsApp answer not delivered").pipe(
          Effect.annotateLogs({
            connectionCode: task.connectionCode,
            messageId: task.messageId,
            status: error.status,
            code: error.code ?? "",
            reason: error.description
          })
        )

    return {
      handle: Effect.fn("WhatsAppDriver.handle")(function*(task: WhatsAppTask) {
        const found = yield* connections.findActive("whatsapp", task.connectionCode)
        if (Option.isNone(found)) return
        const { row, secrets } = found.value
        const phoneNumberId = row.phoneNumberId
        if (secrets._tag !== "whatsapp" || phoneNumberId === null) return
        const assistant = yield* assistants.findById(row.assistantId)
        if (Option.isNone(assistant)) return
        // Past the window no reply can reach the customer: no turn is run for it.
        const now = yield* Effect.clockWith((clock) => clock.currentTimeMillis)
        if (now - task.sentAt * 1000 > windowMillis) return yield* unanswered(task, outsideWindow)

        const locale = I18n.negotiate(assistant.value.language ?? undefined)
        const send = (text: string) => graph.sendText(secrets.accessToken, phoneNumberId, task.from, text)
        const say = (key: I18n.MessageKey) => send(I18n.translate(locale, key))

        yield* Effect.gen(function*() {
          if (task.text === null || task.text.trim() === "") {
            return yield* say(task.kind === "audio" ? "channels.voice_refused" : "channels.unsupported_message")
          }
          const answer = yield* channelChat.answer({
            accountId: assistant.value.accountId,
            assistantId: row.assistantId,
            connectionCode: row.code,
            principal: `whatsapp:${task.from}`,
            message: task.text
          })
          if (Either.isLeft(answer)) {
            yield* Effect.logInfo("WhatsApp message not answered").pipe(
              Effect.annotateLogs({ connectionCode: row.code, reason: answer.left.code })
            )
            return yield* say(answer.left.messageKey)
          }
          for (const part of splitMessage(answer.right.text, textLimit, "plain")) yield* send(part)
          const label = I18n.translate(locale, "channels.product_link")
          for (const product of answer.right.products.slice(0, maxProducts)) {
            yield* send(productCaption(product, label, "plain"))
          }
        }).pipe(Effect.catchTag("GraphApiError", failed(task)))
      })
    } as const
  }),
  dependencies: [
    GraphApi.Default,
    Connections.Default,
    AssistantsRepo.Default,
    ChannelChat.Default
  ]
}) {}
