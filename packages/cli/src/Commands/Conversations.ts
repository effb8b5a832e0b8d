/**
 * `dastyar conversations …` and `dastyar report unanswered`: what customers
 * asked one assistant, one thread, the export, deletion, and the questions
 * nobody answered.
 */
import { Conversations, Envelope } from "@dastyar/domain"
import { exportConversations } from "@dastyar/sdk"
import { Args, Command, Options } from "@effect/cli"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { assistantCode, assistantOption } from "../AssistantOption"
import { publicOptions } from "../GlobalOptions"
import { printData } from "../Output"
import { given } from "../Payload"
import { type Column, table } from "../Render"
import { publicSession, UsageError } from "../Session"

const options = { ...publicOptions, assistant: assistantOption }

const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)

const filterOptions = {
  channel: Options.choice("channel", Conversations.channels).pipe(
    Options.withDescription("Only conversations from this channel"),
    Options.optional
  ),
  from: optionalText("from", "Started at or after (ISO 8601)"),
  to: optionalText("to", "Started before (ISO 8601)"),
  principal: optionalText("principal", "Only this end user's conversations"),
  negative: Options.boolean("negative-feedback").pipe(Options.withDescription("Only with an answer rated down")),
  attention: Options.boolean("needs-attention").pipe(Options.withDescription("Only with a declined or degraded answer"))
}

interface FilterFlags {
  readonly channel: Option.Option<Conversations.Channel>
  readonly from: Option.Option<string>
  readonly to: Option.Option<string>
  readonly principal: Option.Option<string>
  readonly negative: boolean
  readonly attention: boolean
}

/** The filters as the query's encoded (wire) form. */
const filterParams = (flags: FilterFlags) => ({
  ...given("channel", flags.channel),
  ...given("from", flags.from),
  ...given("to", flags.to),
  ...given("principal", flags.principal),
  ...(flags.negative ? { negativeFeedback: "true" as const } : {}),
  ...(flags.attention ? { needsAttention: "true" as const } : {})
})

const columns: ReadonlyArray<Column<typeof Conversations.ConversationSummary.Encoded>> = [
  { header: "id", value: (row) => row.id },
  { header: "createdAt", value: (row) => row.createdAt },
  { header: "channel", value: (row) => row.channel },
  { header: "principal", value: (row) => row.principal },
  { header: "messages", value: (row) => row.messageCount },
  {
    header: "flags",
    value: (row) => [row.needsAttention ? "attention" : "", row.negativeFeedback ? "👎" : ""].join(" ")
  },
  { header: "title", value: (row) => row.title.slice(0, 60) }
]

/** The flags as the route's query, checked and decoded like the server would (a bad date is a usage error). */
const query = <A, I extends Record<string, unknown>>(schema: Schema.Schema<A, I>, wire: Record<string, unknown>) =>
  Schema.decodeUnknown(schema)(wire).pipe(
    Effect.mapError((error) => new UsageError({ message: ParseResult.TreeFormatter.formatErrorSync(error) }))
  )

/** Writes a chunk to standard output, resuming once it has taken it (at once, or after `drain`). */
const writeOut = (chunk: Uint8Array) =>
  Effect.async<void>((resume) => {
    if (process.stdout.write(chunk)) resume(Effect.void)
    else process.stdout.once("drain", () => resume(Effect.void))
  })

const list = Command.make("list", {
  ...options,
  ...filterOptions,
  limit: optionalText("limit", "Page size, 1 to 200 (default 50)"),
  cursor: optionalText("cursor", "The next-page cursor printed by the previous page")
}, ({ assistant, cursor, limit, ...rest }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(rest)
    const urlParams = yield* query(Conversations.ConversationListQuery, {
      ...filterParams(rest),
      ...given("limit", limit),
      ...given("cursor", cursor)
    })
    const page = yield* client.conversations.list({
      path: { assistantCode: yield* assistantCode(assistant) },
      urlParams
    })
    yield* printData(Conversations.ConversationPage, page, {
      json,
      human: ({ list, nextCursor }) =>
        [
          list.length === 0 ? "No conversations." : table(list, columns),
          ...(nextCursor === null ? [] : ["", `More: --cursor ${nextCursor}`])
        ].join("\n")
    })
  })).pipe(Command.withDescription("List conversations, newest first, with filters"))

const conversationId = Args.text({ name: "conversationId" }).pipe(Args.withDescription("The conversation's id"))

const messageLines = (message: typeof Conversations.ConversationMessage.Encoded): string => {
  const facts = message.role === "assistant"
    ? [
      `model ${message.model ?? "?"}`,
      ...(message.degraded === true ? ["degraded"] : []),
      ...(message.declined === true ? ["declined"] : []),
      ...(message.curatedId === null ? [] : [`curated ${message.curatedId}`]),
      ...(message.usage === null
        ? []
        : [`${message.usage.promptTokens + message.usage.completionTokens + message.usage.embeddingTokens} tokens`]),
      ...(message.feedback === null ? [] : [`feedback ${message.feedback.rating}`])
    ]
    : []
  const sources = message.sources.map((source) => `  [${source.kind ?? "document"}] ${source.path}#${source.chunk}`)
  return [
    `${message.role === "user" ? "Customer" : "Assistant"} (${message.id}, ${message.createdAt}): ${message.content}`,
    ...(facts.length === 0 ? [] : [`  ${facts.join(", ")}`]),
    ...sources,
    ...message.products.map((product) => `  product ${product.externalId} ${product.title ?? ""}`)
  ].join("\n")
}

const show = Command.make(
  "show",
  { ...options, conversationId },
  ({ assistant, conversationId, ...common }) =>
    Effect.gen(function*() {
      const { client, json } = yield* publicSession(common)
      const conversation = yield* client.conversations.get({
        path: { assistantCode: yield* assistantCode(assistant), conversationId }
      })
      yield* printData(Conversations.Conversation, conversation, {
        json,
        human: (thread) =>
          [`${thread.id} · ${thread.channel} · ${thread.principal}`, "", ...thread.messages.map(messageLines)].join(
            "\n"
          )
      })
    })
).pipe(Command.withDescription("Show one conversation with its messages, sources, products and feedback"))

const exportCommand = Command.make("export", {
  ...options,
  ...filterOptions,
  format: Options.choice("format", ["ndjson", "csv"]).pipe(
    Options.withDescription("ndjson (a conversation per line, default) or csv (a message per row)"),
    Options.optional
  )
}, ({ assistant, format, ...rest }) =>
  Effect.gen(function*() {
    const { http } = yield* publicSession(rest)
    const wire = { ...filterParams(rest), ...given("format", format) }
    // Checked like the server would, so a bad date is a usage error before any request.
    yield* query(Conversations.ExportQuery, wire)
    // Written as it arrives, waiting for standard output to drain: memory does not grow with the export.
    yield* exportConversations(http, yield* assistantCode(assistant), wire).pipe(Stream.runForEach(writeOut))
  })).pipe(Command.withDescription("Write every matching conversation to standard output (NDJSON or CSV)"))

const remove = Command.make("delete", {
  ...options,
  conversationId: Args.text({ name: "conversationId" }).pipe(Args.optional),
  principal: optionalText("principal", "Delete every conversation of this end user instead")
}, ({ assistant, conversationId, principal, ...common }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(common)
    const code = yield* assistantCode(assistant)
    if (Option.isSome(principal)) {
      const result = yield* client.conversations.deletePrincipal({
        path: { assistantCode: code },
        urlParams: { principal: principal.value }
      })
      return yield* printData(Conversations.Deleted, result, {
        json,
        human: ({ deleted }) => `Deleted ${deleted} conversations of ${principal.value}.`
      })
    }
    if (Option.isNone(conversationId)) {
      return yield* new UsageError({ message: "give a conversation id or --principal" })
    }
    yield* client.conversations.delete({ path: { assistantCode: code, conversationId: conversationId.value } })
    yield* Console.log(json ? "null" : `Deleted ${conversationId.value}.`)
  })).pipe(Command.withDescription("Delete one conversation, or every conversation of one end user (--principal)"))

export const conversationsCommand = Command.make("conversations").pipe(
  Command.withDescription("Conversations of one assistant: list, show, export, delete"),
  Command.withSubcommands([list, show, exportCommand, remove])
)

const groupColumns: ReadonlyArray<Column<typeof Conversations.UnansweredGroup.Encoded>> = [
  { header: "id", value: (group) => group.id },
  { header: "count", value: (group) => group.count },
  { header: "lastSeen", value: (group) => group.lastSeen },
  { header: "reasons", value: (group) => Object.entries(group.reasons).map(([k, n]) => `${k} ${n}`).join(", ") },
  { header: "question", value: (group) => group.label.slice(0, 70) }
]

const unanswered = Command.make("unanswered", {
  ...options,
  from: optionalText("from", "From (ISO 8601; default 30 days ago)"),
  to: optionalText("to", "To (ISO 8601; default now)")
}, ({ assistant, from, to, ...common }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(common)
    const urlParams = yield* query(Conversations.ReportQuery, { ...given("from", from), ...given("to", to) })
    const report = yield* client.conversations.unanswered({
      path: { assistantCode: yield* assistantCode(assistant) },
      urlParams
    })
    yield* printData(Envelope.ListOf(Conversations.UnansweredGroup), report, {
      json,
      human: ({ list }) => list.length === 0 ? "No unanswered questions." : table(list, groupColumns)
    })
  })).pipe(Command.withDescription("The questions nobody answered, grouped by similarity, most asked first"))

export const reportCommand = Command.make("report").pipe(
  Command.withDescription("Reports on an assistant's conversations"),
  Command.withSubcommands([unanswered])
)
