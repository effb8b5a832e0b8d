/**
 * `dastyar chat <assistant>`: an interactive conversation, the answer printed
 * as it is written (server-sent events), with its sources and products under
 * it. `--message` sends one message and exits, for scripts; with `--json` it
 * prints the reply's `data` as one JSON document.
 */
import { Assistants, Chat } from "@dastyar/domain"
import { streamChat } from "@dastyar/sdk"
import { Args, Command, Options } from "@effect/cli"
import type { HttpClient } from "@effect/platform"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import * as os from "node:os"
import * as readline from "node:readline"
import { describe } from "../Failure"
import { publicOptions } from "../GlobalOptions"
import { printData } from "../Output"
import { given } from "../Payload"
import { type Column, table } from "../Render"
import { publicSession } from "../Session"

const assistant = Args.text({ name: "assistant" }).pipe(
  Args.withDescription("The assistant's id (see `dastyar assistants list`)")
)
const principal = Options.text("principal").pipe(
  Options.withDescription("Who is chatting, as your end users are told apart (default: cli-<your user name>)"),
  Options.optional
)
const message = Options.text("message").pipe(
  Options.withAlias("m"),
  Options.withDescription("Send this one message, print the answer and exit"),
  Options.optional
)
const conversation = Options.text("conversation").pipe(
  Options.withDescription("Continue this conversation (its id is printed under every answer)"),
  Options.optional
)

type Reply = typeof Chat.ChatReply.Type
type Product = Reply["products"][number]

const write = (text: string) => Effect.sync(() => void process.stdout.write(text))

/** One turn, streamed: deltas are printed as they arrive; the `done` event's reply is returned. */
const streamTurn = (
  http: HttpClient.HttpClient,
  assistantCode: string,
  request: { readonly principal: string; readonly message: string; readonly conversationId: string | undefined }
) =>
  Effect.gen(function*() {
    let reply: Option.Option<Reply> = Option.none()
    const { conversationId, message, principal } = request
    yield* streamChat(http, assistantCode, {
      principal,
      message,
      ...given("conversationId", Option.fromNullable(conversationId))
    }).pipe(
      Stream.runForEach((event) =>
        event.event === "delta" ? write(event.data.text) : Effect.sync(() => void (reply = Option.some(event.data)))
      )
    )
    // The SDK's stream fails when it ends without a done event, so there is always one here.
    return yield* Option.match(reply, {
      onNone: () => Effect.dieMessage("the answer stream ended without a done event"),
      onSome: Effect.succeed
    })
  })

const productColumns: ReadonlyArray<Column<Product>> = [
  { header: "externalId", value: (product) => product.externalId },
  { header: "title", value: (product) => product.title },
  {
    header: "price",
    value: (product) =>
      product.price === null ? null : `${product.price.toLocaleString("en-US")} ${product.currency ?? ""}`.trim()
  },
  { header: "link", value: (product) => product.url }
]

/** What follows an answer: its sources, its products as a compact table, and the conversation id. */
export const footer = (reply: Reply): string => {
  const lines: Array<string> = []
  if (reply.sources.length > 0) {
    lines.push("", "Sources:", ...reply.sources.map((source) => `  ${source.path} #${source.chunk}`))
  }
  if (reply.products.length > 0) {
    lines.push("", "Products:", ...table(reply.products, productColumns).split("\n").map((line) => `  ${line}`))
  }
  lines.push("", `(conversation ${reply.conversationId}${reply.degraded ? ", degraded: answered by a fallback" : ""})`)
  // The streamed answer ends without a newline; a blank line sets the footer apart.
  return `\n${lines.join("\n")}`
}

/** Lines typed by the user; closed with the session. */
const typedLines = Effect.acquireRelease(
  Effect.sync(() => readline.createInterface({ input: process.stdin, terminal: false })),
  (lines) => Effect.sync(() => lines.close())
).pipe(Effect.map((lines) => lines[Symbol.asyncIterator]()))

export const chatCommand = Command.make(
  "chat",
  { assistant, principal, message, conversation, ...publicOptions },
  (options) =>
    Effect.gen(function*() {
      const session = yield* publicSession(options)
      const who = Option.getOrElse(options.principal, () => `cli-${os.userInfo().username}`)
      let conversationId = Option.getOrUndefined(options.conversation)

      if (Option.isSome(options.message)) {
        if (session.json) {
          const reply = yield* session.client.chat.send({
            path: { assistantCode: Assistants.AssistantId.make(options.assistant) },
            payload: { principal: who, message: options.message.value, conversationId }
          })
          return yield* printData(Chat.ChatReply, reply, { json: true, human: () => "" })
        }
        const reply = yield* streamTurn(session.http, options.assistant, {
          principal: who,
          message: options.message.value,
          conversationId
        })
        return yield* Console.log(footer(reply))
      }

      const interactive = process.stdin.isTTY === true
      if (interactive) yield* Console.log("Chatting with the assistant; an empty line or Ctrl-D ends the session.")
      const lines = yield* typedLines
      for (;;) {
        if (interactive) yield* write("\nyou> ")
        const next = yield* Effect.promise(() => lines.next())
        const text = next.done === true ? "" : next.value.trim()
        if (next.done === true || (interactive && text.length === 0) || text === "/exit") return
        if (text.length === 0) continue
        if (interactive) yield* write("\nassistant> ")
        yield* streamTurn(session.http, options.assistant, { principal: who, message: text, conversationId }).pipe(
          Effect.tap((reply) => {
            conversationId = reply.conversationId
            return Console.log(footer(reply))
          }),
          // One refused turn (quota, validation…) is reported; the session goes on.
          Effect.catchAll((error) =>
            Option.match(describe(error).line, { onNone: () => Effect.void, onSome: Console.error })
          )
        )
      }
    }).pipe(Effect.scoped)
).pipe(Command.withDescription("Chat with an assistant: interactive and streamed, or one --message for scripts"))
