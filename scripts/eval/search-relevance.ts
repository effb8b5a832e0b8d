/**
 * Search relevance: nDCG@10 and recall@10 per query group for keyword-only,
 * meaning-only and hybrid search beside two baselines (a naive title-trigram
 * ranking and MiniSearch), all in the same run, and hybrid's nDCG@10 by
 * `semanticRatio`. Tuning sets (the generated catalogs of
 * packages/server/test/support/SearchEvalCatalog.ts and
 * scripts/eval/data/search-tuning*.json) and the held-aside set
 * (scripts/eval/data/search-held-aside.json) are printed apart.
 *
 *   pnpm eval:search [--losses] [--misses]
 *
 * Runs the real service on a fresh database of `DATABASE_URL` (dropped
 * afterwards) or on embedded PGlite. `--losses` lists the TUNING queries
 * where hybrid ranks below a baseline or below keyword-only; `--misses` the
 * hand-judged TUNING queries hybrid does not rank perfectly. Held-aside
 * queries are never listed one by one.
 */
import { runStandalone } from "../../packages/server/test/support/SearchEval"
import { formatTables, lossesTo, missesOf } from "../../packages/server/test/support/SearchEvalReport"

const figures = await runStandalone()
console.log(formatTables(figures))
if (process.argv.includes("--losses")) {
  for (const baseline of ["naive", "minisearch", "keyword"]) {
    const losses = lossesTo(figures, baseline)
    console.log(`\nhybrid below ${baseline} on ${losses.length} tuning queries${losses.length > 0 ? ":" : ""}`)
    for (const loss of losses) console.log(loss)
  }
}
if (process.argv.includes("--misses")) {
  const misses = missesOf(figures)
  console.log(`\nhybrid below nDCG@10 1 on ${misses.length} hand-judged tuning queries${misses.length > 0 ? ":" : ""}`)
  for (const miss of misses) console.log(miss)
}
