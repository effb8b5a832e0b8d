/**
 * Search relevance of the product catalog: nDCG@10 and recall@10 of the
 * keyword side, the meaning side and the hybrid search over the fixture shop
 * (`packages/server/test/fixtures/catalog-relevance`, English and Persian).
 *
 *   pnpm tsx scripts/eval/catalog-relevance.ts [--losses]
 *
 * Boots the real service on a fresh database of `DATABASE_URL` (dropped
 * afterwards) or on embedded PGlite, imports the products through the API,
 * waits until all are indexed and prints the table; `--losses` also lists the
 * queries where hybrid ranks worse than keyword-only or meaning-only.
 */
import { formatTable, hybridLosses, runStandalone } from "../../packages/server/test/support/CatalogRelevance"

const figures = await runStandalone()
console.log(formatTable(figures))
if (process.argv.includes("--losses")) {
  const losses = hybridLosses(figures)
  console.log(`\nhybrid below a single side on ${losses.length} queries${losses.length > 0 ? ":" : ""}`)
  for (const loss of losses) console.log(loss)
}
