/**
 * Collection sizes per assistant (idf's document count). A stale size is
 * answered at once and counted again in the background (a count over 100k
 * rows is tens of ms a search should not wait for); only the first search of
 * an assistant, or one after `expiry`, waits. At most `capacity` assistants
 * are held, in an `ExpiringMap`: sizes are counted again every few seconds,
 * which would grow Effect's `Cache` below its capacity.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { makeExpiringMap } from "../Platform/ExpiringMap"

/** How long a size is fresh: a weight needs no exact count. */
export const sizeFreshness = Duration.seconds(10)
/** How long a stale size may still be answered while it is counted again. */
const expiry = Duration.minutes(10)
/** Assistants whose sizes are held at most. */
export const collectionSizesCapacity = 10_000

export interface CollectionSizes<E> {
  /**
   * The assistant's size; when none is held, counted by `first` if given (a statement that reads more besides),
   * else by the `load` the sizes were made with (which every later count uses).
   */
  readonly get: (assistantId: string, first?: Effect.Effect<number, E>) => Effect.Effect<number, E>
  /** Assistants held (see `ExpiringMap.size`). */
  readonly held: Effect.Effect<number>
}

export const makeCollectionSizes = <E, R>(
  load: (assistantId: string) => Effect.Effect<number, E, R>
): Effect.Effect<CollectionSizes<E>, never, R> =>
  Effect.map(Effect.context<R>(), (context) => {
    const sizes = makeExpiringMap<{ readonly size: number; readonly countedAt: number }>(
      collectionSizesCapacity,
      Duration.toMillis(expiry)
    )
    /** Assistants being counted again in the background, so that a count is not started twice. */
    const counting = new Set<string>()
    const count = (assistantId: string, now: number, first?: Effect.Effect<number, E>) =>
      (first ?? load(assistantId).pipe(Effect.provide(context))).pipe(
        Effect.tap((size) => Effect.sync(() => sizes.set(assistantId, { size, countedAt: now }, now)))
      )
    return {
      get: (assistantId, first) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const held = sizes.get(assistantId, now)
          if (held === undefined) return count(assistantId, now, first)
          if (now - held.countedAt < Duration.toMillis(sizeFreshness) || counting.has(assistantId)) {
            return Effect.succeed(held.size)
          }
          counting.add(assistantId)
          return count(assistantId, now).pipe(
            Effect.ignore,
            Effect.ensuring(Effect.sync(() => counting.delete(assistantId))),
            Effect.forkDaemon,
            Effect.as(held.size)
          )
        }),
      held: Effect.sync(() => sizes.size())
    }
  })
