/**
 * The `ChatTurns` implementation, wiring a turn's parts. A turn is prepared first (`TurnPreparation`:
 * everything that can refuse it with a named error: assistant, model, conversation, quota, attachments),
 * then answered, then persisted with its ledger entry in one transaction (`TurnFinish`). The answer never
 * fails: a provider failure falls back to the offline model and a retrieval failure to no sources, both
 * `degraded`.
 */
import { Chat } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { CostLedger } from "../Accounts/CostLedger"
import { AssistantsRepo } from "../Assistants/AssistantsRepo"
import type { ChatModelError, ModelAnswer, ModelRequest } from "./ChatModel"
import { ChatModels } from "./ChatModels"
import { ChatTurns, type TranscriptOwner, type TurnEvent, type TurnInput } from "./ChatTurns"
import { ConversationsRepo } from "./ConversationsRepo"
import { makeFinish } from "./TurnFinish"
import type { CuratedHit } from "./TurnHooks"
import { makePrepare, type Prepared } from "./TurnPreparation"

/** What a stored answer's `meta` holds that a transcript shows again. */
const storedSources = Schema.decodeUnknownOption(Schema.Struct({ sources: Schema.optional(Schema.Array(Chat.Source)) }))

const curatedAnswer = (hit: CuratedHit): ModelAnswer => ({
  text: hit.answer,
  usage: { promptTokens: 0, completionTokens: 0 },
  products: []
})

export const layer = Layer.effect(
  ChatTurns,
  Effect.gen(function*() {
    const models = yield* ChatModels
    const conversations = yield* ConversationsRepo
    const prepare = yield* makePrepare
    const { finish, settleCutOff } = yield* makeFinish

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
