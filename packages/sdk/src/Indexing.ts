/**
 * Waiting until products are searchable (as Meilisearch's `waitForTask` or
 * Algolia's `waitTask`), written once for both faces: each round lists the
 * catalog's `pending` products (200 a page, so a large import costs few
 * requests); when none of the awaited ones is pending, the `failed` ones are
 * read once and returned. Loop, backoff, deadline and 429s are `Polling`'s.
 */
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { pagesOf } from "./Paging"
import { type PollTiming, pollUntil, type Sleep, waitOutRateLimit } from "./Polling"

/** What one list request returns, reduced to what waiting needs. */
export interface StatePage {
  readonly list: ReadonlyArray<{ readonly externalId: string }>
  readonly nextCursor: string | null
}

export interface IndexedResult {
  /** The awaited products whose indexing failed (they are stored, but search cannot find them). */
  readonly failed: Array<string>
}

export interface IndexWaitLoop<E, R, T> {
  /** One page of the list route filtered by index state, 200 products a page. */
  readonly listPage: (state: "pending" | "failed", cursor: string | undefined) => Effect.Effect<StatePage, E, R>
  readonly rateLimitDelayMs: (error: E) => number | undefined
  /** The error at the deadline, with the externalIds still pending. */
  readonly timedOut: (pending: ReadonlyArray<string>) => T
  readonly timing?: Partial<PollTiming> | undefined
  readonly sleep?: Sleep | undefined
}

/** Waits until none of `externalIds` (every product when undefined) is `pending`. */
export const waitUntilIndexedWith = <E, R, T>(
  externalIds: ReadonlyArray<string> | undefined,
  loop: IndexWaitLoop<E, R, T>
): Effect.Effect<IndexedResult, E | T, R> => {
  const awaited = externalIds === undefined ? undefined : new Set(externalIds)
  const idsIn = (state: "pending" | "failed", deadline: number) =>
    pagesOf((cursor) => waitOutRateLimit(loop.listPage(state, cursor), loop.rateLimitDelayMs, deadline, loop.sleep))
      .pipe(
        Stream.mapConcat((page) => page.list.map((product) => product.externalId)),
        Stream.filter((externalId) => awaited === undefined || awaited.has(externalId)),
        Stream.runCollect,
        Effect.map(Chunk.toArray)
      )
  return pollUntil({
    start: { pending: externalIds ?? [], read: false, deadline: 0 },
    round: (_, deadline) => Effect.map(idsIn("pending", deadline), (pending) => ({ pending, read: true, deadline })),
    done: (state) => state.read && state.pending.length === 0,
    timedOut: (state) => loop.timedOut(state.pending),
    timing: loop.timing,
    sleep: loop.sleep
  }).pipe(
    Effect.flatMap(({ deadline }) => idsIn("failed", deadline)),
    Effect.map((failed) => ({ failed }))
  )
}
