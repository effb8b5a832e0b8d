/**
 * Curated answers: the shop's CRUD, and the match chat asks for
 * (`CuratedLookup`). Each question variant is keyed once, when written (its
 * terms and vector); a question is keyed once per turn and compared with every
 * variant of the assistant, held in memory per assistant: every write here
 * forgets the assistant's entry (another instance sees a write within
 * `cacheTtl`), so a turn that matches nothing reads no table.
 */
import { Curated } from "@dastyar/domain"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { type CuratedHit, CuratedLookup } from "../Chat/TurnHooks"
import { newId } from "../Ids"
import { makeLookupCache } from "../Platform/LookupCache"
import { Embedder } from "../Search/Embedder"
import { curatedThreshold, type QuestionKey, questionTerms, similarity } from "../Search/QuestionSimilarity"
import { CuratedRepo, type CuratedRow, type CuratedWrite, toCuratedAnswer, type Variant } from "./CuratedRepo"

const cacheTtl = Duration.seconds(10)

export interface CuratedOwner {
  readonly accountId: string
  readonly assistantId: string
}

/** The best variant of the rows for a keyed question, when it reaches the threshold. */
export const bestMatch = (
  rows: ReadonlyArray<CuratedRow>,
  key: QuestionKey,
  acceptsLanguage: (language: string | null) => boolean
): Option.Option<CuratedHit> => {
  let best: CuratedHit | undefined
  for (const row of rows) {
    if (!acceptsLanguage(row.language)) continue
    for (const variant of row.variants) {
      const score = similarity(key, variant)
      if (score >= curatedThreshold && (best === undefined || score > best.score)) {
        best = { id: row.id, answer: row.answer, question: variant.question, score }
      }
    }
  }
  return Option.fromNullable(best)
}

export class CuratedAnswers extends Effect.Service<CuratedAnswers>()("CuratedAnswers", {
  effect: Effect.gen(function*() {
    const repo = yield* CuratedRepo
    const embedder = yield* Embedder

    // Forgotten on every write; a read that began before a write is not kept.
    const cache = yield* makeLookupCache({
      capacity: 2_000,
      timeToLive: cacheTtl,
      keyOf: (assistantId: string) => assistantId,
      lookup: repo.all
    })

    const keyOf = (texts: ReadonlyArray<string>) =>
      embedder.embed(texts).pipe(
        Effect.map(({ vectors }) => texts.map((text, i) => ({ terms: questionTerms(text), vector: vectors[i] ?? [] })))
      )

    /** Distinct questions (by normal form), each keyed. */
    const writeOf = Effect.fn("Curated.key")(function*(
      questions: ReadonlyArray<string>,
      answer: string,
      language: string | null
    ) {
      const distinct = [...new Map(questions.map((q) => [q.trim().toLowerCase(), q.trim()])).values()]
        .filter((q) => q.length > 0)
      const keys = yield* keyOf(distinct).pipe(Effect.orDie)
      const variants: ReadonlyArray<Variant> = distinct.map((question, i) => ({
        question,
        terms: keys[i]?.terms ?? [],
        vector: keys[i]?.vector ?? []
      }))
      return { questions: distinct, answer: answer.trim(), language, modelId: embedder.modelId, variants }
    })

    const requireRoom = (assistantId: string, adding: number) =>
      Effect.flatMap(
        repo.count(assistantId),
        (n) =>
          n + adding > Curated.maxCuratedPerAssistant ? Effect.fail(new Curated.CuratedLimitReached()) : Effect.void
      )

    const insert = (owner: CuratedOwner, write: CuratedWrite) =>
      repo.insert(owner, newId("cur"), write).pipe(Effect.tap(() => cache.invalidate(owner.assistantId)))

    const create = Effect.fn("Curated.create")(function*(owner: CuratedOwner, input: Curated.CuratedCreate) {
      yield* requireRoom(owner.assistantId, 1)
      const write = yield* writeOf(input.questions, input.answer, input.language ?? null)
      return toCuratedAnswer(yield* insert(owner, write))
    })

    const notFound = () => Effect.fail(new Curated.CuratedNotFound())

    const get = (assistantId: string, id: string) =>
      repo.find(assistantId, id).pipe(
        Effect.flatMap(Option.match({ onNone: notFound, onSome: (row) => Effect.succeed(toCuratedAnswer(row)) }))
      )

    const update = Effect.fn("Curated.update")(
      function*(assistantId: string, id: string, patch: Curated.CuratedUpdate) {
        const found = yield* repo.find(assistantId, id)
        if (Option.isNone(found)) return yield* notFound()
        const current = found.value
        const write = yield* writeOf(
          patch.questions ?? current.questions,
          patch.answer ?? current.answer,
          patch.language === undefined ? current.language : patch.language
        )
        const updated = yield* repo.update(assistantId, id, write)
        yield* cache.invalidate(assistantId)
        return yield* Option.match(updated, { onNone: notFound, onSome: (row) => Effect.succeed(toCuratedAnswer(row)) })
      }
    )

    const remove = (assistantId: string, id: string) =>
      repo.remove(assistantId, id).pipe(
        Effect.tap(() => cache.invalidate(assistantId)),
        Effect.flatMap((removed) => removed ? Effect.succeed(null) : notFound())
      )

    const match = (assistantId: string, question: string, acceptsLanguage: (language: string | null) => boolean) =>
      Effect.gen(function*() {
        const rows = yield* cache.get(assistantId)
        if (rows.length === 0) return Option.none<CuratedHit>()
        const [key] = yield* keyOf([question.slice(0, 2000)])
        if (key === undefined) return Option.none<CuratedHit>()
        // Variants keyed by another embedder are compared by their terms only (the vectors' lengths differ).
        return bestMatch(rows, key, acceptsLanguage)
      }).pipe(
        // An embedder outage means no curated answer this turn, not a failed turn.
        Effect.catchTag("EmbedderError", () => Effect.succeedNone),
        Effect.withSpan("Curated.match")
      )

    return {
      create,
      get,
      update,
      remove,
      list: (assistantId: string, limit: number, offset: number) =>
        Effect.all({ list: repo.page(assistantId, limit, offset), count: repo.countListed(assistantId) }).pipe(
          Effect.map(({ count, list }) => ({ list: list.map(toCuratedAnswer), count }))
        ),
      all: (assistantId: string) => repo.all(assistantId),
      /** Creates or, when `replaceId` is given, replaces; for the CSV import. */
      put: Effect.fn("Curated.put")(function*(
        owner: CuratedOwner,
        replaceId: string | undefined,
        input: Curated.CuratedCreate
      ) {
        const write = yield* writeOf(input.questions, input.answer, input.language ?? null)
        if (replaceId !== undefined) {
          yield* repo.update(owner.assistantId, replaceId, write)
          yield* cache.invalidate(owner.assistantId)
          return "updated" as const
        }
        yield* insert(owner, write)
        return "created" as const
      }),
      requireRoom,
      match,
      recordHit: (assistantId: string, id: string) => repo.recordHit(assistantId, id)
    } as const
  }),
  dependencies: [CuratedRepo.Default]
}) {}

/** Chat's `CuratedLookup`, answered by this feature. */
export const lookupLayer = Layer.effect(
  CuratedLookup,
  Effect.map(CuratedAnswers, (curated) => CuratedLookup.of({ match: curated.match, recordHit: curated.recordHit }))
)
