/**
 * Following `nextCursor` from page to page, written once: the Effect face
 * returns the stream, the promise face iterates it (`Stream.toAsyncIterable`).
 */
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"

export interface CursorPage {
  readonly nextCursor: string | null
}

/** Every page from `firstCursor` (or the first page) to the last. */
export const pagesOf = <P extends CursorPage, E, R>(
  fetchPage: (cursor: string | undefined) => Effect.Effect<P, E, R>,
  firstCursor?: string | undefined
): Stream.Stream<P, E, R> =>
  Stream.paginateEffect(
    firstCursor,
    (cursor) =>
      Effect.map(fetchPage(cursor), (page) =>
        [page, page.nextCursor === null ? Option.none() : Option.some(page.nextCursor)] as const)
  )
