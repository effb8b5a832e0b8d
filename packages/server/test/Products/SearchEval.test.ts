/**
 * The search relevance evaluation as a test over the generated catalogs (the
 * figures of every set are printed by `pnpm eval:search`): hybrid with the
 * offline embedder reaches nDCG@10 0.95 on every group but meaning, never
 * falls below the naive title-trigram baseline nor below keyword-only on any
 * group, and not below MiniSearch on any group but brand and type.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { runSearchEval } from "../support/SearchEval"
import { groups } from "../support/SearchEvalCatalog"
import { formatTables, scoreOf } from "../support/SearchEvalReport"
import { TestApp } from "../support/TestApp"

layer(TestApp(), { excludeTestServices: true, timeout: "600 seconds" })("search relevance evaluation", (it) => {
  it.effect(
    "hybrid ≥ 0.95 nDCG@10 on every non-meaning group, never below naive, keyword-only, or MiniSearch but on brand+type",
    () =>
      Effect.gen(function*() {
        const figures = yield* runSearchEval
        const report = formatTables(figures)
        expect(figures.queries).toBeGreaterThanOrEqual(300)
        // Noise queries exist in the hand-judged sets only.
        const generatedGroups = groups.filter((group) => group !== "noise")
        for (const group of generatedGroups) {
          const ofGroup = (system: string) => scoreOf(figures, system, (query) => query.group === group).ndcg
          const hybrid = ofGroup("hybrid")
          if (group !== "meaning") expect.soft(hybrid, `${group}\n${report}`).toBeGreaterThanOrEqual(0.95)
          expect.soft(hybrid, `${group} vs naive\n${report}`).toBeGreaterThanOrEqual(ofGroup("naive"))
          // MiniSearch still ranks the asked brand first more often on brand and type; open for search tuning.
          if (group !== "brand+type") {
            expect.soft(hybrid, `${group} vs minisearch\n${report}`).toBeGreaterThanOrEqual(ofGroup("minisearch"))
          }
          expect.soft(hybrid, `${group} vs keyword\n${report}`).toBeGreaterThanOrEqual(ofGroup("keyword") - 0.001)
        }
      }),
    { timeout: 600_000 }
  )
})
