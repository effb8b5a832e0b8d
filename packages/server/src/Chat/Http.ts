/** `POST /v1/assistants/:assistantCode/chat`: JSON in, the envelope or server-sent events out. */
import { Auth, DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import { ChatTurns } from "./ChatTurns"
import { eventStream } from "./Sse"

export const ChatHttpLive = HttpApiBuilder.group(DastyarApi, "chat", (handlers) =>
  Effect.gen(function*() {
    const turns = yield* ChatTurns
    return handlers.handle("send", ({ path, payload }) =>
      Effect.gen(function*() {
        const { accountId } = yield* Auth.CurrentAccount
        const input = {
          accountId,
          assistantId: path.assistantCode,
          principal: payload.principal,
          message: payload.message,
          conversationId: payload.conversationId,
          // The schema checked the alphabet; the service checks sizes and kinds on the bytes.
          attachments: payload.attachments?.map((attachment) => ({
            kind: attachment.kind,
            bytes: new Uint8Array(Buffer.from(attachment.data, "base64")),
            mimeType: attachment.mimeType,
            filename: attachment.filename
          }))
        }
        if (payload.stream !== true) return yield* turns.reply(input)
        const events = yield* turns.replyStream(input)
        return HttpServerResponse.stream(eventStream(events), {
          contentType: "text/event-stream",
          // No proxy buffering, no caching: each event should reach the client as it is written.
          headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
        })
      }))
  }))
