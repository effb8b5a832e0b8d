/**
 * Checking every row of a feed against the domain's product schema before
 * anything is sent, the way the server would check it: each invalid row is
 * refused with its line, the field at fault and why, in the caller's language.
 */
import { I18n, Products, Validation } from "@dastyar/domain"
import * as Either from "effect/Either"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import type { Feed, RowProblem } from "./Read"

export interface CheckedFeed {
  readonly products: ReadonlyArray<Products.ProductCreate>
  readonly problems: ReadonlyArray<RowProblem>
}

const decodeProduct = Schema.decodeUnknownEither(Products.ProductCreate)

export const checkFeed = (feed: Feed, locale: I18n.Locale): CheckedFeed => {
  const products: Array<Products.ProductCreate> = []
  const problems: Array<RowProblem> = [...feed.problems]
  const firstLine = new Map<string, number>()
  for (const row of feed.rows) {
    const decoded = decodeProduct(row.value, { errors: "all" })
    if (Either.isLeft(decoded)) {
      const issues = ParseResult.ArrayFormatter.formatErrorSync(decoded.left)
      for (const field of Validation.fieldsOf(issues)) {
        const message = field.constraints.map((constraint) => I18n.translate(locale, constraint)).join(", ")
        problems.push({ line: row.line, field: field.property === "body" ? undefined : field.property, message })
      }
      continue
    }
    const product = decoded.right
    const earlier = firstLine.get(product.externalId)
    if (earlier !== undefined) {
      // The server refuses a repeated externalId within one import; across batches the last would win silently.
      problems.push({ line: row.line, field: "externalId", message: `${product.externalId} repeats line ${earlier}` })
      continue
    }
    firstLine.set(product.externalId, row.line)
    products.push(product)
  }
  problems.sort((left, right) => left.line - right.line)
  return { products, problems }
}
