/**
 * Search relevance: nDCG@10, recall@10, the precision of the page and the
 * results returned per query group for keyword-only, meaning-only and hybrid
 * search beside two baselines (a naive title-trigram ranking and MiniSearch),
 * all in the same run, and hybrid's nDCG@10 by
 * `semanticRatio`. Tuning sets (the generated catalogs of
 * packages/server/test/support/SearchEvalCatalog.ts and
 * scripts/eval/data/search-tuning*.json) and each held-aside set
 * (scripts/eval/data/search-held-aside.json, -3 and -4) are printed apart.
 *
 *   pnpm eval:search [--losses] [--misses] [--unanswered] [--tuning]
 *
 * Runs the real service on a fresh database of `DATABASE_URL` (dropped
 * afterwards) or on embedded PGlite. `--losses` lists the TUNING queries
 * where hybrid ranks below a baseline, keyword-only or meaning-only; `--misses` the
 * hand-judged TUNING queries hybrid does not rank perfectly; `--unanswered`, per TUNING set and group, the queries
 * hybrid answers with nothing and what meaning-only finds for them. Held-aside
 * queries are never listed one by one; `--tuning` leaves the held-aside sets
 * out altogether, for runs made while tuning.
 */
import { runStandalone } from "../../packages/server/test/support/SearchEval"
import { formatTables, lossesTo, missesOf, unansweredOf } from "../../packages/server/test/support/SearchEvalReport"

const figures = await runStandalone({ heldAside: !process.argv.includes("--tuning") })
console.log(formatTables(figures))
if (process.argv.includes("--losses")) {
  for (const baseline of ["naive", "minisearch", "keyword", "meaning"]) {
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
if (process.argv.includes("--unanswered")) {
  const rows = unansweredOf(figures)
  console.log(`\nhybrid answers nothing (per tuning set and group; meaning-only on those queries)${rows.length > 0 ? ":" : ""}`)
  for (const row of rows) console.log(row)
}
