/**
 * CSV rows as product objects: known columns (matched ignoring case, spaces,
 * `_` and `-`, so `external_id` and `Image URL` work) become fields, every
 * other column an attribute named by its header. Values are typed: numbers as
 * numbers, `true`/`false` as booleans; an empty cell is left out. A value that
 * cannot be typed stays text, so the schema check names the field.
 */
import { ProductFields } from "@dastyar/domain"
import { parse } from "csv-parse/sync"

export interface CsvRecord {
  /** 1-based line where the record starts. */
  readonly line: number
  readonly value: Record<string, unknown>
  /** Why the record cannot be used as it is (e.g. a wrong number of cells). */
  readonly problem?: string | undefined
}

/** The product's own columns; every other column is an attribute. */
const fields = ["externalId", ...ProductFields.productFieldNames] as const

type Field = typeof fields[number]

const squashed = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, "")

const fieldOf = (header: string): Field | undefined => fields.find((field) => field.toLowerCase() === squashed(header))

/** Plain decimal numbers; `007` and `1e999` stay text (codes, and what JSON cannot carry). */
const numberPattern = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?$/

const asNumber = (text: string): number | string => {
  const value = Number(text)
  return numberPattern.test(text) && Number.isFinite(value) ? value : text
}

const booleans: Readonly<Record<string, boolean>> = {
  true: true,
  false: false,
  yes: true,
  no: false,
  "1": true,
  "0": false
}

const asBoolean = (text: string): boolean | string => booleans[text.toLowerCase()] ?? text

/** Attribute cells: `true`/`false` and plain numbers are typed, anything else is text. */
export const asAttribute = (text: string): string | number | boolean => {
  const lower = text.toLowerCase()
  if (lower === "true" || lower === "false") return lower === "true"
  return asNumber(text)
}

/** An `attributes` cell holding a JSON object; anything else stays text for the schema to refuse. */
const asAttributesObject = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const productOf = (headers: ReadonlyArray<string>, cells: ReadonlyArray<string>): Record<string, unknown> => {
  const product: Record<string, unknown> = {}
  let attributes: Record<string, unknown> = {}
  let attributesCell: unknown
  headers.forEach((header, index) => {
    const text = (cells[index] ?? "").trim()
    if (text === "") return
    const field = fieldOf(header)
    switch (field) {
      case undefined:
        attributes[header.trim()] = asAttribute(text)
        break
      case "price":
        product.price = asNumber(text)
        break
      case "inStock":
        product.inStock = asBoolean(text)
        break
      case "attributes":
        attributesCell = asAttributesObject(text)
        break
      default:
        product[field] = text
    }
  })
  if (attributesCell !== undefined) {
    if (!isRecord(attributesCell)) {
      product.attributes = attributesCell
      return product
    }
    // Separate attribute columns win over the same key in the JSON cell.
    attributes = { ...attributesCell, ...attributes }
  }
  if (Object.keys(attributes).length > 0) product.attributes = attributes
  return product
}

/** Thrown by csv-parse for text it cannot read at all (e.g. an unclosed quote). */
export class CsvUnreadable extends Error {}

export const csvProducts = (text: string): Array<CsvRecord> => {
  // Where each record starts: one line after the previous record ended, plus the empty lines skipped.
  const starts: Array<number> = []
  let lastEnd = 0
  let lastEmpty = 0
  let records: Array<Array<string>>
  try {
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      on_record: (record, context) => {
        starts.push(lastEnd + 1 + context.empty_lines - lastEmpty)
        lastEnd = context.lines
        lastEmpty = context.empty_lines
        return record
      }
    })
  } catch (error) {
    throw new CsvUnreadable(error instanceof Error ? error.message : String(error))
  }
  const [headers, ...rows] = records
  if (headers === undefined) return []
  return rows.map((cells, index) => ({
    line: starts[index + 1] ?? 0,
    value: productOf(headers, cells),
    problem: cells.length === headers.length ? undefined : `has ${cells.length} cells; the header has ${headers.length}`
  }))
}
