/**
 * CSV rows as product objects: known columns (matched ignoring case, spaces,
 * `_` and `-`, so `external_id` and `Image URL` work) become fields, every
 * other column an attribute named by its header. Values are typed: numbers as
 * numbers, `true`/`false` as booleans; an empty cell is left out. A value that
 * cannot be typed stays text, so the schema check names the field. Papa Parse
 * reads the text, in the CLI (Node) and the console (browser) alike.
 */
import { ProductFields } from "@dastyar/domain"
import Papa from "papaparse"

export interface CsvRecord {
  /** 1-based line where the record starts. */
  readonly line: number
  readonly value: Record<string, unknown>
  /** Why the record cannot be used as it is (e.g. a wrong number of cells). */
  readonly problem?: string | undefined
}

/** The product's own columns; every other column is an attribute. */
export const productColumns = ["externalId", ...ProductFields.productFieldNames] as const

export type Field = typeof productColumns[number]

const squashed = (header: string) => header.toLowerCase().replace(/[\s_-]+/g, "")

/** The product field a CSV column fills, or undefined for an attribute column. */
export const fieldOf = (header: string): Field | undefined =>
  productColumns.find((field) => field.toLowerCase() === squashed(header))

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

/** Text that cannot be read as CSV at all (e.g. an unclosed quote), with the line where it starts. */
export class CsvUnreadable extends Error {}

interface RawRecord {
  readonly line: number
  readonly cells: ReadonlyArray<string>
}

/** Every non-empty record with the line it starts on; Papa Parse gives where each ends, lines are counted here. */
const records = (text: string): Array<RawRecord> => {
  const found: Array<RawRecord> = []
  let start = 0
  let counted = 0
  let line = 1
  Papa.parse<Array<string>>(text, {
    delimiter: ",",
    step: (result) => {
      for (; counted < start; counted++) if (text[counted] === "\n") line++
      const quotes = result.errors.find((error) => error.type === "Quotes")
      if (quotes !== undefined) throw new CsvUnreadable(`line ${line}: ${quotes.message}`)
      const cells = result.data
      if (!(cells.length === 1 && cells[0] === "")) found.push({ line, cells })
      start = result.meta.cursor
    }
  })
  return found
}

/** The header row's columns, and each later record as a product object. */
export const csvProducts = (text: string): { headers: Array<string>; records: Array<CsvRecord> } => {
  const [header, ...rows] = records(text.replace(/^\uFEFF/, ""))
  if (header === undefined) return { headers: [], records: [] }
  const headers = [...header.cells]
  return {
    headers,
    records: rows.map(({ cells, line }) => ({
      line,
      value: productOf(headers, cells),
      problem: cells.length === headers.length
        ? undefined
        : `has ${cells.length} cells; the header has ${headers.length}`
    }))
  }
}
