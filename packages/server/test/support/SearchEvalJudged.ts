/**
 * The hand-judged sets of the search relevance evaluation, read from
 * scripts/eval/data: the tuning sets (search-tuning*.json), which search may
 * be tuned on, and the held-aside sets (search-held-aside*.json), written
 * before any result was seen and never tuned on. Each holds catalogs of trades
 * the generated catalogs do not cover; every judged id must name a product of
 * its catalog.
 */
import { Products } from "@dastyar/domain"
import * as Schema from "effect/Schema"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { type EvalCatalog, groups } from "./SearchEvalCatalog"

const dataDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "../../../../scripts/eval/data")

/**
 * The files the search may be tuned on. The second was held aside until its aggregates had been seen often
 * enough to steer by; it is tuned on since, and a new set is held aside in its place. The third is mostly
 * misspellings, typed as people mistype, which the first two had become too easy to steer by. The fourth is mostly
 * meaning and noise queries, on which the meaning rules fitted to the first two had stopped generalising.
 */
export const tuningFiles = [
  "search-tuning.json",
  "search-tuning-2.json",
  "search-tuning-3.json",
  "search-tuning-4.json"
] as const
/**
 * The files never tuned on, nor looked at query by query, each printed apart. The fourth was written by someone
 * who had not read the ranking code, and wired in before its first run.
 */
export const heldAsideFiles = [
  "search-held-aside.json",
  "search-held-aside-3.json",
  "search-held-aside-4.json"
] as const

const Grade = Schema.Literal(1, 2, 3)
const JudgedSet = Schema.Struct({
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

const read = (file: string, heldAside: boolean): ReadonlyArray<EvalCatalog> =>
  Schema.decodeUnknownSync(Schema.parseJson(JudgedSet))(fs.readFileSync(path.join(dataDir, file), "utf8")).catalogs
    .map((catalog) => {
      const known = new Set<string>(catalog.products.map((product) => product.externalId))
      if (known.size !== catalog.products.length) throw new Error(`${file} ${catalog.trade}: an externalId repeats`)
      return {
        language: catalog.language,
        products: catalog.products,
        queries: catalog.queries.map((query, i) => {
          const unknown = Object.keys(query.relevant).filter((id) => !known.has(id))
          if (unknown.length > 0) {
            throw new Error(`${file} ${catalog.trade} #${i + 1}: no product ${unknown.join(", ")}`)
          }
          return { ...query, id: `${catalog.trade}-${i + 1}`, language: catalog.language, heldAside, set: file }
        })
      }
    })

/** The hand-judged tuning catalogs. */
export const tuningCatalogs = (): ReadonlyArray<EvalCatalog> => tuningFiles.flatMap((file) => read(file, false))

/** The held-aside catalogs, their queries marked `heldAside`. */
export const heldAsideCatalogs = (): ReadonlyArray<EvalCatalog> => heldAsideFiles.flatMap((file) => read(file, true))
