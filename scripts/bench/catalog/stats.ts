/** Latency summaries and the plain-text tables of the catalog benchmark. */

export interface Latency {
  readonly n: number
  readonly p50: number
  readonly p99: number
  readonly max: number
  readonly mean: number
}

/** Nearest-rank percentile of sorted values. */
const percentile = (sorted: ReadonlyArray<number>, p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN

export const summarize = (samples: ReadonlyArray<number>): Latency => {
  const sorted = [...samples].sort((a, b) => a - b)
  return {
    n: sorted.length,
    p50: round(percentile(sorted, 50)),
    p99: round(percentile(sorted, 99)),
    max: round(sorted.at(-1) ?? Number.NaN),
    mean: round(sorted.reduce((sum, value) => sum + value, 0) / Math.max(1, sorted.length))
  }
}

export const round = (value: number, digits = 1): number => {
  const scale = 10 ** digits
  return Math.round(value * scale) / scale
}

/** Milliseconds since `start` (a `performance.now()` reading). */
export const since = (start: number): number => performance.now() - start

/** A left-aligned first column, right-aligned figures. */
export const table = (header: ReadonlyArray<string>, rows: ReadonlyArray<ReadonlyArray<string>>): string => {
  const widths = header.map((cell, column) => Math.max(cell.length, ...rows.map((row) => (row[column] ?? "").length)))
  const line = (cells: ReadonlyArray<string>) =>
    "  " +
    cells.map((cell, column) => column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0))
      .join("  ")
  return [line(header), "  " + widths.map((width) => "-".repeat(width)).join("  "), ...rows.map(line)].join("\n")
}
