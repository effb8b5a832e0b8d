/**
 * A turn's preparation: everything that can refuse it with a named error (assistant, model, conversation,
 * quota, attachments) and everything the answer needs (history, curated lookup, retrieval, the model request),
 * settled before the model runs, with the turn's quota reserved. A curated answer is looked up right after the
 * refusals: when one matches, the turn reads no history, runs no retrieval and reserves nothing (it costs no
 * tokens; its ledger row is written with the turn).
 */
import { Chat, type Conversations, type Models } from "@dastyar/domain"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { CostLedger, type MonthTotals, type Reservation, transcriptTokens } from "../Accounts/CostLedger"
import { type AssistantRow, AssistantsRepo } from "../Assistants/AssistantsRepo"
import { AppConfig } from "../Config"
import { type ChunkHit, ChunkSearch } from "../Documents/ChunkSearch"
import { newId } from "../Ids"
import { ModelCatalog } from "../Models/ModelCatalog"
import { ProductSearch } from "../Products/ProductSearch"
import { Transcriber } from "../Transcription/Transcriber"
import { readAttachments } from "./Attachments"
import type { ChatModelShape, ModelMessage, ModelRequest } from "./ChatModel"
import { ChatModels, fitReasoning } from "./ChatModels"
import type { TurnInput } from "./ChatTurns"
import { ConversationsRepo, type Owner } from "./ConversationsRepo"
import { resolveFollowUp } from "./FollowUp"
import { boundHistory } from "./History"
import { configuredLanguage, detectLanguage } from "./Language"
import { priceBounds } from "./PriceBounds"
import { productSearchTool } from "./ProductTool"
import { systemPrompt } from "./SystemPrompt"
import { estimateTokens } from "./Tokens"
import { type CuratedHit, CuratedLookup } from "./TurnHooks"

const defaultRagK = 5
const maxRagK = 20
const defaultMaxOutputTokens = 1024
/** Retrieval gets this long; past it the turn answers without sources. */
const retrievalTimeout = Duration.seconds(15)

const noHits: ReadonlyArray<ChunkHit> = []

/** Everything the answer needs, settled before the model runs. */
export interface Prepared {
  readonly owner: Owner
  readonly assistant: AssistantRow
  readonly allowance: number | null
  readonly conversationId: string
  readonly isNew: boolean
  readonly modelKey: string
  readonly model: ChatModelShape
  /** The model is the offline one already: nothing to fall back to. */
  readonly isOffline: boolean
  readonly reasoning: Models.Reasoning
  readonly request: ModelRequest
  readonly sources: ReadonlyArray<Chat.Source>
  readonly retrievalFailed: boolean
  readonly embeddingTokens: number
  readonly transcriptionTokens: number
  /** The turn's ledger row, written with an estimate before the model runs; none for a curated answer. */
  readonly reservation: Option.Option<Reservation>
  /** The account's month as the quota check read it (a curated answer's reply quotes it). */
  readonly month: MonthTotals
  readonly userContent: string
  readonly attachmentMeta: ReadonlyArray<unknown>
  readonly channel: Conversations.Channel
  /** A curated answer matched: it is the reply, and no model runs. */
  readonly curated: Option.Option<CuratedHit>
}

/** Builds `prepare` over the services it reads; a turn's refusals are its named errors. */
export const makePrepare = Effect.gen(function*() {
  const accounts = yield* AccountsRepo
  const assistants = yield* AssistantsRepo
  const catalog = yield* ModelCatalog
  const models = yield* ChatModels
  const conversations = yield* ConversationsRepo
  const ledger = yield* CostLedger
  const chunkSearch = yield* ChunkSearch
  const productSearch = yield* ProductSearch
  const transcriber = yield* Transcriber
  const { chat: settings } = yield* AppConfig
  const curatedLookup = yield* CuratedLookup

  const accountPlan = (accountId: string) => accounts.plan(accountId)

  /** Chunks above the relevance floor; a failure or timeout means none, and a degraded turn. */
  const retrieve = (assistantId: string, query: string, limit: number) =>
    chunkSearch.search({ assistantId, query, limit }).pipe(
      Effect.timeout(retrievalTimeout),
      Effect.map((hits) => ({
        hits: hits.filter((hit) => hit.score >= settings.minRelevance).slice(0, limit),
        failed: false
      })),
      // Only the expected failures (store unreadable, too slow) degrade the turn; a bug still surfaces.
      Effect.catchAll((error) =>
        Effect.logWarning("retrieval failed; answering without sources", error).pipe(
          Effect.annotateLogs({ assistantId, degraded: "retrieval_failed" }),
          Effect.as({ hits: noHits, failed: true })
        )
      )
    )

  return Effect.fn("Chat.prepare")(function*(input: TurnInput) {
    // Read together, checked in order: the assistant, the account's plan and its month (for the quota check).
    const [found, plan, month] = yield* Effect.all([
      assistants.findOwned(input.accountId, input.assistantId),
      accountPlan(input.accountId),
      ledger.month(input.accountId)
    ], { concurrency: "unbounded" })
    if (Option.isNone(found)) return yield* new Chat.ChatAssistantNotFound()
    const assistant = found.value
    if (assistant.status !== "active") return yield* new Chat.AssistantNotActive()
    if (Option.isNone(plan)) return yield* new Chat.ChatAssistantNotFound()
    const entry = catalog.findModel(assistant.model)
    const model = Option.isSome(entry) && catalog.isUsable(plan.value, assistant.model)
      ? yield* models.forModel(assistant.model, { imageDetail: assistant.imageDetail })
      : Option.none<ChatModelShape>()
    if (Option.isNone(entry) || Option.isNone(model)) return yield* new Chat.ModelUnavailable()

    const owner: Owner = { accountId: input.accountId, assistantId: assistant.id, principal: input.principal }
    const existing = input.conversationId === undefined
      ? Option.none<string>()
      : yield* conversations.findOwned(input.conversationId, owner)
    if (input.conversationId !== undefined && Option.isNone(existing)) return yield* new Chat.ConversationNotFound()

    const allowance = catalog.monthlyTokens(plan.value)
    if (allowance !== null && ledger.used(month) >= allowance) return yield* new Chat.QuotaExhausted()

    const attachments = yield* readAttachments(input.attachments ?? [], assistant.acceptVoice).pipe(
      Effect.provideService(Transcriber, transcriber)
    )
    const question = [input.message.trim(), ...attachments.transcripts].filter((part) => part.length > 0).join("\n")

    // A curated answer is looked up on the question alone (images unseen), before history and retrieval.
    const curated = question.length === 0 || attachments.images.length > 0
      ? Option.none<CuratedHit>()
      : yield* curatedLookup.match(assistant.id, question, (written) => {
        const configured = configuredLanguage(written)
        return configured === undefined || configured === detectLanguage(question)
      })
    const history = Option.isSome(existing) && Option.isNone(curated)
      ? boundHistory(yield* conversations.recent(existing.value), settings.historyTokens)
      : { messages: [], summary: undefined }
    const ragK = Math.min(Math.max(assistant.ragK ?? defaultRagK, 1), maxRagK)
    const followUp = resolveFollowUp(question, history.messages)
    const previousQuestion = followUp.previousQuestion
    const query = Option.isSome(curated) ? "" : followUp.query
    const retrieval = query.length === 0
      ? { hits: noHits, failed: false }
      : yield* retrieve(assistant.id, query, ragK)
    const passages = retrieval.hits.map((hit, index) => ({ n: index + 1, path: hit.path, text: hit.text }))

    const binding = entry.value.provider
    const isOffline = binding?._tag === "local"
    const vision = binding?._tag === "openai-compatible" && binding.vision
    const maxOutputTokens = assistant.maxOutputTokens ?? defaultMaxOutputTokens
    const reasoning = fitReasoning(assistant.reasoning, entry.value.supportedReasoning)
    const language = configuredLanguage(assistant.language) ?? detectLanguage(question)
    const system = systemPrompt({
      name: assistant.name,
      instruction: assistant.instruction,
      personality: assistant.personality,
      language: assistant.language,
      maxOutputTokens,
      passages,
      productSearch: assistant.productSearch,
      imagesUnseen: vision ? 0 : attachments.images.length,
      historySummary: history.summary
    })
    const messages: ReadonlyArray<ModelMessage> = [
      { role: "system", content: system },
      ...history.messages.map((message) => ({ role: message.role, content: message.content })),
      { role: "user", content: question, images: attachments.images }
    ]
    const request: ModelRequest = {
      messages,
      tools: assistant.productSearch ? [productSearchTool(productSearch, assistant.id, priceBounds(question))] : [],
      maxOutputTokens,
      reasoning,
      grounding: {
        question,
        previousQuestion,
        language,
        passages,
        assistantName: assistant.name,
        imagesAttached: attachments.images.length
      }
    }
    // Admitted only now, exactly (see CostLedger): the check above refuses before a transcription is paid for.
    // A curated answer spends no tokens, so it has nothing to reserve.
    const reservation = Option.isSome(curated) ? Option.none<Reservation>() : yield* ledger.reserve(
      { accountId: input.accountId, assistantId: assistant.id, model: assistant.model },
      estimateTokens(messages.map((message) => message.content).join("\n")) + maxOutputTokens +
        (query.length === 0 ? 0 : estimateTokens(query)),
      allowance
    ).pipe(Effect.flatMap(Option.match({
      onNone: () => Effect.fail(new Chat.QuotaExhausted()),
      onSome: (reserved) => Effect.succeed(Option.some(reserved))
    })))
    return {
      owner,
      assistant,
      allowance,
      conversationId: Option.getOrElse(existing, () => newId("conv")),
      isNew: Option.isNone(existing),
      modelKey: assistant.model,
      model: model.value,
      isOffline,
      reasoning,
      request,
      sources: Option.match(curated, {
        onNone: () =>
          retrieval.hits.map(({ chunk, fileId, path, score, text }) => ({
            fileId,
            path,
            chunk,
            text,
            score: Math.round(score * 1000) / 1000
          })),
        onSome: (hit) => [{
          fileId: hit.id,
          path: `curated/${hit.id}`,
          chunk: 0,
          text: hit.question,
          score: Math.round(hit.score * 1000) / 1000,
          kind: "curated" as const
        }]
      }),
      retrievalFailed: retrieval.failed,
      embeddingTokens: query.length === 0 ? 0 : estimateTokens(query),
      transcriptionTokens: attachments.transcripts.reduce((sum, text) => sum + transcriptTokens(text), 0),
      reservation,
      month,
      userContent: question,
      attachmentMeta: attachments.meta,
      channel: input.channel ?? "api",
      curated
    } satisfies Prepared
  })
})
