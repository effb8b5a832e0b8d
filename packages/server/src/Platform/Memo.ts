/**
 * `compute` remembering its answers for up to `limit` keys; when full it forgets them all and starts over,
 * which costs nothing per call, where tracking recency would (its callers' working sets are far smaller).
 */
export const boundedMemo = <A>(limit: number, compute: (key: string) => A): (key: string) => A => {
  const known = new Map<string, A>()
  return (key) => {
    const hit = known.get(key)
    if (hit !== undefined) return hit
    if (known.size >= limit) known.clear()
    const fresh = compute(key)
    known.set(key, fresh)
    return fresh
  }
}
