/**
 * The `ChatTurns` implementation. A turn is prepared first (everything that
 * can refuse it with a named error: assistant, model, conversation, quota,
 * attachments), then answered, then persisted with its ledger entry in one
 * transaction. The answer never fails: a provider failure falls back to the
 * offline model and a retrieval failure to no sources, both `degraded`.
 */
import { Chat, type Conversations, type Models } from "@dastyar/domain"
import { SqlClient } from "@effect/sql"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { CostLedger, type Reservation, transcriptTokens } from "../Accounts/CostLedger"
import { type AssistantRow, AssistantsRepo } from "../Assistants/AssistantsRepo"
import { AppConfig } from "../Config"
import { type ChunkHit, ChunkSearch } from "../Documents/ChunkSearch"
import { newId } from "../Ids"
import { ModelCatalog } from "../Models/ModelCatalog"
import { ProductSearch } from "../Products/ProductSearch"
import { Transcriber } from "../Transcription/Transcriber"
import { readAttachments } from "./Attachments"
import type { ChatModelError, ChatModelShape, ModelAnswer, ModelMessage, ModelRequest } from "./ChatModel"
import { ChatModels, fitReasoning } from "./ChatModels"
import { ChatTurns, type TranscriptOwner, type TurnEvent, type TurnInput } from "./ChatTurns"
import { ConversationsRepo, type Owner } from "./ConversationsRepo"
import { resolveFollowUp } from "./FollowUp"
import { boundHistory } from "./History"
import { configuredLanguage, detectLanguage } from "./Language"
import { priceBounds } from "./PriceBounds"
import { productSearchTool } from "./ProductTool"
import { systemPrompt } from "./SystemPrompt"
import { estimateTokens } from "./Tokens"
import { type CuratedHit, CuratedLookup, TurnObserver, turnReasons } from "./TurnHooks"

/** What a stored answer's `meta` holds that a transcript shows again. */
const storedSources = Schema.decodeUnknownOption(Schema.Struct({ sources: Schema.optional(Schema.Array(Chat.Source)) }))

const defaultRagK = 5
const maxRagK = 20
const defaultMaxOutputTokens = 1024
/** Retrieval gets this long; past it the turn answers without sources. */
const retrievalTimeout = Duration.seconds(15)

const noHits: ReadonlyArray<ChunkHit> = []

/** The `model` of a reply served from a curated answer: no model ran. */
const curatedModel = "curated"

const curatedAnswer = (hit: CuratedHit): ModelAnswer => ({
  text: hit.answer,
  usage: { promptTokens: 0, completionTokens: 0 },
  products: []
})

/** Everything the answer needs, settled before the model runs. */
interface Prepared {
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
  /** The turn's ledger row, written with an estimate before the model runs. */
  readonly reservation: Reservation
  readonly userContent: string
  readonly attachmentMeta: ReadonlyArray<unknown>
  readonly channel: Conversations.Channel
  /** A curated answer matched: it is the reply, and no model runs. */
  readonly curated: Option.Option<CuratedHit>
}

export const layer = Layer.effect(
  ChatTurns,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
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
    const observer = yield* TurnObserver

    const accountPlan = (accountId: string) => accounts.plan(accountId)

    /** Chunks above the relevance floor; a failure or timeout means none, and a degraded turn. */
    const retrieve = (assistantId: string, query: string, limit: number) =>
      chunkSearch.search({ assistantId, query: query.slice(0, 2000), limit }).pipe(
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

    const prepare = Effect.fn("Chat.prepare")(function*(input: TurnInput) {
      const assistant = yield* assistants.findOwned(input.accountId, input.assistantId).pipe(
        Effect.flatMap(Option.match({
          onNone: () => Effect.fail(new Chat.ChatAssistantNotFound()),
          onSome: Effect.succeed
        }))
      )
      if (assistant.status !== "active") return yield* new Chat.AssistantNotActive()
      const plan = yield* accountPlan(input.accountId)
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
      if (allowance !== null && (yield* ledger.usedThisMonth(input.accountId)) >= allowance) {
        return yield* new Chat.QuotaExhausted()
      }

      const attachments = yield* readAttachments(input.attachments ?? [], assistant.acceptVoice).pipe(
        Effect.provideService(Transcriber, transcriber)
      )
      const question = [input.message.trim(), ...attachments.transcripts].filter((part) => part.length > 0).join("\n")
      const history = Option.isSome(existing)
        ? boundHistory(yield* conversations.recent(existing.value), settings.historyTokens)
        : { messages: [], summary: undefined }

      // A curated answer is looked up on the question alone (images unseen), before any retrieval.
      const curated = question.length === 0 || attachments.images.length > 0
        ? Option.none<CuratedHit>()
        : yield* curatedLookup.match(assistant.id, question, (written) => {
          const configured = configuredLanguage(written)
          return configured === undefined || configured === detectLanguage(question)
        })
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
      const reservation = yield* ledger.reserve(
        { accountId: input.accountId, assistantId: assistant.id, model: assistant.model },
        estimateTokens(messages.map((message) => message.content).join("\n")) + maxOutputTokens +
          (query.length === 0 ? 0 : estimateTokens(query)),
        allowance
      )
      if (Option.isNone(reservation)) return yield* new Chat.QuotaExhausted()
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
        reservation: reservation.value,
        userContent: question,
        attachmentMeta: attachments.meta,
        channel: input.channel ?? "api",
        curated
      } satisfies Prepared
    })

    const logFallback = (prepared: Prepared, error: ChatModelError) =>
      Effect.logWarning("chat model failed; the offline model answered").pipe(
        Effect.annotateLogs({
          assistantId: prepared.assistant.id,
          model: prepared.modelKey,
          degraded: "model_fallback",
          reason: error.reason,
          error: error.message
        })
      )

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
          if (prepared.isNew) {
            yield* conversations.create(prepared.conversationId, prepared.owner, {
              channel: prepared.channel,
              title: prepared.userContent
            })
          }
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
          ])
          yield* ledger.settle(prepared.reservation, entry)
          return ids
        }).pipe(sql.withTransaction, Effect.orDie)
        settled.add(prepared.reservation)
        if (Option.isSome(prepared.curated)) {
          yield* curatedLookup.recordHit(prepared.owner.assistantId, prepared.curated.value.id)
        }
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
        const quota = yield* ledger.snapshot(prepared.owner.accountId, prepared.allowance, entry)
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
        settled.has(prepared.reservation) ? Effect.void : ledger.settle(prepared.reservation, {
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

    /** The offline model cannot fail; a defect there is a bug, not a provider outage. */
    const offlineGenerate = (request: ModelRequest) => Effect.orDie(models.offline.generate(request))

    const reply = Effect.fn("Chat.reply")(function*(input: TurnInput) {
      const prepared = yield* prepare(input)
      if (Option.isSome(prepared.curated)) return yield* finish(prepared, curatedAnswer(prepared.curated.value), false)
      const { answer, fellBack } = yield* prepared.model.generate(prepared.request).pipe(
        Effect.map((answer) => ({ answer, fellBack: false })),
        Effect.catchAll((error) =>
          prepared.isOffline
            ? Effect.die(error)
            : logFallback(prepared, error).pipe(
              Effect.zipRight(offlineGenerate(prepared.request)),
              Effect.map((answer) => ({ answer, fellBack: true }))
            )
        ),
        Effect.onError(() => settleCutOff(prepared, undefined))
      )
      return yield* finish(prepared, answer, fellBack).pipe(Effect.ensuring(settleCutOff(prepared, answer.text)))
    })

    const replyStream = Effect.fn("Chat.replyStream")(function*(input: TurnInput) {
      const prepared = yield* prepare(input)
      if (Option.isSome(prepared.curated)) {
        const answer = curatedAnswer(prepared.curated.value)
        return Stream.concat(
          Stream.succeed<TurnEvent>({ _tag: "Delta", text: answer.text }),
          Stream.fromEffect(
            Effect.map(finish(prepared, answer, false), (reply): TurnEvent => ({ _tag: "Done", reply }))
          )
        )
      }
      return Stream.suspend(() => {
        // Per run: what the provider wrote before failing, if it did.
        let written = ""
        let fellBack = false
        const fallback = (error: ChatModelError) =>
          Stream.unwrap(
            logFallback(prepared, error).pipe(Effect.as(Stream.suspend(() => {
              fellBack = true
              // Text already sent stays; the offline answer follows it, and `done` carries both.
              const separator = written.length > 0 ? "\n\n" : ""
              let first = true
              return models.offline.stream(prepared.request).pipe(
                Stream.orDie,
                Stream.map((event) => {
                  if (event._tag === "Completed") {
                    return { ...event, answer: { ...event.answer, text: written + separator + event.answer.text } }
                  }
                  const text = first ? separator + event.text : event.text
                  first = false
                  return { ...event, text }
                })
              )
            })))
          )
        const events = prepared.model.stream(prepared.request).pipe(
          Stream.tap((event) =>
            Effect.sync(() => {
              if (event._tag === "Delta") written += event.text
            })
          ),
          Stream.catchAll((error) => prepared.isOffline ? Stream.die(error) : fallback(error))
        )
        return events.pipe(
          Stream.mapEffect((event): Effect.Effect<TurnEvent> =>
            event._tag === "Delta"
              ? Effect.succeed({ _tag: "Delta", text: event.text })
              : Effect.map(finish(prepared, event.answer, fellBack), (reply) => ({ _tag: "Done", reply }))
          ),
          Stream.ensuring(Effect.suspend(() => settleCutOff(prepared, written)))
        )
      })
    })

    const transcript = Effect.fn("Chat.transcript")(function*(owner: TranscriptOwner, conversationId: string) {
      if (Option.isNone(yield* conversations.findOwned(conversationId, owner))) return []
      const rows = yield* conversations.transcript(conversationId)
      return rows.map((row) => ({
        id: row.id,
        role: row.role,
        text: row.content,
        sources: Option.match(storedSources(row.meta), { onNone: () => [], onSome: (meta) => meta.sources ?? [] })
      }))
    })

    return ChatTurns.of({ reply, replyStream, transcript })
  })
).pipe(
  Layer.provide(Layer.mergeAll(
    ChatModels.Default,
    ConversationsRepo.Default,
    CostLedger.Default,
    AssistantsRepo.Default,
    AccountsRepo.Default
  ))
)
