/**
 * Server-sent events of a streamed chat answer, written once for both faces:
 * eventsource-parser splits the bytes into events, and each `delta` or `done`
 * event is checked against the domain's `ChatStreamEvent` schema (its wire
 * form for the promise face, its decoded form for the Effect face). The
 * stream ends with the `done` event; a stream that ends without one fails.
 */
import { Chat } from "@dastyar/domain"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { createParser, type EventSourceMessage } from "eventsource-parser"
import type { components } from "./generated/openapi"

/** The answer of a chat turn, as `chat` returns it and a stream's `done` event carries it. */
export type ChatReply = components["schemas"]["ChatReply"]

/** The answer stream broke off, or carried an event that is not what the API declares. */
export class ChatStreamBroken extends Data.TaggedError("ChatStreamBroken")<{ readonly reason: string }> {
  override get message() {
    return `the chat stream is broken: ${this.reason}`
  }
}

/** Events of a byte stream, in order. */
export const serverSentEvents = <E, R>(
  bytes: Stream.Stream<Uint8Array, E, R>
): Stream.Stream<EventSourceMessage, E, R> =>
  Stream.suspend(() => {
    const parsed: Array<EventSourceMessage> = []
    const parser = createParser({ onEvent: (event) => void parsed.push(event) })
    return bytes.pipe(
      Stream.decodeText(),
      Stream.mapConcat((text) => {
        parser.feed(text)
        return parsed.splice(0)
      })
    )
  })

type WireEvent = typeof Chat.ChatStreamEvent.Encoded

/** The chat events of an answer stream as `schema` reads them, up to and including `done`. */
export const chatEventsOf = <A extends { readonly event: "delta" | "done" }, E, R>(
  schema: Schema.Schema<A, WireEvent>,
  bytes: Stream.Stream<Uint8Array, E, R>
): Stream.Stream<A, E | ChatStreamBroken, R> =>
  Stream.suspend(() => {
    let done = false
    const decode = Schema.decodeUnknown(schema)
    const read = (message: EventSourceMessage) =>
      Effect.try({
        try: (): unknown => JSON.parse(message.data),
        catch: () => new ChatStreamBroken({ reason: `the ${message.event} event's data is not JSON` })
      }).pipe(
        Effect.flatMap((data) => decode({ event: message.event, data })),
        Effect.mapError((error) =>
          error instanceof ChatStreamBroken
            ? error
            : new ChatStreamBroken({ reason: `the ${message.event} event does not match the API: ${error.message}` })
        )
      )
    return serverSentEvents(bytes).pipe(
      // Other event names (comments, keep-alives, future additions) are not part of the answer.
      Stream.filter((message) => message.event === "delta" || message.event === "done"),
      Stream.mapEffect(read),
      Stream.takeUntil((event) => event.event === "done"),
      Stream.tap((event) => Effect.sync(() => void (done = done || event.event === "done"))),
      Stream.concat(Stream.suspend(() =>
        done ? Stream.empty : Stream.fail(new ChatStreamBroken({ reason: "it ended without a done event" }))
      ))
    )
  })

// The promise face: wire events, as the OpenAPI types describe them.

export type ChatStreamEvent =
  | { readonly type: "delta"; readonly text: string }
  | { readonly type: "done"; readonly reply: ChatReply }

const WireChatStreamEvent: Schema.Schema<WireEvent, WireEvent> = Schema.encodedSchema(Chat.ChatStreamEvent)

/** Narrows the checked wire reply to the generated OpenAPI type (the same shape, mutable arrays). */
const isWireReply = Schema.is(Schema.encodedSchema(Chat.ChatReply))
const isChatReply = (value: unknown): value is ChatReply => isWireReply(value)

/** Deltas then the one `done` event of a response body. */
export const chatEvents = (body: ReadableStream<Uint8Array>): AsyncIterable<ChatStreamEvent> =>
  Stream.toAsyncIterable(
    chatEventsOf(WireChatStreamEvent, Stream.fromReadableStream({ evaluate: () => body, onError: (error) => error }))
      .pipe(
        Stream.mapEffect((event): Effect.Effect<ChatStreamEvent, ChatStreamBroken> =>
          event.event === "delta"
            ? Effect.succeed({ type: "delta", text: event.data.text })
            : isChatReply(event.data)
            ? Effect.succeed({ type: "done", reply: event.data })
            : Effect.fail(new ChatStreamBroken({ reason: "the done event carries no chat reply" }))
        )
      )
  )
