/**
 * Text layouts for people: aligned tables for lists and `key: value` lines for
 * single objects. Pure functions over already-encoded (JSON-shaped) data.
 */

export interface Column<A> {
  readonly header: string
  readonly value: (row: A) => unknown
}

/** One cell: `-` for null, compact JSON for nested objects, the text otherwise. */
export const cell = (value: unknown): string => {
  if (value === null || value === undefined) return "-"
  if (typeof value === "string") return value
  if (typeof value === "number" || typeof value === "boolean") return String(value)
  return JSON.stringify(value)
}

const padded = (cells: ReadonlyArray<string>, widths: ReadonlyArray<number>) =>
  cells.map((text, index) => text.padEnd(widths[index] ?? 0)).join("  ").trimEnd()

export const table = <A>(rows: ReadonlyArray<A>, columns: ReadonlyArray<Column<A>>): string => {
  const header = columns.map((column) => column.header)
  const body = rows.map((row) => columns.map((column) => cell(column.value(row))))
  const widths = header.map((text, index) => Math.max(text.length, ...body.map((cells) => (cells[index] ?? "").length)))
  return [header, ...body].map((cells) => padded(cells, widths)).join("\n")
}

/** One page of a `{list, count}` list: a table with `n of count <noun>` under it, or `empty` when the page is. */
export const pageTable = <A>(
  page: { readonly list: ReadonlyArray<A>; readonly count: number },
  columns: ReadonlyArray<Column<A>>,
  labels: { readonly noun: string; readonly empty: string }
): string =>
  page.list.length === 0
    ? labels.empty
    : `${table(page.list, columns)}\n\n${page.list.length} of ${page.count} ${labels.noun}`

/** `key: value` lines with the values aligned, in the object's own key order. */
export const keyValues = (value: object): string => {
  const entries = Object.entries(value)
  const width = Math.max(0, ...entries.map(([key]) => key.length + 1))
  return entries.map(([key, field]) => `${`${key}:`.padEnd(width)} ${cell(field)}`).join("\n")
}
