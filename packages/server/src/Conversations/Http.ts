/** The conversation-log routes: the shop's (under an owned assistant) and the operator's (any account). */
import { Auth, Conversations, Curated, DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { Assistants } from "../Assistants/Assistants"
import { CuratedAnswers } from "../Curated/CuratedAnswers"
import { ConversationLog } from "./ConversationLog"
import { type Scope, toSummary } from "./ConversationLogRepo"
import { Unanswered } from "./Unanswered"

const exportResponse = (body: Parameters<typeof HttpServerResponse.stream>[0], format: "ndjson" | "csv") =>
  HttpServerResponse.stream(body, {
    contentType: format === "csv" ? "text/csv; charset=utf-8" : "application/x-ndjson",
    headers: { "content-disposition": `attachment; filename="conversations.${format}"` }
  })

/** Questions made into a curated answer's variants: trimmed, non-empty, within the curated answers' limits. */
const asVariants = (questions: ReadonlyArray<string>) =>
  questions
    .map((q) => q.trim().slice(0, Curated.maxQuestionChars))
    .filter((q) => q.length > 0)
    .slice(0, Curated.maxQuestions)

export const ConversationsHttpLive = HttpApiBuilder.group(
  DastyarApi,
  "conversations",
  (handlers) =>
    Effect.gen(function*() {
      const assistants = yield* Assistants
      const log = yield* ConversationLog
      const unanswered = yield* Unanswered
      const curated = yield* CuratedAnswers

      const scopeOf = (assistantCode: string) =>
        Effect.gen(function*() {
          const caller = yield* Auth.CurrentAccount
          const assistantId = yield* assistants.requireOwnership(caller, assistantCode)
          return { accountId: caller.accountId, assistantId }
        })

      return handlers
        .handle("list", ({ path, urlParams }) =>
          Effect.gen(function*() {
            const scope = yield* scopeOf(path.assistantCode)
            const page = yield* log.page(`assistant:${scope.assistantId}`, scope, urlParams)
            return { list: page.rows.map(toSummary), nextCursor: page.nextCursor }
          }))
        .handle("export", ({ path, urlParams }) =>
          Effect.map(scopeOf(path.assistantCode), (scope) => {
            const format = urlParams.format ?? "ndjson"
            return exportResponse(log.exportStream(scope, urlParams, format), format)
          }))
        .handle(
          "get",
          ({ path }) => Effect.flatMap(scopeOf(path.assistantCode), (scope) => log.get(scope, path.conversationId))
        )
        .handle(
          "delete",
          ({ path }) => Effect.flatMap(scopeOf(path.assistantCode), (scope) => log.remove(scope, path.conversationId))
        )
        .handle(
          "deletePrincipal",
          ({ path, urlParams }) =>
            Effect.flatMap(scopeOf(path.assistantCode), (scope) => log.removePrincipal(scope, urlParams.principal))
        )
        .handle("feedback", ({ path, payload }) =>
          Effect.flatMap(
            scopeOf(path.assistantCode),
            (scope) => log.feedback(scope, path.conversationId, path.messageId, payload)
          ))
        .handle("answerBetter", ({ path, payload }) =>
          Effect.gen(function*() {
            const scope = yield* scopeOf(path.assistantCode)
            const { question } = yield* log.questionOf(scope, path.conversationId, path.messageId)
            const questions = asVariants([question, ...(payload.questions ?? [])])
            if (questions.length === 0) return yield* new Conversations.MessageNotFound()
            return yield* curated.create(scope, {
              questions,
              answer: payload.answer,
              language: payload.language ?? null
            })
          }))
        .handle(
          "unanswered",
          ({ path, urlParams }) =>
            Effect.flatMap(scopeOf(path.assistantCode), (scope) => unanswered.report(scope.assistantId, urlParams))
        )
        .handle("groupToCurated", ({ path, payload }) =>
          Effect.gen(function*() {
            const scope = yield* scopeOf(path.assistantCode)
            const phrasings = yield* unanswered.phrasings(scope.assistantId, path.groupId, 20)
            if (Option.isNone(phrasings)) return yield* new Conversations.GroupNotFound()
            return yield* curated.create(scope, {
              questions: asVariants([...(payload.questions ?? []), ...phrasings.value]),
              answer: payload.answer,
              language: payload.language ?? null
            })
          }))
    })
)

export const AdminConversationsHttpLive = HttpApiBuilder.group(
  DastyarApi,
  "adminConversations",
  (handlers) =>
    Effect.gen(function*() {
      const log = yield* ConversationLog
      const accounts = yield* AccountsRepo
      const everyone: Scope = {}

      return handlers
        .handle("list", ({ urlParams }) =>
          Effect.gen(function*() {
            const scope: Scope = { accountId: urlParams.accountId, assistantId: urlParams.assistantId }
            const list = `admin:${urlParams.accountId ?? ""}:${urlParams.assistantId ?? ""}`
            const page = yield* log.page(list, scope, urlParams)
            return {
              list: page.rows.map((row) => ({ ...toSummary(row), accountId: row.accountId })),
              nextCursor: page.nextCursor
            }
          }))
        .handle("get", ({ path }) => log.get(everyone, path.conversationId))
        .handle("delete", ({ path }) => log.remove(everyone, path.conversationId))
        .handle("getRetention", ({ path }) =>
          accounts.conversationRetention(path.accountId).pipe(
            Effect.flatMap(Option.match({
              onNone: () => Effect.fail(new Conversations.RetentionAccountNotFound()),
              onSome: (days) => Effect.succeed({ days })
            }))
          ))
        .handle("setRetention", ({ path, payload }) =>
          accounts.setConversationRetention(path.accountId, payload.days).pipe(
            Effect.flatMap((found) =>
              found ? Effect.succeed(payload) : Effect.fail(new Conversations.RetentionAccountNotFound())
            )
          ))
    })
)
