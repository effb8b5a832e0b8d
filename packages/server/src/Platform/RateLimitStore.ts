/**
 * The in-memory rate-limit store (no `REDIS_URL`): `@effect/experimental`'s memory store counts the same way but
 * never drops a counter, so it grew by one for every client address, hook connection and key seen since start.
 * Here a counter that has run out (a window passed, a bucket refilled) counts as absent, and such counters are
 * dropped whenever the store holds twice as many as after its last sweep: memory follows the subjects of the
 * current window, not of the process's life.
 */
import { RateLimiter } from "@effect/experimental"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"

interface Window {
  count: number
  expiresAt: number
}

interface Bucket {
  tokens: number
  lastRefill: number
  readonly limit: number
  readonly refillMillis: number
}

/** Drops the entries `spent` says have run out, once there are `sweepAt` entries (at first `firstSweepAt`). */
const sweeper = <A>(entries: Map<string, A>, firstSweepAt: number, spent: (entry: A, now: number) => boolean) => {
  let sweepAt = firstSweepAt
  return (now: number) => {
    if (entries.size < sweepAt) return
    for (const [key, entry] of entries) if (spent(entry, now)) entries.delete(key)
    sweepAt = Math.max(firstSweepAt, entries.size * 2)
  }
}

/** The store, and how many counters it holds; `firstSweepAt` is the number held before the first sweep. */
export const makeMemoryStore = (firstSweepAt = 10_000) => {
  const windows = new Map<string, Window>()
  const buckets = new Map<string, Bucket>()
  const sweepWindows = sweeper(windows, firstSweepAt, (window: Window, now) => window.expiresAt <= now)
  const refilled = (bucket: Bucket, now: number) =>
    bucket.tokens + Math.floor((now - bucket.lastRefill) / bucket.refillMillis) >= bucket.limit
  const sweepBuckets = sweeper(buckets, firstSweepAt, refilled)

  const store: typeof RateLimiter.RateLimiterStore.Service = {
    fixedWindow: (options) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const refillMillis = Duration.toMillis(options.refillRate)
        let window = windows.get(options.key)
        if (window === undefined || window.expiresAt <= now) {
          sweepWindows(now)
          window = { count: 0, expiresAt: now }
          windows.set(options.key, window)
        }
        if (options.limit !== undefined && window.count + options.tokens > options.limit) {
          return [window.count + options.tokens, window.expiresAt - now] as const
        }
        window.count += options.tokens
        window.expiresAt += refillMillis * options.tokens
        return [window.count, window.expiresAt - now] as const
      }),
    tokenBucket: (options) =>
      Effect.map(Clock.currentTimeMillis, (now) => {
        const refillMillis = Duration.toMillis(options.refillRate)
        let bucket = buckets.get(options.key)
        if (bucket === undefined) {
          sweepBuckets(now)
          bucket = { tokens: options.limit, lastRefill: now, limit: options.limit, refillMillis }
          buckets.set(options.key, bucket)
        } else {
          const added = Math.floor((now - bucket.lastRefill) / refillMillis)
          if (added > 0) {
            bucket.tokens = Math.min(options.limit, bucket.tokens + added)
            bucket.lastRefill += added * refillMillis
          }
        }
        const left = bucket.tokens - options.tokens
        if (options.allowOverflow || left >= 0) bucket.tokens = left
        return left
      })
  }
  return { store, size: () => windows.size + buckets.size }
}

export const layerMemoryStore: Layer.Layer<RateLimiter.RateLimiterStore> = Layer.sync(
  RateLimiter.RateLimiterStore,
  () => makeMemoryStore().store
)
