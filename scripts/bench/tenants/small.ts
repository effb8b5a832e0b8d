/**
 * `bench:tenants -- --only small`: a random small shop's search at rest and nothing else, beside its bare SQL,
 * with the statements (round trips) the service sends for one search in a shop it has not served yet (cold) and
 * for the next search in the same shop (warm), as the service's probe counts them.
 */
import * as os from "node:os"
import type { ProbeFigures, Service, Shop } from "../catalog/service"
import { table } from "../catalog/stats"
import { type Paired, pairedCells, pairedColumns } from "./report"

type Counted = ReadonlyArray<{ readonly text: string; readonly count: number }>

export interface StatementCounts {
  readonly cold: Counted
  readonly warm: Counted
  readonly searches: number
}

const add = (into: Map<string, number>, figures: ProbeFigures) => {
  for (const { count, text } of figures.statements ?? []) into.set(text, (into.get(text) ?? 0) + count)
}

const sorted = (counts: Map<string, number>): Counted =>
  [...counts].sort((a, b) => b[1] - a[1]).map(([text, count]) => ({ text, count }))

/** One search in each of `shops` never searched before, then a second one in the same shop, each counted apart. */
export const coldAndWarm = async (
  service: Service,
  shops: ReadonlyArray<Shop>,
  search: (shop: Shop, i: number) => Promise<number>
): Promise<StatementCounts> => {
  const cold = new Map<string, number>()
  const warm = new Map<string, number>()
  for (const [i, shop] of shops.entries()) {
    await service.probe()
    await search(shop, 2 * i)
    add(cold, await service.probe())
    await search(shop, 2 * i + 1)
    add(warm, await service.probe())
  }
  return { cold: sorted(cold), warm: sorted(warm), searches: shops.length }
}

const total = (counted: Counted) => counted.reduce((sum, s) => sum + s.count, 0)

export const reportSmall = (
  reads: ReadonlyArray<Paired>,
  statements: StatementCounts,
  options: { readonly shops: number; readonly scale: number },
  loadBefore: ReadonlyArray<number>,
  totalProducts: number
) => {
  const read = reads[reads.length - 1] ?? reads[0]
  if (read === undefined) return
  const perSearch = (counted: Counted) => (total(counted) / statements.searches).toFixed(1)
  const lines = [
    "",
    `Tenants benchmark, --only small (--shops ${options.shops} --scale ${options.scale}, ${totalProducts} products)`,
    `  load average ${loadBefore.map((x) => x.toFixed(1)).join(" ")} at start, ${
      os.loadavg().map((x) => x.toFixed(1)).join(" ")
    } at end`,
    table(
      [...pairedColumns, "CPU ms/search"],
      reads.map((r) => [...pairedCells(r), (r.service.cpuMs / Math.max(1, r.http.n)).toFixed(2)])
    ),
    `  statements per search: cold ${perSearch(statements.cold)}, warm ${perSearch(statements.warm)}; ` +
    `over the measured reads ${(total(read.service.statements ?? []) / Math.max(1, read.http.n)).toFixed(2)} ` +
    "(the indexer's polls included)"
  ]
  for (const [name, counted] of [["cold", statements.cold], ["warm", statements.warm]] as const) {
    lines.push(`  ${name}, ${statements.searches} searches:`)
    for (const s of counted) lines.push(`    ${String(s.count).padStart(4)}  ${s.text}`)
  }
  for (const measured of reads) {
    lines.push(`  ${measured.label}: statements (count, distinct texts, ms p50/p99/max from send to answer):`)
    for (const s of (measured.service.statements ?? []).slice(0, 15)) {
      const ms = s.ms === undefined ? "" : `${s.ms.p50}/${s.ms.p99}/${s.ms.max}`.padStart(16)
      lines.push(`    ${String(s.count).padStart(5)} ${String(s.texts).padStart(5)} ${ms}  ${s.text}`)
    }
  }
  console.log(lines.join("\n"))
  console.log(JSON.stringify({
    benchmark: "tenants-small",
    options,
    reads: reads.map((r) => ({ label: r.label, http: r.http, bare: r.bare, cpuMs: r.service.cpuMs })),
    statements: { cold: total(statements.cold), warm: total(statements.warm), searches: statements.searches }
  }))
}
