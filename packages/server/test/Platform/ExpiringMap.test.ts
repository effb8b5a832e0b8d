/**
 * The expiring map behind the query-word expansion cache and every `LookupCache`: an entry is found
 * until its TTL has passed, setting a key again replaces its entry, and the
 * map never holds more than its capacity, however often keys are set again
 * (the soak's heap grew with Effect's `Cache` in this place).
 */
import { describe, expect, it } from "@effect/vitest"
import { makeExpiringMap } from "../../src/Platform/ExpiringMap"

describe("ExpiringMap", () => {
  it("finds an entry until its TTL has passed, then not", () => {
    const map = makeExpiringMap<string>(10, 5_000)
    map.set("word", "terms", 1_000)
    expect(map.get("word", 5_999)).toBe("terms")
    expect(map.get("word", 6_000)).toBeUndefined()
  })

  it("setting a key again replaces its value and restarts its TTL", () => {
    const map = makeExpiringMap<number>(10, 5_000)
    map.set("word", 1, 0)
    map.set("word", 2, 4_000)
    expect(map.get("word", 8_000)).toBe(2)
  })

  it("holds at most its capacity: when full it forgets every entry", () => {
    const map = makeExpiringMap<number>(3, 5_000)
    for (const [n, key] of ["a", "b", "c"].entries()) map.set(key, n, 0)
    map.set("d", 3, 0)
    expect(["a", "b", "c", "d"].map((key) => map.get(key, 1))).toEqual([undefined, undefined, undefined, 3])
  })

  it("delete forgets one entry and keeps the others", () => {
    const map = makeExpiringMap<number>(3, 5_000)
    map.set("a", 1, 0)
    map.set("b", 2, 0)
    map.delete("a")
    expect([map.get("a", 1), map.get("b", 1)]).toEqual([undefined, 2])
  })

  it("clear forgets every entry", () => {
    const map = makeExpiringMap<number>(3, 5_000)
    map.set("a", 1, 0)
    map.clear()
    expect(map.get("a", 1)).toBeUndefined()
  })
})
