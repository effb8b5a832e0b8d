/** The report of `--only import`: the imports, and what the 10k import and re-import cost the service's process. */
import * as os from "node:os"
import type { ImportFigures } from "./report"
import type { ProbeFigures } from "./service"
import { table } from "./stats"

const seconds = (ms: number) => (ms / 1000).toFixed(2)

export const printImportReport = (
  { import10k, import1k, loadBefore, reimport10k, service10k, serviceReimport }: {
    readonly loadBefore: ReadonlyArray<number>
    readonly import1k: ImportFigures
    readonly import10k: ImportFigures
    /** The service's event loop and collector from the 10k import's first request until all were synced. */
    readonly service10k: ProbeFigures
    /** The same 10k products imported again, each changed, and the service meanwhile. */
    readonly reimport10k: ImportFigures
    readonly serviceReimport: ProbeFigures
  }
) => {
  const load = (figures: ReadonlyArray<number>) => figures.map((x) => x.toFixed(1)).join(" ")
  const lines = [
    "",
    `Import only: load average ${load(loadBefore)} at start, ${load(os.loadavg())} at end`,
    table(
      ["products", "imported s", "all synced s", "products/s"],
      [{ label: "1k", r: import1k }, { label: "10k", r: import10k }, { label: "10k again", r: reimport10k }].map((
        { label, r }
      ) => [
        label,
        seconds(r.acceptedMs),
        seconds(r.syncedMs),
        String(r.productsPerSecond)
      ])
    ),
    "",
    "The service from an import's first request until all were synced",
    table(
      ["import", "cpu s", "gc ms", "gc count", "major gc ms", "gc max ms", "loop p99 ms", "loop max ms", "heap MB"],
      [{ label: "10k", figures: service10k }, { label: "10k again", figures: serviceReimport }].map((
        { figures, label }
      ) => [
        label,
        seconds(figures.cpuMs),
        String(figures.gc.totalMs),
        String(figures.gc.count),
        String(figures.gc.majorMs),
        String(figures.gc.maxMs),
        String(figures.loop.p99),
        String(figures.loop.max),
        String(figures.heapUsedMb)
      ])
    )
  ]
  console.log(lines.join("\n"))
  console.log(JSON.stringify({ import1k, import10k, service10k, reimport10k, serviceReimport }))
}
