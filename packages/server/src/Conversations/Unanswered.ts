/**
 * The questions nobody answered. Grouping is incremental: when a turn is
 * stored declined, degraded or with weak retrieval (or its answer is later
 * rated down), its question joins the most similar group of the assistant
 * (`groupThreshold`, by keyword and meaning) or starts one. The report then
 * only counts rows of a date range per group, through an index: no
 * clustering runs per request.
 */
import type { Conversations } from "@dastyar/domain"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type StoredTurn, TurnObserver } from "../Chat/TurnHooks"
import { Embedder, vectorLiteral } from "../Search/Embedder"
import { groupThreshold, meaningWeight, questionTerms, termOverlap } from "../Search/QuestionSimilarity"
import { UnansweredRepo } from "./UnansweredRepo"

/** Nearest groups (by meaning) whose keywords are then compared too. */
const candidates = 5
const exampleCount = 5
const defaultRangeDays = 30

export interface Entry {
  readonly assistantId: string
  readonly conversationId: string
  readonly channel: string
  readonly answerMessageId: string
  readonly question: string
  readonly reasons: ReadonlyArray<Conversations.Reason>
}

export class Unanswered extends Effect.Service<Unanswered>()("Unanswered", {
  effect: Effect.gen(function*() {
    const repo = yield* UnansweredRepo
    const embedder = yield* Embedder

    /** The group the question joins (made when none is close enough). */
    const groupFor = Effect.fn("Unanswered.group")(function*(assistantId: string, question: string) {
      const { vectors } = yield* embedder.embed([question.slice(0, 2000)])
      const vector = vectorLiteral(vectors[0] ?? [])
      const terms = questionTerms(question)
      const near = yield* repo.nearestGroups(assistantId, embedder.modelId, vector, candidates)
      const scored = near
        .map((group) => ({
          id: group.id,
          score: meaningWeight * Math.max(0, group.cosine) + (1 - meaningWeight) * termOverlap(terms, group.terms)
        }))
        .filter((group) => group.score >= groupThreshold)
        .sort((a, b) => b.score - a.score)
      const best = scored[0]
      if (best !== undefined) {
        yield* repo.joinGroup(best.id, vector)
        return best.id
      }
      return yield* repo.createGroup({
        assistantId,
        modelId: embedder.modelId,
        label: question.slice(0, 500),
        terms,
        vector
      })
    })

    /** Adds the answer's question to the report (or adds reasons to its row). */
    const record = Effect.fn("Unanswered.record")(function*(entry: Entry) {
      if (entry.reasons.length === 0 || entry.question.trim().length === 0) return
      if (yield* repo.addReasons(entry.answerMessageId, entry.reasons)) return
      const groupId = yield* groupFor(entry.assistantId, entry.question)
      yield* repo.insert({ ...entry, groupId, question: entry.question.slice(0, 2000) })
    })

    const range = (query: Conversations.ReportQuery) => {
      const to = query.to === undefined ? new Date() : DateTime.toDateUtc(query.to)
      const from = query.from === undefined
        ? new Date(to.getTime() - defaultRangeDays * 86_400_000)
        : DateTime.toDateUtc(query.from)
      return { from, to }
    }

    const report = Effect.fn("Unanswered.report")(function*(assistantId: string, query: Conversations.ReportQuery) {
      const { from, to } = range(query)
      const groups = yield* repo.groups(assistantId, from, to, query.limit ?? 50)
      if (groups.length === 0) return { list: [], count: 0 }
      const examples = yield* repo.examples(groups.map((group) => group.groupId), from, to, exampleCount)
      const list = groups.map((group) => ({
        id: group.groupId,
        label: group.label,
        count: group.count,
        examples: examples.filter((example) => example.groupId === group.groupId).map((example) => example.question),
        firstSeen: DateTime.unsafeFromDate(group.firstSeen),
        lastSeen: DateTime.unsafeFromDate(group.lastSeen),
        channels: group.channels,
        reasons: group.reasons
      }))
      return { list, count: list.length }
    })

    return {
      record,
      /** An answer rated up again is no longer unanswered for its feedback. */
      clearNegative: repo.clearNegative,
      report: (assistantId: string, query: Conversations.ReportQuery) => report(assistantId, query).pipe(Effect.orDie),
      /** The group's distinct phrasings, most recent first, when it is this assistant's. */
      phrasings: repo.phrasings
    } as const
  }),
  dependencies: [UnansweredRepo.Default]
}) {}

/** Chat's `TurnObserver`: every stored turn with a reason goes to the report. */
export const observerLayer = Layer.effect(
  TurnObserver,
  Effect.map(Unanswered, (unanswered) =>
    TurnObserver.of({
      stored: (turn: StoredTurn) =>
        unanswered.record(turn).pipe(
          Effect.catchAll((error) => Effect.logWarning("could not add the question to the report", error))
        )
    }))
)
