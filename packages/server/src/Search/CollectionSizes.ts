/**
 * Collection sizes per assistant (idf's document count). A stale size is
 * answered at once and counted again in the background (a count over 100k
 * rows is tens of ms a search should not wait for); only the first search of
 * an assistant, or one after `expiry`, waits.
 */
import * as Cache from "effect/Cache"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/** How long a size is fresh: a weight needs no exact count. */
export const sizeFreshness = Duration.seconds(10)
/** How long a stale size may still be answered while it is counted again. */
const expiry = Duration.minutes(10)

export interface CollectionSizes<E> {
  readonly get: (assistantId: string) => Effect.Effect<number, E>
}

export const makeCollectionSizes = <E, R>(
  load: (assistantId: string) => Effect.Effect<number, E, R>
): Effect.Effect<CollectionSizes<E>, never, R> =>
  Effect.gen(function*() {
    const cache = yield* Cache.make({ capacity: 10_000, timeToLive: expiry, lookup: load })
    return {
      get: (assistantId) =>
        Effect.gen(function*() {
          const size = yield* cache.get(assistantId)
          const stats = yield* cache.entryStats(assistantId)
          const now = yield* Clock.currentTimeMillis
          if (Option.isSome(stats) && now - stats.value.loadedMillis >= Duration.toMillis(sizeFreshness)) {
            // A refresh already under way is awaited by this fork, not started again.
            yield* cache.refresh(assistantId).pipe(Effect.ignore, Effect.forkDaemon)
          }
          return size
        })
    }
  })
