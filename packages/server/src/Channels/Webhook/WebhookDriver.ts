/**
 * Answers one message of a custom integration: the chat pipeline as principal
 * `webhook:<principal>`, then the answer POSTed to the connection's callback
 * URL, signed like inbound requests. Delivery is retried with exponential
 * backoff on network errors, 408, 429 and 5xx; another 4xx is the
 * integration's refusal and is not retried.
 */
import { Channels, I18n } from "@dastyar/domain"
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { AssistantsRepo } from "../../Assistants/AssistantsRepo"
import { AppConfig } from "../../Config"
import { ChannelChat } from "../ChannelChat"
import { Connections } from "../Connections"
import type { WebhookTask } from "../Inbox"
import * as CallbackAddress from "./CallbackAddress"
import { signedHeaders } from "./Signature"

class DeliveryFailed extends Data.TaggedError("DeliveryFailed")<{
  readonly status: number
  readonly transient: boolean
}> {}

/** 1 s, 2 s, 4 s, 8 s, 16 s: six attempts over about half a minute. */
const retryPolicy = Schedule.exponential(Duration.seconds(1), 2).pipe(
  Schedule.intersect(Schedule.recurs(5)),
  Schedule.whileInput((error: DeliveryFailed) => error.transient)
)

const encodeDelivery = Schema.encode(Schema.parseJson(Channels.WebhookDelivery))

export class WebhookDriver extends Effect.Service<WebhookDriver>()("WebhookDriver", {
  effect: Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const connections = yield* Connections
    const assistants = yield* AssistantsRepo
    const channelChat = yield* ChannelChat
    const { webhookAllowPrivate } = yield* AppConfig

    const post = (url: string, secret: string, body: string) =>
      Effect.gen(function*() {
        // Checked at every delivery: a name may resolve elsewhere since the connection was made. The socket's own
        // lookup checks again and connects to the address it checked.
        yield* CallbackAddress.checkCallbackUrl(url, webhookAllowPrivate).pipe(
          Effect.mapError(() => new DeliveryFailed({ status: 0, transient: false }))
        )
        const request = HttpClientRequest.post(url).pipe(
          HttpClientRequest.setHeaders(signedHeaders(secret, body, new Date())),
          HttpClientRequest.bodyText(body, "application/json")
        )
        const response = yield* client.execute(request).pipe(
          Effect.scoped,
          Effect.timeout("15 seconds"),
          Effect.mapError(() => new DeliveryFailed({ status: 0, transient: true }))
        )
        const status = response.status
        if (status >= 200 && status < 300) return
        return yield* new DeliveryFailed({ status, transient: status === 408 || status === 429 || status >= 500 })
      })

    return {
      handle: Effect.fn("WebhookDriver.handle")(function*(task: WebhookTask) {
        const found = yield* connections.findActive("webhook", task.connectionCode)
        if (Option.isNone(found) || found.value.secrets._tag !== "webhook") return
        const { row, secrets } = found.value
        const callbackUrl = row.callbackUrl
        if (callbackUrl === null) return
        const assistant = yield* assistants.findById(row.assistantId)
        if (Option.isNone(assistant)) return
        const principal = `webhook:${task.principal}`
        const answer = yield* channelChat.answer({
          accountId: assistant.value.accountId,
          assistantId: row.assistantId,
          connectionCode: row.code,
          principal,
          message: task.message
        })
        const locale = I18n.negotiate(assistant.value.language ?? undefined)
        const delivery: Channels.WebhookDelivery = Either.match(answer, {
          onLeft: (failure) => ({
            connectionCode: row.code,
            principal: task.principal,
            messageId: task.messageId,
            conversationId: failure.conversationId,
            text: I18n.translate(locale, failure.messageKey),
            products: [],
            degraded: false,
            error: failure.code
          }),
          onRight: (reply) => ({
            connectionCode: row.code,
            principal: task.principal,
            messageId: task.messageId,
            conversationId: reply.conversationId,
            text: reply.text,
            products: reply.products.map((product) => ({
              externalId: product.externalId,
              title: product.title,
              price: product.price,
              currency: product.currency,
              imageUrl: product.imageUrl,
              url: product.url
            })),
            degraded: reply.degraded,
            error: null
          })
        })
        const body = yield* encodeDelivery(delivery).pipe(Effect.orDie)
        yield* post(callbackUrl, secrets.secret, body).pipe(
          Effect.tapError((error) =>
            Effect.logWarning("webhook delivery failed").pipe(
              Effect.annotateLogs({ connectionCode: row.code, status: error.status, retrying: error.transient })
            )
          ),
          Effect.retry(retryPolicy),
          Effect.catchAll((error) =>
            Effect.logError("webhook answer not delivered; giving up").pipe(
              Effect.annotateLogs({ connectionCode: row.code, status: error.status, messageId: task.messageId ?? "" })
            )
          )
        )
      })
    } as const
  }),
  dependencies: [CallbackAddress.clientLayer, Connections.Default, AssistantsRepo.Default, ChannelChat.Default]
}) {}
