/**
 * The held-aside sets of the search relevance evaluation
 * (scripts/eval/data/search-held-aside.json): hand-judged catalogs of other
 * trades, written before any result was seen and never tuned on, reported
 * apart from the generated tuning catalogs.
 */
import { Products } from "@dastyar/domain"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { type EvalCatalog, groups } from "./SearchEvalCatalog"

const file = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../scripts/eval/data/search-held-aside.json"
)

const Grade = Schema.Literal(1, 2, 3)
const HeldAside = Schema.Struct({
  catalogs: Schema.Array(Schema.Struct({
    trade: Schema.String,
    language: Schema.Literal("en", "fa"),
    products: Schema.Array(Products.ProductCreate),
    queries: Schema.Array(Schema.Struct({
      query: Schema.String,
      group: Schema.Literal(...groups),
      relevant: Schema.Record({ key: Schema.String, value: Grade })
    }))
  }))
})

/** The held-aside catalogs, their queries marked `heldAside`. */
export const heldAsideCatalogs = (): ReadonlyArray<EvalCatalog> =>
  Schema.decodeUnknownSync(Schema.parseJson(HeldAside))(fs.readFileSync(file, "utf8")).catalogs.map((catalog) => ({
    language: catalog.language,
    products: catalog.products,
    queries: catalog.queries.map((query, i) => ({
      ...query,
      id: `${catalog.trade}-${i + 1}`,
      language: catalog.language,
      heldAside: true
    }))
  }))
