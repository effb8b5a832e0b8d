/**
 * Search relevance over generated English and Persian catalogs (judged by
 * construction, see packages/server/test/support/SearchEvalCatalog.ts):
 * nDCG@10 and recall@10 per query group for a naive title-trigram baseline,
 * keyword-only, meaning-only and hybrid search, all in the same run, and
 * hybrid's nDCG@10 by `semanticRatio`.
 *
 *   pnpm eval:search [--losses]
 *
 * Runs the real service on a fresh database of `DATABASE_URL` (dropped
 * afterwards) or on embedded PGlite. `--losses` lists the queries where
 * hybrid ranks below the naive baseline or below keyword-only.
 */
import { formatTables, lossesToNaive, runStandalone } from "../../packages/server/test/support/SearchEval"

const figures = await runStandalone()
console.log(formatTables(figures))
if (process.argv.includes("--losses")) {
  const losses = lossesToNaive(figures)
  console.log(`\nhybrid below the naive baseline on ${losses.length} queries${losses.length > 0 ? ":" : ""}`)
  for (const loss of losses) console.log(loss)
  const belowKeyword = lossesToNaive(figures, "hybrid", "keyword")
  console.log(`\nhybrid below keyword-only on ${belowKeyword.length} queries${belowKeyword.length > 0 ? ":" : ""}`)
  for (const loss of belowKeyword) console.log(loss)
}
