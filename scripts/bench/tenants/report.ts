/** The tenants benchmark's output: a table for reading, then the same figures as one JSON line. */
import { execFileSync } from "node:child_process"
import * as os from "node:os"
import { type ProbeFigures, repoRoot } from "../catalog/service"
import { type Latency, table } from "../catalog/stats"
import type { PlannedShop } from "./seed"
import type { PlanFigures, Sizes } from "./state"

export interface Paired {
  readonly label: string
  readonly http: Latency
  readonly bare: Latency
  readonly meanHits: number
  readonly service: ProbeFigures
}

export interface Figures {
  readonly options: {
    readonly shops: number
    readonly scale: number
    readonly queries: number
    readonly budgetMs: number
    readonly noise: number
  }
  readonly loadBefore: ReadonlyArray<number>
  readonly loadAfter: ReadonlyArray<number>
  readonly totalProducts: number
  readonly shops: ReadonlyArray<PlannedShop>
  readonly postgresVersion: string
  readonly embedder: string
  readonly reads: ReadonlyArray<Paired>
  readonly reimport: {
    readonly products: number
    readonly acceptedMs: number
    readonly syncedMs: number
    readonly smallWrites: Latency
  }
  /** Absent with `--only reimport`, which reads nothing at rest. */
  readonly plans: { readonly small: PlanFigures; readonly big: PlanFigures } | undefined
  readonly sizes: Sizes
  readonly rss: { readonly end: number; readonly peak: number }
  readonly setup: Record<string, number | string>
  readonly runMs: number
}

const git = () => {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim()
    const dirty = execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], {
      cwd: repoRoot,
      encoding: "utf8"
    }).trim() !== ""
    return dirty ? `${commit} + uncommitted changes` : commit
  } catch {
    return "unknown"
  }
}

const ms = (value: number) => value.toFixed(1)

/** The columns of a table of reads, each beside its bare SQL, and one read's cells in them. */
export const pairedColumns = ["read", "n", "HTTP p50", "HTTP p99", "HTTP max", "bare p50", "bare p99", "hits"]
export const pairedCells = (r: Paired) => [
  r.label,
  String(r.http.n),
  ms(r.http.p50),
  ms(r.http.p99),
  ms(r.http.max),
  ms(r.bare.p50),
  ms(r.bare.p99),
  String(r.meanHits)
]

const load = (values: ReadonlyArray<number>) => values.map((x) => x.toFixed(1)).join(" ")

export const report = (figures: Figures) => {
  const { shops, reads, reimport, plans, sizes } = figures
  const bySize = (size: PlannedShop["size"]) => shops.filter((shop) => shop.size === size)
  const smalls = bySize("small").map((shop) => shop.products)
  const lines: Array<string> = ["", "Tenants benchmark: a thousand shops on one Postgres", ""]
  const header: ReadonlyArray<readonly [string, string]> = [
    ["node", `${process.version} (${os.platform()} ${os.arch()})`],
    [
      "cpus",
      `${os.cpus().length} x ${os.cpus()[0]?.model.trim() ?? "unknown"}, ${Math.round(os.totalmem() / 2 ** 30)} GB`
    ],
    ["load average", `${load(figures.loadBefore)} at start, ${load(figures.loadAfter)} at end`],
    ["database", `PostgreSQL ${figures.postgresVersion}, fresh database; embedder ${figures.embedder}`],
    [
      "shops",
      `${shops.length} (--shops ${figures.options.shops} --scale ${figures.options.scale}): 1 of ${
        bySize("big")[0]?.products
      }, ${bySize("large").length} of ${bySize("large")[0]?.products}, ${smalls.length} of ${Math.min(...smalls)}–${
        Math.max(...smalls)
      }; ${figures.totalProducts} products in all (with the source shop's)`
    ],
    ["code", `git ${git()}`],
    ["run time", `${(figures.runMs / 1000).toFixed(0)} s`]
  ]
  const width = Math.max(...header.map(([name]) => name.length))
  for (const [name, value] of header) lines.push(`  ${name.padEnd(width)}  ${value}`)
  lines.push(
    "",
    "Reads: each HTTP request, then the same read's statements straight to Postgres (bare SQL), one pair at a time"
  )
  lines.push(table(pairedColumns, reads.map(pairedCells)))
  lines.push(
    "",
    "The service meanwhile: its event loop's delay beyond 10 ms turns (monitorEventLoopDelay), GC pauses, CPU time",
    table(
      ["read", "loop p50", "loop p99", "loop max", "GC pauses", "GC ms", "GC max", "major GCs", "major ms", "CPU ms"],
      reads.map((r) => [
        r.label,
        ms(r.service.loop.p50),
        ms(r.service.loop.p99),
        ms(r.service.loop.max),
        String(r.service.gc.count),
        String(r.service.gc.totalMs),
        ms(r.service.gc.maxMs),
        String(r.service.gc.major),
        String(r.service.gc.majorMs),
        String(r.service.cpuMs)
      ])
    )
  )
  const atRest = plans === undefined ? undefined : reads[0]
  const during = reads[reads.length - 1]
  lines.push(
    `  targets: random shop p99 <= 25 ms at rest -> ${
      atRest === undefined ? "not measured" : atRest.http.p99 <= 25 ? "met" : "MISSED"
    }; <= 50 ms while the big one imports -> ${(during?.http.p99 ?? Infinity) <= 50 ? "met" : "MISSED"}`
  )
  lines.push(
    "",
    `Re-import of the big shop (${reimport.products} products, every title changed) through POST /products/import`,
    `  accepted in ${(reimport.acceptedMs / 1000).toFixed(1)} s, all synced ${
      (reimport.syncedMs / 1000).toFixed(1)
    } s after the first write`,
    `  a small shop's PUT meanwhile, until synced: p50 ${ms(reimport.smallWrites.p50)} ms, max ${
      ms(reimport.smallWrites.max)
    } ms (${reimport.smallWrites.n} probes)`
  )
  if (plans !== undefined) {
    lines.push(
      "",
      "Meaning side's plan (EXPLAIN ANALYZE, warm backend, median of 4)",
      table(["shop", "planning ms", "execution ms", "scan"], [
        ["random small shop", ms(plans.small.planningMs), ms(plans.small.executionMs), plans.small.scan],
        ["big shop", ms(plans.big.planningMs), ms(plans.big.executionMs), plans.big.scan]
      ])
    )
  }
  lines.push(
    "",
    `Postgres: database ${sizes.database}; ${sizes.hnswIndexes} per-assistant HNSW indexes, ${sizes.hnswSize} in all`,
    table(["table", "heap+toast", "indexes", "total"], sizes.tables.map((t) => [t.table, t.heap, t.indexes, t.total])),
    "",
    `Service RSS: ${figures.rss.end} MB at the end, ${figures.rss.peak} MB at most (sampled every 0.5 s)`,
    "",
    "Setup (not measured above)"
  )
  for (const [name, value] of Object.entries(figures.setup)) lines.push(`  ${name.padEnd(20)} ${value}`)
  console.log(lines.join("\n"))
  console.log(JSON.stringify({ benchmark: "tenants", ...figures, shops: undefined, cpus: os.cpus().length }))
}
