/**
 * A cache of a lookup: a key's value is kept for `timeToLive` from when its lookup began, for at most `capacity`
 * keys. It is an `ExpiringMap`, not Effect's `Cache`, because its keys are looked up again after every expiry and
 * invalidation, which grows Effect's `Cache` below its capacity (see `ExpiringMap`). A lookup that an invalidation
 * overtook answers its caller and is not kept. Concurrent misses of one key each run the lookup.
 */
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { makeExpiringMap } from "./ExpiringMap"

export interface LookupCache<Key, Value, E> {
  readonly get: (key: Key) => Effect.Effect<Value, E>
  /** The invalidations so far: taken when a read elsewhere begins, for `set`. */
  readonly generation: Effect.Effect<number>
  /**
   * Keeps a value read elsewhere (a statement that brought it along) as if the lookup had found it, unless an
   * invalidation came after `begunIn` (`generation` when that read began).
   */
  readonly set: (key: Key, value: Value, begunIn: number) => Effect.Effect<void>
  /** Forgets the key's value; a lookup under way for any key is not kept. */
  readonly invalidate: (key: Key) => Effect.Effect<void>
  readonly invalidateAll: Effect.Effect<void>
  /** Keys held (see `ExpiringMap.size`). */
  readonly size: Effect.Effect<number>
}

export const makeLookupCache = <Key, Value, E, R>(options: {
  readonly capacity: number
  readonly timeToLive: Duration.DurationInput
  /** The text a key is held under: equal keys give equal texts. */
  readonly keyOf: (key: Key) => string
  readonly lookup: (key: Key) => Effect.Effect<Value, E, R>
}): Effect.Effect<LookupCache<Key, Value, E>, never, R> =>
  Effect.map(Effect.context<R>(), (context) => {
    // Boxed, so that a value of `undefined` is told apart from none held.
    const held = makeExpiringMap<{ readonly value: Value }>(
      options.capacity,
      Duration.toMillis(Duration.decode(options.timeToLive))
    )
    /** Bumped by every invalidation: a lookup begun under an older one is not kept. */
    let generation = 0
    const forget = (forgetHeld: () => void) =>
      Effect.sync(() => {
        generation++
        forgetHeld()
      })
    return {
      get: (key) =>
        Effect.flatMap(Clock.currentTimeMillis, (now) => {
          const name = options.keyOf(key)
          const found = held.get(name, now)
          if (found !== undefined) return Effect.succeed(found.value)
          const begunIn = generation
          return options.lookup(key).pipe(
            Effect.provide(context),
            Effect.tap((value) =>
              Effect.sync(() => {
                if (begunIn === generation) held.set(name, { value }, now)
              })
            )
          )
        }),
      generation: Effect.sync(() => generation),
      set: (key, value, begunIn) =>
        Effect.map(Clock.currentTimeMillis, (now) => {
          if (begunIn === generation) held.set(options.keyOf(key), { value }, now)
        }),
      invalidate: (key) => forget(() => held.delete(options.keyOf(key))),
      invalidateAll: forget(() => held.clear()),
      size: Effect.sync(() => held.size())
    }
  })
