import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { formatTable, hybridLosses, loadFixtures, runCatalogRelevance } from "../support/CatalogRelevance"
import { ndcgAt, precisionAt, recallAt } from "../support/RelevanceMetrics"
import { TestApp } from "../support/TestApp"

describe("relevance metrics", () => {
  const judgments = { a: 3, b: 1, c: 2 }

  it("nDCG@k is 1 for the ideal order and uses 2^g−1 gains with a log2 discount", () => {
    expect(ndcgAt(10, ["a", "c", "b"], judgments)).toBeCloseTo(1, 12)
    // DCG of [b, a]: 1/log2(2) + 7/log2(3); ideal [a, c, b]: 7 + 3/log2(3) + 1/2
    const ideal = 7 + 3 / Math.log2(3) + 0.5
    expect(ndcgAt(10, ["b", "x", "a"], judgments)).toBeCloseTo((1 + 7 / 2) / ideal, 12)
    expect(ndcgAt(10, ["x", "y"], judgments)).toBe(0)
  })

  it("nDCG@k and recall@k only look at the first k results; unreturned judgments still count", () => {
    expect(ndcgAt(1, ["a", "c"], judgments)).toBe(1)
    expect(ndcgAt(1, ["c", "a"], judgments)).toBeCloseTo(3 / 7, 12)
    expect(recallAt(2, ["x", "a", "c"], judgments)).toBeCloseTo(1 / 3, 12)
    expect(recallAt(10, ["c", "b", "a", "x"], judgments)).toBe(1)
  })

  it("precision counts what follows the relevant results, which nDCG@k and recall@k do not", () => {
    const padded = ["a", "c", "b", "x", "y", "z"]
    expect(ndcgAt(10, padded, judgments)).toBeCloseTo(ndcgAt(10, ["a", "c", "b"], judgments), 12)
    expect(recallAt(10, padded, judgments)).toBe(1)
    expect(precisionAt(10, ["a", "c", "b"], judgments)).toBe(1)
    expect(precisionAt(10, padded, judgments)).toBeCloseTo(1 / 2, 12)
    expect(precisionAt(2, padded, judgments)).toBe(1)
    expect(precisionAt(10, [], judgments)).toBe(0)
  })
})

describe("relevance fixtures", () => {
  it.effect("a mixed English and Persian shop with judged queries of every kind", () =>
    Effect.gen(function*() {
      const { products, queries } = yield* loadFixtures
      expect(products.length).toBeGreaterThanOrEqual(200)
      expect(queries.length).toBeGreaterThanOrEqual(50)
      const persian = products.filter((product) => /[\u0600-\u06FF]/.test(product.title)).length
      expect(persian / products.length).toBeGreaterThan(0.4)
      expect(persian / products.length).toBeLessThan(0.6)
      expect(queries.filter((query) => query.kind === "misspelt").length).toBeGreaterThanOrEqual(12)
      expect(queries.filter((query) => query.kind === "inflected").length).toBeGreaterThanOrEqual(12)
      for (const query of queries) expect(Object.values(query.relevant), query.id).toContain(3)
    }))
})

layer(TestApp(), { excludeTestServices: true, timeout: "300 seconds" })("catalog search relevance", (it) => {
  // The keyword side now corrects typos and stems itself, so hybrid no longer has to beat it on misspelt and
  // inflected queries (that expectation encoded the old keyword side's defect); the meaning side must not cost.
  it.effect(
    "hybrid is as good as either side overall and as keyword-only on misspelt and inflected queries",
    () =>
      Effect.gen(function*() {
        const figures = yield* runCatalogRelevance
        const report = `${formatTable(figures)}\n\nhybrid below a single side:\n${hybridLosses(figures).join("\n")}`
        const { hybrid, keyword, meaning } = figures.overall
        const tolerance = 0.005
        expect.soft(hybrid.ndcg, report).toBeGreaterThanOrEqual(Math.max(keyword.ndcg, meaning.ndcg) - tolerance)
        for (const kind of ["misspelt", "inflected"]) {
          const scores = figures.byKind[kind]
          expect.soft(scores?.hybrid.ndcg, `${kind}\n${report}`).toBeGreaterThanOrEqual(
            (scores?.keyword.ndcg ?? Number.NaN) - tolerance
          )
          expect.soft(scores?.hybrid.ndcg, `${kind}\n${report}`).toBeGreaterThan(scores?.meaning.ndcg ?? Number.NaN)
        }
      }),
    { timeout: 300_000 }
  )
})
