/**
 * A streamed turn as server-sent events: `event: delta` with `{"text"}` per
 * piece of the answer, then one `event: done` whose data is the reply encoded
 * exactly like the JSON answer's `data`.
 */
import { Chat } from "@dastyar/domain"
import * as Sse from "@effect/experimental/Sse"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import type { TurnEvent } from "./ChatTurns"

const encodeReply = Schema.encode(Chat.ChatReply)

const frame = (event: string, data: unknown) =>
  Sse.encoder.write({ _tag: "Event", event, id: undefined, data: JSON.stringify(data) })

export const eventStream = (events: Stream.Stream<TurnEvent>): Stream.Stream<Uint8Array> =>
  events.pipe(
    Stream.mapEffect((event) =>
      event._tag === "Delta"
        ? Effect.succeed(frame("delta", { text: event.text }))
        // The reply was built from the same schema's types; encoding it cannot fail.
        : Effect.map(Effect.orDie(encodeReply(event.reply)), (data) => frame("done", data))
    ),
    Stream.encodeText
  )
