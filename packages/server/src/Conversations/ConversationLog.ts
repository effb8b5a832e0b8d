/**
 * The conversation log's operations, for the shop (scoped to an account's
 * assistant) and the operator (any scope): pages with signed cursors, one
 * thread, deletion, feedback, and the export as a stream read in batches.
 */
import { Conversations } from "@dastyar/domain"
import * as Chunk from "effect/Chunk"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { ConversationLogRepo, type ConversationRow, type Filters, type Scope, toSummary } from "./ConversationLogRepo"
import { ConversationCursor } from "./Cursor"
import { csvHeader, csvRows } from "./ExportCsv"
import { Unanswered } from "./Unanswered"

/** Conversations read per batch of the export. */
const exportBatch = 200
const encoder = new TextEncoder()
const encodeConversation = Schema.encode(Conversations.Conversation)

export class ConversationLog extends Effect.Service<ConversationLog>()("ConversationLog", {
  effect: Effect.gen(function*() {
    const repo = yield* ConversationLogRepo
    const cursors = yield* ConversationCursor
    const unanswered = yield* Unanswered

    const page = Effect.fn("Conversations.list")(function*(
      list: string,
      scope: Scope,
      query: Filters & { readonly limit?: number | undefined; readonly cursor?: string | undefined }
    ) {
      const after = query.cursor === undefined
        ? Option.none()
        : Option.some(yield* cursors.decode(query.cursor, list))
      const limit = query.limit ?? 50
      const rows = yield* repo.page(scope, query, after, limit + 1)
      const shown = rows.slice(0, limit)
      const last = shown[shown.length - 1]
      return {
        rows: shown,
        nextCursor: rows.length > limit && last !== undefined
          ? cursors.encode(list, { at: last.position, id: last.id })
          : null
      }
    })

    const thread = (row: ConversationRow) =>
      Effect.map(repo.withMessages([row]), ([found]) => ({ ...toSummary(row), messages: found?.messages ?? [] }))

    const get = (scope: Scope, id: string) =>
      repo.find(scope, id).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new Conversations.ConversationNotFound()),
          onSome: thread
        }))
      )

    /** Every matching conversation, newest first, read `exportBatch` at a time as the client takes them. */
    const batches = (scope: Scope, filters: Filters) =>
      Stream.paginateChunkEffect(
        Option.none<{ readonly at: string; readonly id: string }>(),
        (after) =>
          Effect.gen(function*() {
            const rows = yield* repo.page(scope, filters, after, exportBatch)
            const threads = yield* repo.withMessages(rows)
            const last = rows[rows.length - 1]
            const next = rows.length === exportBatch && last !== undefined
              ? Option.some(Option.some({ at: last.position, id: last.id }))
              : Option.none()
            return [threads, next] as const
          }).pipe(Effect.map(([threads, next]) => [Chunk.fromIterable(threads), next] as const))
      )

    return {
      page,
      get,

      remove: (scope: Scope, id: string) =>
        repo.remove(scope, id).pipe(
          Effect.flatMap((removed) =>
            removed ? Effect.succeed(null) : Effect.fail(new Conversations.ConversationNotFound())
          )
        ),

      removePrincipal: (scope: Scope, principal: string) =>
        Effect.map(repo.removePrincipal(scope, principal), (deleted) => ({ deleted })),

      /** The user's question that the answer `messageId` replied to. */
      questionOf: Effect.fn("Conversations.question")(
        function*(scope: Scope, conversationId: string, messageId: string) {
          const conversation = yield* repo.find(scope, conversationId)
          if (Option.isNone(conversation)) return yield* new Conversations.ConversationNotFound()
          const answer = yield* repo.answerWithQuestion(conversationId, messageId)
          if (Option.isNone(answer)) return yield* new Conversations.MessageNotFound()
          return { conversation: conversation.value, question: answer.value.question ?? "" }
        }
      ),

      feedback: Effect.fn("Conversations.feedback")(function*(
        scope: Scope,
        conversationId: string,
        messageId: string,
        write: Conversations.FeedbackWrite
      ) {
        const conversation = yield* repo.find(scope, conversationId)
        if (Option.isNone(conversation)) return yield* new Conversations.ConversationNotFound()
        const answer = yield* repo.answerWithQuestion(conversationId, messageId)
        if (Option.isNone(answer)) return yield* new Conversations.MessageNotFound()
        const comment = write.comment ?? null
        const updatedAt = yield* repo.setFeedback(conversationId, messageId, write.rating, comment)
        const row = conversation.value
        if (write.rating === "down") {
          yield* unanswered.record({
            assistantId: row.assistantId,
            conversationId,
            channel: row.channel,
            answerMessageId: messageId,
            question: answer.value.question ?? "",
            reasons: ["negative_feedback"]
          }).pipe(Effect.orDie)
        } else {
          yield* unanswered.clearNegative(messageId).pipe(Effect.orDie)
        }
        return { rating: write.rating, comment, updatedAt: DateTime.unsafeFromDate(updatedAt) }
      }),

      /** NDJSON (a conversation per line) or CSV (a message per row), as bytes. */
      exportStream: (scope: Scope, filters: Filters, format: "ndjson" | "csv"): Stream.Stream<Uint8Array> => {
        const threads = batches(scope, filters)
        const lines = format === "csv"
          ? Stream.concat(
            Stream.succeed(csvHeader),
            Stream.map(threads, ({ messages, row }) => csvRows(row, messages))
          )
          : Stream.mapEffect(threads, ({ messages, row }) =>
            Effect.map(
              Effect.orDie(encodeConversation({ ...toSummary(row), messages })),
              (wire) => `${JSON.stringify(wire)}\n`
            ))
        return Stream.map(lines, (text) => encoder.encode(text))
      }
    } as const
  }),
  dependencies: [ConversationLogRepo.Default, ConversationCursor.Default, Unanswered.Default]
}) {}
