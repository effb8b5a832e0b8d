/**
 * Retrieval over an assistant's ready documents: hybrid (pgvector + keyword)
 * top-k chunks, for chat. The implementation lands with the knowledge base (issue 5).
 */
import * as Context from "effect/Context"
import * as Data from "effect/Data"
import type * as Effect from "effect/Effect"

export interface ChunkHit {
  readonly fileId: string
  readonly path: string
  /** Chunk number, 0..n-1 within the document version. */
  readonly chunk: number
  readonly text: string
  /** Relevance in [0, 1], higher is closer; chat applies its relevance floor to it. */
  readonly score: number
}

export interface ChunkSearchShape {
  readonly search: (params: {
    readonly assistantId: string
    readonly query: string
    readonly limit: number
  }) => Effect.Effect<ReadonlyArray<ChunkHit>, ChunkSearchError>
}

/** The chunk store could not be read (chat answers without sources then, marked degraded). */
export class ChunkSearchError extends Data.TaggedError("ChunkSearchError")<{ readonly cause: unknown }> {}

export class ChunkSearch extends Context.Tag("ChunkSearch")<ChunkSearch, ChunkSearchShape>() {}
