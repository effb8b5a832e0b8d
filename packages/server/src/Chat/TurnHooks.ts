/**
 * What chat asks of the features above it, as tags it defines and they
 * implement (so chat imports none of them): a curated answer for a question,
 * and a note of every stored turn for the conversation log's report.
 * Both default to nothing, so chat runs without them.
 */
import type { Conversations } from "@dastyar/domain"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type * as Option from "effect/Option"

export interface CuratedHit {
  readonly id: string
  readonly answer: string
  /** The variant that matched, shown as the source's passage. */
  readonly question: string
  /** In [0, 1]; at least the curated threshold. */
  readonly score: number
}

export interface CuratedLookupShape {
  /** The curated answer of this assistant that matches the question closely, if any. */
  readonly match: (
    assistantId: string,
    question: string,
    /** Whether an answer written in this language (as configured on it, or null) suits the question. */
    acceptsLanguage: (language: string | null) => boolean
  ) => Effect.Effect<Option.Option<CuratedHit>>
  /** Counts a served hit. */
  readonly recordHit: (assistantId: string, id: string) => Effect.Effect<void>
}

export class CuratedLookup extends Context.Tag("CuratedLookup")<CuratedLookup, CuratedLookupShape>() {
  static readonly none = Layer.succeed(
    CuratedLookup,
    CuratedLookup.of({ match: () => Effect.succeedNone, recordHit: () => Effect.void })
  )
}

/** A turn as stored: the user's question and the answer's message id, with what went wrong, if anything. */
export interface StoredTurn {
  readonly accountId: string
  readonly assistantId: string
  readonly conversationId: string
  readonly channel: Conversations.Channel
  readonly answerMessageId: string
  readonly question: string
  readonly reasons: ReadonlyArray<Conversations.Reason>
}

export interface TurnObserverShape {
  /** Called after the turn is stored; its failures are logged, never the turn's. */
  readonly stored: (turn: StoredTurn) => Effect.Effect<void>
}

export class TurnObserver extends Context.Tag("TurnObserver")<TurnObserver, TurnObserverShape>() {
  static readonly none = Layer.succeed(TurnObserver, TurnObserver.of({ stored: () => Effect.void }))
}

/** A best passage scoring below this answered from thin evidence: the report lists it as weak retrieval. */
export const weakRetrievalScore = 0.5

/** Why a stored answer belongs in the report of unanswered questions; empty when it does not. */
export const turnReasons = (turn: {
  readonly curated: boolean
  /** The answerer said it does not know. */
  readonly declined: boolean
  readonly degraded: boolean
  readonly sourceScores: ReadonlyArray<number>
  readonly products: number
}): ReadonlyArray<Conversations.Reason> => {
  if (turn.curated) return []
  const reasons: Array<Conversations.Reason> = []
  if (turn.declined || (turn.sourceScores.length === 0 && turn.products === 0)) reasons.push("declined")
  if (turn.degraded) reasons.push("degraded")
  if (turn.sourceScores.length > 0 && Math.max(...turn.sourceScores) < weakRetrievalScore) {
    reasons.push("weak_retrieval")
  }
  return reasons
}
