/**
 * A turn's end: `finish` persists the turn with its ledger entry in one transaction and builds the reply;
 * `settleCutOff` bills a turn that ended without `finish` for what it spent. A curated answer's turn writes its
 * ledger row in that transaction (no reservation came first), counts its hit meanwhile, and quotes the month as
 * the quota check read it (it added nothing).
 */
import type { Chat, Models } from "@dastyar/domain"
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { CostLedger, type Reservation } from "../Accounts/CostLedger"
import type { ModelAnswer } from "./ChatModel"
import { ChatModels } from "./ChatModels"
import { ConversationsRepo } from "./ConversationsRepo"
import { estimateTokens } from "./Tokens"
import { CuratedLookup, TurnObserver, turnReasons } from "./TurnHooks"
import type { Prepared } from "./TurnPreparation"

/** The `model` of a reply served from a curated answer: no model ran. */
const curatedModel = "curated"

/** Builds `finish` and `settleCutOff`, which share what has been settled. */
export const makeFinish = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const models = yield* ChatModels
  const conversations = yield* ConversationsRepo
  const ledger = yield* CostLedger
  const curatedLookup = yield* CuratedLookup
  const observer = yield* TurnObserver

  /** Persists the turn and its ledger entry, then builds the reply. */
  const finish = (prepared: Prepared, answer: ModelAnswer, fellBack: boolean) =>
    Effect.gen(function*() {
      const isCurated = Option.isSome(prepared.curated)
      const model = isCurated ? curatedModel : fellBack ? models.offlineKey : prepared.modelKey
      const reasoning: Models.Reasoning = fellBack || isCurated ? "none" : prepared.reasoning
      const degraded = fellBack || prepared.retrievalFailed
      // An answer that says it does not know cites nothing.
      const sources = answer.declined === true ? [] : prepared.sources
      const reasons = turnReasons({
        curated: isCurated,
        declined: answer.declined === true,
        degraded,
        sourceScores: prepared.sources.map((source) => source.score ?? 0),
        products: answer.products.length
      })
      const entry = {
        accountId: prepared.owner.accountId,
        assistantId: prepared.owner.assistantId,
        conversationId: prepared.conversationId,
        model,
        promptTokens: answer.usage.promptTokens,
        completionTokens: answer.usage.completionTokens,
        embeddingTokens: prepared.embeddingTokens,
        transcriptionTokens: prepared.transcriptionTokens
      }
      const [, answerId] = yield* Effect.gen(function*() {
        const start = prepared.isNew
          ? Option.some({ owner: prepared.owner, channel: prepared.channel, title: prepared.userContent })
          : Option.none()
        const ids = yield* conversations.append(prepared.conversationId, reasons.length > 0, [
          {
            role: "user",
            content: prepared.userContent,
            tokens: estimateTokens(prepared.userContent),
            meta: { attachments: prepared.attachmentMeta }
          },
          {
            role: "assistant",
            content: answer.text,
            tokens: estimateTokens(answer.text),
            meta: {
              sources,
              products: answer.products.map((product) => product.externalId),
              productTitles: answer.products.map((product) => product.title),
              model,
              reasoning,
              degraded,
              declined: reasons.includes("declined"),
              usage: {
                promptTokens: entry.promptTokens,
                completionTokens: entry.completionTokens,
                embeddingTokens: entry.embeddingTokens
              },
              ...(isCurated ? { curatedId: prepared.curated.value.id } : {})
            }
          }
        ], start)
        if (Option.isSome(prepared.reservation)) yield* ledger.settle(prepared.reservation.value, entry)
        else yield* ledger.record(entry)
        return ids
      }).pipe(
        sql.withTransaction,
        Effect.orDie,
        // The hit is no part of the turn's record: counted on another connection meanwhile, done before the reply.
        Effect.zipLeft(
          Option.match(prepared.curated, {
            onNone: () => Effect.void,
            onSome: (hit) => curatedLookup.recordHit(prepared.owner.assistantId, hit.id)
          }),
          { concurrent: true }
        )
      )
      if (Option.isSome(prepared.reservation)) settled.add(prepared.reservation.value)
      if (answerId !== undefined) {
        yield* observer.stored({
          accountId: prepared.owner.accountId,
          assistantId: prepared.owner.assistantId,
          conversationId: prepared.conversationId,
          channel: prepared.channel,
          answerMessageId: answerId,
          question: prepared.userContent,
          reasons
        }).pipe(
          Effect.catchAllCause((cause) => Effect.logWarning("the turn observer failed", cause))
        )
      }
      const quota = Option.isSome(prepared.reservation)
        ? yield* ledger.snapshot(prepared.owner.accountId, prepared.allowance, entry)
        : ledger.quotaOf(prepared.month, prepared.allowance, entry)
      return {
        conversationId: prepared.conversationId,
        ...(answerId === undefined ? {} : { messageId: answerId }),
        text: answer.text,
        sources,
        products: answer.products,
        model,
        reasoning,
        degraded,
        quota
      } satisfies Chat.ChatReply
    }).pipe(Effect.withSpan("Chat.finish"))

  /** Reservations settled by `finish`; any other is settled by `settleCutOff`. */
  const settled = new WeakSet<Reservation>()

  /**
   * A turn that ends without `finish` (the client went away, a defect) is billed for what it spent: the
   * prompt, the text streamed so far (all that was asked for when nothing tells), its embedding and voice.
   */
  const settleCutOff = (prepared: Prepared, written: string | undefined) =>
    Effect.suspend(() =>
      Option.isNone(prepared.reservation) || settled.has(prepared.reservation.value)
        ? Effect.void
        : ledger.settle(prepared.reservation.value, {
        accountId: prepared.owner.accountId,
        assistantId: prepared.owner.assistantId,
        conversationId: null,
        model: prepared.modelKey,
        promptTokens: estimateTokens(prepared.request.messages.map((message) => message.content).join("\n")),
        completionTokens: written === undefined ? prepared.request.maxOutputTokens : estimateTokens(written),
        embeddingTokens: prepared.embeddingTokens,
        transcriptionTokens: prepared.transcriptionTokens
      })
    ).pipe(Effect.uninterruptible)

  return { finish, settleCutOff }
})
