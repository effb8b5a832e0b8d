/**
 * Server-sent events of a streamed chat answer, read from a response body:
 * `delta` events carry `{text}`, the one `done` event the whole reply.
 */
import { Chat } from "@dastyar/domain"
import * as Schema from "effect/Schema"
import type { ChatReply } from "./Chat"

export type ChatStreamEvent =
  | { readonly type: "delta"; readonly text: string }
  | { readonly type: "done"; readonly reply: ChatReply }

interface RawEvent {
  readonly event: string
  readonly data: string
}

/** Splits the byte stream into events (blank-line separated, `event:` and `data:` fields). */
async function* rawEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<RawEvent> {
  const reader = body.pipeThrough(new TextDecoderStream()).getReader()
  let buffer = ""
  let event = "message"
  let data: Array<string> = []
  try {
    for (;;) {
      const { done, value } = await reader.read()
      if (done) return
      buffer += value
      let newline = buffer.search(/\r?\n/)
      while (newline >= 0) {
        const line = buffer.slice(0, newline)
        buffer = buffer.slice(buffer[newline] === "\r" ? newline + 2 : newline + 1)
        if (line === "") {
          if (data.length > 0) yield { event, data: data.join("\n") }
          event = "message"
          data = []
        } else if (line.startsWith("event:")) {
          event = line.slice(6).trim()
        } else if (line.startsWith("data:")) {
          data.push(line.slice(5).replace(/^ /, ""))
        }
        newline = buffer.search(/\r?\n/)
      }
    }
  } finally {
    reader.releaseLock()
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** The wire form of the reply, as the JSON answer's `data` carries it. */
const isWireReply = Schema.is(Schema.encodedSchema(Chat.ChatReply))

/** The data of a `done` event, checked against the API's own schema. */
const isChatReply = (value: unknown): value is ChatReply => isWireReply(value)

export async function* chatEvents(body: ReadableStream<Uint8Array>): AsyncGenerator<ChatStreamEvent> {
  for await (const { data, event } of rawEvents(body)) {
    const parsed: unknown = JSON.parse(data)
    if (event === "delta" && isRecord(parsed) && typeof parsed.text === "string") {
      yield { type: "delta", text: parsed.text }
    } else if (event === "done") {
      if (!isChatReply(parsed)) throw new Error("the server's done event does not carry a chat reply")
      yield { type: "done", reply: parsed }
      return
    }
  }
  throw new Error("the chat stream ended without a done event")
}
