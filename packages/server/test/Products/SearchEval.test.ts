/**
 * The search relevance evaluation as a test (the figures are printed by
 * `pnpm eval:search`): hybrid with the offline embedder reaches nDCG@10 0.95
 * on every group but meaning, never falls below the naive title-trigram
 * baseline nor below keyword-only on any group.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { formatTables, runSearchEval, scoreOf } from "../support/SearchEval"
import { groups } from "../support/SearchEvalCatalog"
import { TestApp } from "../support/TestApp"

layer(TestApp(), { excludeTestServices: true, timeout: "600 seconds" })("search relevance evaluation", (it) => {
  it.effect(
    "hybrid ≥ 0.95 nDCG@10 on every non-meaning group, never below the naive baseline or keyword-only",
    () =>
      Effect.gen(function*() {
        const figures = yield* runSearchEval
        const report = formatTables(figures)
        expect(figures.queries).toBeGreaterThanOrEqual(300)
        for (const group of groups) {
          const ofGroup = (system: string) => scoreOf(figures, system, (query) => query.group === group).ndcg
          const hybrid = ofGroup("hybrid")
          if (group !== "meaning") expect.soft(hybrid, `${group}\n${report}`).toBeGreaterThanOrEqual(0.95)
          expect.soft(hybrid, `${group} vs naive\n${report}`).toBeGreaterThanOrEqual(ofGroup("naive"))
          expect.soft(hybrid, `${group} vs keyword\n${report}`).toBeGreaterThanOrEqual(ofGroup("keyword") - 0.001)
        }
      }),
    { timeout: 600_000 }
  )
})
