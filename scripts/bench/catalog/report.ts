/** The catalog benchmark's report: its figures as plain-text tables, then as one JSON line. */
import { execFileSync } from "node:child_process"
import * as os from "node:os"
import { modelId as offlineModelId } from "../../../packages/server/src/Search/OfflineEmbedder"
import { searchLimit } from "./bare"
import type { BenchQuery } from "./products"
import type { RecallFigures } from "./recall"
import { repoRoot } from "./service"
import { type Latency, round, table } from "./stats"

export const importBatch = 1000
export const recallK = 10

export interface ImportFigures {
  readonly products: number
  readonly batches: number
  /** First request to the last import answered. */
  readonly acceptedMs: number
  /** First request to no product pending. */
  readonly syncedMs: number
  readonly productsPerSecond: number
  readonly batchLatency: Latency
}

export interface SearchableFigures {
  readonly probes: number
  readonly write: Latency
  /** From the start of the PUT until the product is among the search results. */
  readonly searchable: Latency
}

export interface SearchFigures {
  readonly label: string
  readonly assistantProducts: number
  readonly tableRows: number
  readonly latency: Latency
  readonly meanHits: number
  /** The three slowest measured queries, to see what the tail is made of. */
  readonly slowest: ReadonlyArray<{ readonly ms: number; readonly query: BenchQuery }>
  /** The same queries straight to Postgres (Postgres runs only). */
  bare?: Latency
}

/** A p99 target of one measured catalog. */
export interface Target {
  readonly label: string
  readonly p99: number
  readonly target: number
}

export interface Report {
  readonly options: {
    readonly queries: number
    readonly warmup: number
    readonly budgetMs: number
    readonly noise: number
  }
  readonly loadBefore: ReadonlyArray<number>
  readonly runMs: number
  /** Null on embedded PGlite. */
  readonly postgresVersion: string | null
  readonly pgvectorVersion: string
  readonly import1k: ImportFigures
  readonly import10k: ImportFigures
  readonly searchable: SearchableFigures
  readonly search: ReadonlyArray<SearchFigures>
  readonly targets: ReadonlyArray<Target>
  readonly recall: ReadonlyArray<RecallFigures & { readonly label: string; readonly efSearch: number }>
  readonly setup: Readonly<Record<string, number | string>>
}

const gitDescription = () => {
  try {
    const commit = execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: repoRoot, encoding: "utf8" }).trim()
    const dirty =
      execFileSync("git", ["status", "--porcelain", "--untracked-files=no"], { cwd: repoRoot, encoding: "utf8" })
        .trim() !== ""
    return dirty ? `${commit} + uncommitted changes` : commit
  } catch {
    return "unknown"
  }
}

const seconds = (ms: number) => (ms / 1000).toFixed(2)
const ms = (value: number) => value.toFixed(1)

export const printReport = (
  {
    import10k,
    import1k,
    loadBefore,
    options,
    pgvectorVersion,
    postgresVersion,
    recall,
    runMs,
    search,
    searchable,
    setup,
    targets
  }: Report
) => {
  const loadAfter = os.loadavg()
  const cpus = os.cpus()
  const totalMs = runMs
  const lines: Array<string> = []
  lines.push("", "Catalog benchmark: import, indexing and search", "")
  const header: ReadonlyArray<readonly [string, string]> = [
    ["node", `${process.version} (${os.platform()} ${os.arch()})`],
    ["cpus", `${cpus.length} x ${cpus[0]?.model.trim() ?? "unknown"}`],
    [
      "load average",
      `${loadBefore.map((x) => x.toFixed(1)).join(" ")} at start, ${
        loadAfter.map((x) => x.toFixed(1)).join(" ")
      } at end (shared machine: figures are noisy)`
    ],
    [
      "database",
      postgresVersion === null
        ? "embedded PGlite (no DATABASE_URL): only the 1k and 10k steps ran"
        : `PostgreSQL ${postgresVersion}, pgvector ${pgvectorVersion}, fresh database`
    ],
    ["embedder", `${offlineModelId} (built-in offline default)`],
    ...(recall.length === 0 ? [] : [
      [
        "copies' noise",
        `±${options.noise / 2} per component (--noise ${options.noise}; see catalog/replicate.ts)`
      ] as const
    ]),
    ["code", `git ${gitDescription()}`],
    ["client", "one request at a time over loopback from this process; the service is a separate process"],
    ["run time", `${seconds(totalMs)} s`]
  ]
  const width = Math.max(...header.map(([name]) => name.length))
  for (const [name, value] of header) lines.push(`  ${name.padEnd(width)}  ${value}`)

  lines.push("", `Import: POST /products/import in batches of ${importBatch}, then polling until no product is pending`)
  lines.push(table(
    ["products", "batches", "imported s", "all synced s", "products/s", "batch p50 ms", "batch max ms"],
    [import1k, import10k].map((r) => [
      String(r.products),
      String(r.batches),
      seconds(r.acceptedMs),
      seconds(r.syncedMs),
      String(r.productsPerSecond),
      ms(r.batchLatency.p50),
      ms(r.batchLatency.max)
    ])
  ))
  lines.push(
    `  target: 1,000 products fully synced within 10 s -> ${import1k.syncedMs <= 10_000 ? "met" : "MISSED"} (${
      seconds(import1k.syncedMs)
    } s)`
  )

  lines.push(
    "",
    `Searchable after a write: PUT a new product, then search for a word of its title until it is found (${searchable.probes} probes)`
  )
  lines.push(table(["", "p50 ms", "max ms"], [
    ["PUT answered", ms(searchable.write.p50), ms(searchable.write.max)],
    ["found by search", ms(searchable.searchable.p50), ms(searchable.searchable.max)]
  ]))
  lines.push(
    `  target: searchable within 2 s -> ${searchable.searchable.max <= 2_000 ? "met" : "MISSED"} (max ${
      seconds(searchable.searchable.max)
    } s)`
  )

  lines.push(
    "",
    `Search latency: POST /products/search (hybrid, limit ${searchLimit}; 1 in 3 queries filtered by category or price), one at a time after ${options.warmup} warm-up, up to ${options.queries} queries or ${
      options.budgetMs / 1000
    } s; bare SQL: the same queries' statements sent straight to Postgres (the keyword candidates with their distances; the nearest products when they do not fill a page)`
  )
  lines.push(table(
    [
      "catalog",
      "rows in table",
      "queries",
      "p50 ms",
      "p99 ms",
      "max ms",
      "mean ms",
      "hits",
      "bare SQL p50 ms",
      "bare SQL p99 ms"
    ],
    search.map((r) => [
      r.label,
      String(r.tableRows),
      String(r.latency.n),
      ms(r.latency.p50),
      ms(r.latency.p99),
      ms(r.latency.max),
      ms(r.latency.mean),
      String(r.meanHits),
      r.bare === undefined ? "-" : ms(r.bare.p50),
      r.bare === undefined ? "-" : ms(r.bare.p99)
    ])
  ))
  for (const { label, p99, target } of targets) {
    lines.push(`  target: p99 <= ${target} ms for ${label} -> ${p99 <= target ? "met" : "MISSED"} (${ms(p99)} ms)`)
  }
  lines.push("  slowest queries:")
  for (const r of search) {
    lines.push(
      `    ${r.label}: ${r.slowest.map(({ ms: took, query }) => `${ms(took)} ms ${JSON.stringify(query)}`).join("; ")}`
    )
  }

  if (recall.length > 0) {
    const first = recall[0]
    lines.push(
      "",
      `Meaning side: recall@${
        first?.k ?? recallK
      } of POST /products/search with semanticRatio 1 (the assistant's own HNSW index, iterative scans, hnsw.ef_search by catalog size) against the exact top ${
        first?.k ?? recallK
      } in SQL (index scans off), the same queries and filters`
    )
    lines.push(table(
      [
        "catalog",
        "queries",
        "ef_search",
        `recall@${first?.k ?? recallK}`,
        "all right",
        "HTTP p50 ms",
        "HTTP p99 ms",
        "exact SQL p50 ms",
        "plan"
      ],
      recall.map((r) => [
        r.label,
        String(r.queries),
        String(r.efSearch),
        r.recall.toFixed(3),
        `${r.perfect}/${r.queries}`,
        ms(r.latency.p50),
        ms(r.latency.p99),
        ms(r.exactLatency.p50),
        r.plan
      ])
    ))
  }
  if (Object.keys(setup).length > 0) {
    lines.push("", "Setup (not measured above)")
    for (const [name, value] of Object.entries(setup)) lines.push(`  ${name.padEnd(24)} ${value}`)
    lines.push(
      "  Big catalogs are copies of the indexed 10k catalog with noisy embeddings (scripts/bench/catalog/replicate.ts):"
    )
    lines.push(
      "  every assistant holds a variant of the same products, so other assistants' rows compete for each query's neighbours."
    )
    lines.push(
      "  After each copy and its vector indexes: VACUUM (ANALYZE) and CHECKPOINT (settle*Ms), as autovacuum would do",
      "  after a bulk load (it is off on this machine's Postgres), so the measurements do not write out the copy."
    )
  }
  console.log(lines.join("\n"))
  console.log(JSON.stringify({
    benchmark: "catalog",
    database: postgresVersion === null ? "pglite" : `postgres ${postgresVersion}`,
    pgvector: pgvectorVersion,
    embedder: offlineModelId,
    cpus: cpus.length,
    noise: options.noise,
    loadAverage: { start: loadBefore, end: loadAfter },
    runMs: round(totalMs, 0),
    import: [import1k, import10k],
    searchable,
    search,
    recall,
    setup
  }))
}
