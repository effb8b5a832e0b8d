/**
 * Answers queued messenger messages for as long as the server lives (two at a
 * time), and hourly forgets update keys too old to be redelivered.
 */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { linksTo } from "../Telemetry"
import { ConnectionsRepo } from "./ConnectionsRepo"
import { type InboundTask, Inbox } from "./Inbox"
import { TelegramDriver } from "./Telegram/TelegramDriver"
import { WebhookDriver } from "./Webhook/WebhookDriver"

const workers = 2

export const layer = Layer.scopedDiscard(
  Effect.gen(function*() {
    const inbox = yield* Inbox
    const telegram = yield* TelegramDriver
    const webhook = yield* WebhookDriver
    const repo = yield* ConnectionsRepo

    const handle = (task: InboundTask) =>
      (task._tag === "Telegram" ? telegram.handle(task) : webhook.handle(task)).pipe(
        Effect.withSpan("Channels.inbound", {
          attributes: { driver: task._tag, "dastyar.connection_code": task.connectionCode },
          links: linksTo(task.queuedBy),
          root: true
        })
      )

    const loop = inbox.take(handle).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("messenger message not processed; it will be retried", cause)),
      Effect.repeat(Schedule.forever)
    )
    yield* Effect.forkScoped(Effect.all(Array.from({ length: workers }, () => loop), { concurrency: "unbounded" }))
    yield* repo.forgetOldUpdates.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("old messenger update keys not removed", cause)),
      Effect.repeat(Schedule.spaced("1 hour")),
      Effect.forkScoped
    )
  })
).pipe(Layer.provide(Layer.mergeAll(TelegramDriver.Default, WebhookDriver.Default, ConnectionsRepo.Default)))
