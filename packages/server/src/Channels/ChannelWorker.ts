/**
 * Answers queued messenger messages for as long as the server lives (two at a
 * time), and hourly forgets update keys too old to be redelivered.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Worker from "../Platform/Worker"
import { linksTo } from "../Telemetry"
import { ConnectionsRepo } from "./ConnectionsRepo"
import { type InboundTask, Inbox } from "./Inbox"
import { BotDriver } from "./Telegram/BotDriver"
import { WebhookDriver } from "./Webhook/WebhookDriver"
import { WhatsAppDriver } from "./WhatsApp/WhatsAppDriver"

const workers = 2

export const layer = Layer.scopedDiscard(
  Effect.gen(function*() {
    const inbox = yield* Inbox
    const bots = yield* BotDriver
    const webhook = yield* WebhookDriver
    const whatsapp = yield* WhatsAppDriver
    const repo = yield* ConnectionsRepo

    const handle = (task: InboundTask) =>
      (task._tag === "Telegram"
        ? bots.handle(task)
        : task._tag === "WhatsApp"
        ? whatsapp.handle(task)
        : webhook.handle(task)).pipe(
          Effect.withSpan("Channels.inbound", {
            attributes: { driver: task._tag, "dastyar.connection_code": task.connectionCode },
            links: linksTo(task.queuedBy),
            root: true
          })
        )

    yield* Worker.consume("channel-inbox", inbox.take(handle), {
      workers,
      failureMessage: "messenger message not processed; it will be retried"
    })
    yield* Worker.every("channel-update-keys", repo.forgetOldUpdates, {
      interval: "1 hour",
      failureMessage: "old messenger update keys not removed"
    })
  })
).pipe(
  Layer.provide(
    Layer.mergeAll(BotDriver.Default, WebhookDriver.Default, WhatsAppDriver.Default, ConnectionsRepo.Default)
  )
)
