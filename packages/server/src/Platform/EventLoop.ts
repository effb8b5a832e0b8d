/**
 * Long CPU work in pieces: between two pieces the event loop takes a turn
 * (a macrotask, not a microtask), so requests waiting on a socket (a
 * search's reply from Postgres, a new HTTP request) are served in between
 * rather than after the whole batch.
 */
import * as Effect from "effect/Effect"

/** Waits for one turn of the event loop: the I/O callbacks due by then run first. */
export const turn: Effect.Effect<void> = Effect.async<void>((resume) => {
  const handle = setImmediate(() => resume(Effect.void))
  return Effect.sync(() => clearImmediate(handle))
})

/** `f` over `items`, `size` at a time, the event loop taking a turn between two pieces. */
export const mapInPieces = <A, B>(
  items: ReadonlyArray<A>,
  size: number,
  f: (piece: ReadonlyArray<A>) => ReadonlyArray<B>
): Effect.Effect<ReadonlyArray<B>> =>
  Effect.gen(function*() {
    const out: Array<B> = []
    for (let start = 0; start < items.length; start += size) {
      if (start > 0) yield* turn
      out.push(...f(items.slice(start, start + size)))
    }
    return out
  })
