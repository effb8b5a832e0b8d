import { describe, expect, it } from "@effect/vitest"
import { importBatches, importLimits, jsonBytes } from "../src/ProductBatches"

const product = (index: number, title = `Product ${index}`) => ({ externalId: `sku-${index}`, title })

/** The exact bytes of the body an import request sends for a batch. */
const bodyBytes = (batch: ReadonlyArray<unknown>) => jsonBytes({ products: batch })

describe("importBatches", () => {
  it("cuts by the 1,000-product limit, keeping order", () => {
    const products = Array.from({ length: 2500 }, (_, index) => product(index))
    const batches = importBatches(products)
    expect(batches.map((batch) => batch.length)).toEqual([1000, 1000, 500])
    expect(batches.flat()).toEqual(products)
  })

  it("cuts by the body's exact UTF-8 size: every body fits, and the next product would not have", () => {
    // Persian titles are two bytes per letter: counting characters would overshoot the limit.
    const products = Array.from({ length: 40 }, (_, index) => product(index, "قوری سرامیکی آبی ".repeat(index % 7 + 1)))
    const maxBytes = 900
    const batches = importBatches(products, { maxBytes })
    expect(batches.length).toBeGreaterThan(3)
    expect(batches.flat()).toEqual(products)
    for (const [index, batch] of batches.entries()) {
      expect(bodyBytes(batch)).toBeLessThanOrEqual(maxBytes)
      const next = batches[index + 1]?.[0]
      if (next !== undefined) expect(bodyBytes([...batch, next])).toBeGreaterThan(maxBytes)
    }
  })

  it("the server's limits are 1,000 products and 3 MB", () => {
    expect(importLimits).toEqual({ maxItems: 1000, maxBytes: 3 * 1024 * 1024 })
  })

  it("a product larger than any body goes alone; nothing is dropped", () => {
    const large = product(1, "x".repeat(500))
    const batches = importBatches([product(0), large, product(2)], { maxBytes: 200 })
    expect(batches).toEqual([[product(0)], [large], [product(2)]])
    expect(importBatches([])).toEqual([])
  })

  it("both limits at once: the item limit when items are small, bytes when they are large", () => {
    const small = Array.from({ length: 7 }, (_, index) => product(index))
    expect(importBatches(small, { maxItems: 3, maxBytes: 10_000 }).map((batch) => batch.length)).toEqual([3, 3, 1])
    const sizes = importBatches(small, { maxItems: 3, maxBytes: bodyBytes(small.slice(0, 2)) }).map((batch) =>
      batch.length
    )
    expect(sizes).toEqual([2, 2, 2, 1])
  })
})
