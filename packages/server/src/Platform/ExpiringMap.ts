/**
 * A map whose entries count as absent `ttlMillis` after they were set, holding
 * at most `capacity` keys; when full it forgets them all and starts over, as
 * `boundedMemo` does. For values set again and again under the same keys:
 * Effect's `Cache` makes a new recency-list node at every `set`, reload after
 * expiry or after `invalidateAll`, and removes old nodes only once the cache
 * is over capacity, so such a cache grows without bound below its capacity.
 */
export interface ExpiringMap<A> {
  readonly get: (key: string, now: number) => A | undefined
  readonly set: (key: string, value: A, now: number) => void
  readonly delete: (key: string) => void
  readonly clear: () => void
  /** Keys held, expired ones included until they are read or the map starts over. */
  readonly size: () => number
}

export const makeExpiringMap = <A>(capacity: number, ttlMillis: number): ExpiringMap<A> => {
  const entries = new Map<string, { readonly value: A; readonly setAt: number }>()
  return {
    get: (key, now) => {
      const entry = entries.get(key)
      if (entry === undefined) return undefined
      if (now - entry.setAt < ttlMillis) return entry.value
      entries.delete(key)
      return undefined
    },
    set: (key, value, now) => {
      if (!entries.has(key) && entries.size >= capacity) entries.clear()
      entries.set(key, { value, setAt: now })
    },
    delete: (key) => void entries.delete(key),
    clear: () => entries.clear(),
    size: () => entries.size
  }
}
