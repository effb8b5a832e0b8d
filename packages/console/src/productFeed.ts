/**
 * A product file (CSV or JSON) read into import rows, with the errors of each
 * row found before anything is sent. Columns named like the API's fields fill
 * them (`external_id`, `in_stock`… are accepted too); every other column
 * becomes an attribute (a number when it reads as one).
 */
import type { ProductCreate } from "@dastyar/sdk"
import Papa from "papaparse"

export type RowErrorCode = "externalId" | "externalIdFormat" | "title" | "price" | "inStock" | "url"

const aliases: Record<string, string> = {
  externalid: "externalId",
  external_id: "externalId",
  sku: "externalId",
  id: "externalId",
  title: "title",
  name: "title",
  category: "category",
  subcategory: "subcategory",
  description: "description",
  price: "price",
  currency: "currency",
  instock: "inStock",
  in_stock: "inStock",
  imageurl: "imageUrl",
  image_url: "imageUrl",
  image: "imageUrl",
  url: "url",
  link: "url"
}

const text = (value: unknown): string | undefined => {
  if (value === undefined || value === null) return undefined
  const written = String(value).trim()
  return written === "" ? undefined : written
}

const bool = (value: unknown): boolean | undefined | "invalid" => {
  if (typeof value === "boolean") return value
  const written = text(value)?.toLowerCase()
  if (written === undefined) return undefined
  if (["true", "1", "yes", "y"].includes(written)) return true
  if (["false", "0", "no", "n"].includes(written)) return false
  return "invalid"
}

const num = (value: unknown): number | undefined | "invalid" => {
  if (typeof value === "number") return Number.isFinite(value) ? value : "invalid"
  const written = text(value)
  if (written === undefined) return undefined
  const parsed = Number(written.replace(/,/g, ""))
  return Number.isFinite(parsed) ? parsed : "invalid"
}

const isHttpUrl = (value: string) => /^https?:\/\/\S+$/i.test(value)

/** One record (column → value) as a product, with the codes of what is wrong with it. */
export interface FeedRow {
  /** Line of the row in the file as a spreadsheet shows it (a CSV's header is line 1); a JSON element's position. */
  readonly line: number
  readonly product: ProductCreate | undefined
  readonly errors: ReadonlyArray<RowErrorCode>
}

export const toRow = (record: Record<string, unknown>, line: number): FeedRow => {
  const fields: Record<string, unknown> = {}
  const attributes: Record<string, string | number | boolean> = {}
  for (const [column, value] of Object.entries(record)) {
    const field = aliases[column.trim().toLowerCase()]
    if (field !== undefined) fields[field] = value
    else if (column.trim() !== "" && text(value) !== undefined) {
      const asNumber = num(value)
      attributes[column.trim()] = typeof value === "boolean"
        ? value
        : typeof asNumber === "number"
        ? asNumber
        : String(value).trim()
    }
  }
  const errors: Array<RowErrorCode> = []
  const externalId = text(fields.externalId)
  const title = text(fields.title)
  const price = num(fields.price)
  const inStock = bool(fields.inStock)
  const imageUrl = text(fields.imageUrl)
  const url = text(fields.url)
  if (externalId === undefined) errors.push("externalId")
  else if (/[\s/\\]/.test(externalId)) errors.push("externalIdFormat")
  if (title === undefined) errors.push("title")
  if (price === "invalid" || (typeof price === "number" && price < 0)) errors.push("price")
  if (inStock === "invalid") errors.push("inStock")
  if ((imageUrl !== undefined && !isHttpUrl(imageUrl)) || (url !== undefined && !isHttpUrl(url))) errors.push("url")
  if (errors.length > 0 || externalId === undefined || title === undefined) return { line, product: undefined, errors }
  const optional = (name: string, value: string | number | boolean | undefined | "invalid") =>
    value === undefined || value === "invalid" ? {} : { [name]: value }
  const product: ProductCreate = {
    externalId,
    title,
    ...optional("category", text(fields.category)),
    ...optional("subcategory", text(fields.subcategory)),
    ...optional("description", text(fields.description)),
    ...optional("price", price),
    ...optional("currency", text(fields.currency)),
    ...optional("inStock", inStock),
    ...optional("imageUrl", imageUrl),
    ...optional("url", url),
    ...(Object.keys(attributes).length > 0 ? { attributes } : {})
  }
  return { line, product, errors }
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Parses a CSV (header row first) or JSON (an array, or `{products: [...]}`) file. */
export const parseFeed = (name: string, content: string): { rows: Array<FeedRow>; fileError?: string } => {
  if (/\.json$/i.test(name) || /^\s*[[{]/.test(content)) {
    let parsed: unknown
    try {
      parsed = JSON.parse(content)
    } catch (error) {
      return { rows: [], fileError: error instanceof Error ? error.message : String(error) }
    }
    const list = Array.isArray(parsed)
      ? parsed
      : isRecord(parsed) && Array.isArray(parsed.products)
      ? parsed.products
      : undefined
    if (list === undefined) {
      return { rows: [], fileError: "JSON: expected an array of products or {\"products\": [...]}" }
    }
    return { rows: list.map((item: unknown, index) => toRow(isRecord(item) ? item : {}, index + 1)) }
  }
  const result = Papa.parse<Record<string, string>>(content, { header: true, skipEmptyLines: "greedy" })
  const fileError = result.errors.find((error) => error.row === undefined)?.message
  // Line numbers as a spreadsheet shows them: the header is line 1.
  const rows = result.data.map((record, index) => toRow(record, index + 2))
  return fileError === undefined ? { rows } : { rows, fileError }
}
