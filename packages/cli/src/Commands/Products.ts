/** `dastyar products …`: one assistant's catalog: reads, search, deletes, and feed import and sync. */
import { Products } from "@dastyar/domain"
import { allProducts, bulkDelete, ProductFeed } from "@dastyar/sdk"
import { Args, Command, Options } from "@effect/cli"
import * as Chunk from "effect/Chunk"
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Stream from "effect/Stream"
import { assistantCode, assistantOption } from "../AssistantOption"
import { CommandFailed } from "../CommandFailed"
import { ExitCode } from "../ExitCode"
import { feedFormats } from "../Feed/Feed"
import { loadFeed, sendFeed } from "../Feed/FeedImport"
import { syncPlan } from "../Feed/SyncPlan"
import { publicOptions } from "../GlobalOptions"
import { printData } from "../Output"
import { given } from "../Payload"
import { type Column, keyValues, table } from "../Render"
import { publicSession } from "../Session"

const options = { ...publicOptions, assistant: assistantOption }

const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)

const columns: ReadonlyArray<Column<typeof Products.Product.Encoded>> = [
  { header: "externalId", value: (product) => product.externalId },
  { header: "title", value: (product) => product.title },
  { header: "category", value: (product) => product.category },
  { header: "price", value: (product) => product.price },
  { header: "inStock", value: (product) => product.inStock },
  { header: "indexState", value: (product) => product.indexState }
]

const hitColumns: ReadonlyArray<Column<typeof Products.ProductSearchHit.Encoded>> = [
  { header: "distance", value: (hit) => hit.distance.toFixed(4) },
  ...columns.slice(0, 5)
]

const get = Command.make("get", {
  ...options,
  externalId: Args.text({ name: "externalId" }).pipe(
    Args.withDescription("The product's externalId (your own id, e.g. sku-1042)")
  )
}, ({ assistant, externalId, ...common }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(common)
    const product = yield* client.products.get({ path: { assistantCode: yield* assistantCode(assistant), externalId } })
    yield* printData(Products.Product, product, { json, human: keyValues })
  })).pipe(Command.withDescription("Show one product by its externalId"))

const list = Command.make("list", {
  ...options,
  limit: Options.integer("limit").pipe(Options.withDescription("Page size, 1 to 200 (default 50)"), Options.optional),
  cursor: optionalText("cursor", "The next-page cursor printed by the previous page"),
  q: optionalText("q", "Part of the title or externalId"),
  category: optionalText("category", "Exact category"),
  state: Options.choice("state", Products.IndexState.to.literals).pipe(
    Options.withDescription("Only products in this index state"),
    Options.optional
  ),
  all: Options.boolean("all").pipe(Options.withDescription("Every page, not just one"))
}, ({ all, assistant, category, cursor, limit, q, state, ...common }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* publicSession(common)
    const assistantCodeValue = yield* assistantCode(assistant)
    const urlParams = yield* checked(Products.ProductListQuery, {
      ...given("limit", limit),
      ...given("cursor", cursor),
      ...given("q", q),
      ...given("category", category),
      ...given("state", state)
    })
    const page = all
      ? {
        list: Chunk.toArray(
          yield* Stream.runCollect(allProducts(client, assistantCodeValue, {
            limit: urlParams.limit ?? 200,
            q: urlParams.q,
            category: urlParams.category,
            state: urlParams.state
          }))
        ),
        nextCursor: null
      }
      : yield* client.products.list({ path: { assistantCode: assistantCodeValue }, urlParams })
    yield* printData(Products.ProductPage, page, {
      json,
      human: ({ list, nextCursor }) =>
        [
          list.length === 0 ? "No products." : table(list, columns),
          ...(nextCursor === null ? [] : ["", `More: --cursor ${nextCursor}`])
        ].join("\n")
    })
  })).pipe(Command.withDescription("List products in order of first creation, one page or --all"))

const remove = Command.make("delete", {
  ...options,
  externalIds: Args.text({ name: "externalId" }).pipe(
    Args.withDescription("externalIds to delete (any number; sent 1,000 a request)"),
    Args.atLeast(1)
  )
}, ({ assistant, externalIds, ...common }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(common)
    const code = yield* assistantCode(assistant)
    const counts = yield* bulkDelete(client, code, externalIds)
    yield* printData(Products.ProductBulkDeleteResult, counts, {
      json,
      human: (result) => `Deleted ${result.deleted}; not found ${result.notFound}.`
    })
  })).pipe(Command.withDescription("Delete products by externalId (unknown ones are counted, not an error)"))

const search = Command.make(
  "search",
  {
    ...options,
    query: Args.text({ name: "query" }).pipe(Args.withDescription("What the shopper is looking for, in any language")),
    category: optionalText("category", "Only this category (ignoring case and letter forms)"),
    subcategory: optionalText("subcategory", "Only this subcategory"),
    attribute: Options.keyValueMap("attribute").pipe(
      Options.withDescription(
        "key=value; drops products whose value differs (repeatable; numbers and true/false typed)"
      ),
      Options.optional
    ),
    minPrice: Options.float("min-price").pipe(Options.withDescription("Lowest price, inclusive"), Options.optional),
    maxPrice: Options.float("max-price").pipe(Options.withDescription("Highest price, inclusive"), Options.optional),
    inStock: Options.boolean("in-stock").pipe(Options.withDescription("Only products in stock")),
    limit: Options.integer("limit").pipe(Options.withDescription("1 to 100 (default 20)"), Options.optional),
    offset: Options.integer("offset").pipe(Options.withDescription("0 to 1000"), Options.optional),
    sort: Options.choice("sort", ["price:asc", "price:desc", "newest"]).pipe(
      Options.withDescription("Re-order the relevant matches (relevance still decides what matches)"),
      Options.optional
    ),
    facet: Options.text("facet").pipe(
      Options.withDescription("Count values of category, subcategory or an attribute over every match (repeatable)"),
      Options.repeated
    )
  },
  (
    {
      assistant,
      attribute,
      category,
      facet,
      inStock,
      limit,
      maxPrice,
      minPrice,
      offset,
      query,
      sort,
      subcategory,
      ...common
    }
  ) =>
    Effect.gen(function*() {
      const { checked, client, json } = yield* publicSession(common)
      const code = yield* assistantCode(assistant)
      const attributes = Option.map(
        attribute,
        (map) =>
          Object.fromEntries(
            Array.from(HashMap.toEntries(map), ([key, value]) => [key, ProductFeed.asAttribute(value)])
          )
      )
      const payload = yield* checked(Products.ProductSearch, {
        query,
        ...given("category", category),
        ...given("subcategory", subcategory),
        ...given("attributes", attributes),
        ...given("minPrice", minPrice),
        ...given("maxPrice", maxPrice),
        ...(inStock ? { inStock: true } : {}),
        ...given("limit", limit),
        ...given("offset", offset),
        ...given("sort", sort),
        ...(facet.length === 0 ? {} : { facets: facet })
      })
      const hits = yield* client.products.search({ path: { assistantCode: code }, payload })
      yield* printData(Products.ProductSearchResult, hits, {
        json,
        human: ({ facetDistribution, list }) =>
          [
            list.length === 0 ? "No matching products." : table(list, hitColumns),
            ...Object.entries(facetDistribution ?? {}).map(([name, counts]) =>
              `${name}: ${Object.entries(counts).map(([value, n]) => `${value} (${n})`).join(", ") || "none"}`
            )
          ].join("\n")
      })
    })
).pipe(Command.withDescription("Hybrid keyword and meaning search, best first"))

const feedOptions = {
  ...options,
  file: Args.file({ name: "file", exists: "yes" }).pipe(
    Args.withDescription("The feed file (.json, .jsonl/.ndjson or .csv)")
  ),
  format: Options.choice("format", feedFormats).pipe(
    Options.withDescription("Feed format (default: from the extension .json, .jsonl/.ndjson, .csv)"),
    Options.optional
  ),
  batchSize: Options.integer("batch-size").pipe(
    Options.withDescription("Products per import request, at most 1000 (requests also stay under 3 MB)"),
    Options.withDefault(1000)
  )
}

const checkedBatchSize = (batchSize: number) =>
  batchSize >= 1 && batchSize <= 1000
    ? Effect.succeed(batchSize)
    : Effect.fail(new CommandFailed({ message: "--batch-size must be between 1 and 1000", exitCode: ExitCode.usage }))

const ImportCounts = Products.ProductImportResult

const importFeed = Command.make(
  "import",
  feedOptions,
  ({ assistant, batchSize, file, format, ...common }) =>
    Effect.gen(function*() {
      const { client, json, locale } = yield* publicSession(common)
      const code = yield* assistantCode(assistant)
      const size = yield* checkedBatchSize(batchSize)
      const products = yield* loadFeed(file, Option.getOrUndefined(format), locale)
      const counts = yield* sendFeed(client, code, products, size)
      yield* printData(ImportCounts, counts, {
        json,
        human: ({ created, unchanged, updated }) =>
          `Imported ${products.length} products: ${created} created, ${updated} updated, ${unchanged} unchanged.`
      })
    })
).pipe(Command.withDescription(
  "Import a JSON, JSON Lines or CSV feed; every row is checked first and nothing is sent if one is invalid"
))

const SyncResult = Schema.Struct({ ...ImportCounts.fields, deleted: Schema.Int })

const SyncPreview = Schema.Struct({
  create: Schema.Array(Schema.String),
  update: Schema.Array(Schema.String),
  unchanged: Schema.Int,
  delete: Schema.Array(Schema.String)
})

/** Enough ids to recognise the change; the count gives the rest. */
const idSample = (ids: ReadonlyArray<string>) =>
  ids.length <= 20 ? ids.join(", ") : `${ids.slice(0, 20).join(", ")}, … (${ids.length - 20} more)`

const previewText = (preview: typeof SyncPreview.Encoded) =>
  [
    "Dry run: nothing was changed.",
    table([
      { change: "create", count: preview.create.length, ids: idSample(preview.create) },
      { change: "update", count: preview.update.length, ids: idSample(preview.update) },
      { change: "unchanged", count: preview.unchanged, ids: "" },
      { change: "delete", count: preview.delete.length, ids: idSample(preview.delete) }
    ], [
      { header: "change", value: (row) => row.change },
      { header: "count", value: (row) => row.count },
      { header: "externalIds", value: (row) => row.ids }
    ])
  ].join("\n")

const sync = Command.make("sync", {
  ...feedOptions,
  dryRun: Options.boolean("dry-run").pipe(Options.withDescription("Print what would change and change nothing"))
}, ({ assistant, batchSize, dryRun, file, format, ...common }) =>
  Effect.gen(function*() {
    const { client, json, locale } = yield* publicSession(common)
    const code = yield* assistantCode(assistant)
    const size = yield* checkedBatchSize(batchSize)
    const products = yield* loadFeed(file, Option.getOrUndefined(format), locale)
    if (products.length === 0) {
      return yield* new CommandFailed({
        message: `${file} has no products; syncing it would delete the whole catalog`,
        exitCode: ExitCode.usage
      })
    }
    const stored = Chunk.toArray(yield* Stream.runCollect(allProducts(client, code, { limit: 200 })))
    const plan = syncPlan(products, stored)
    if (dryRun) {
      const preview = { ...plan, unchanged: plan.unchanged.length }
      return yield* printData(SyncPreview, preview, { json, human: previewText })
    }
    // Import first, then delete: shoppers never see a product missing that stays in the feed.
    const counts = yield* sendFeed(client, code, products, size)
    const { deleted } = yield* bulkDelete(client, code, plan.delete, (total) =>
      Console.error(`deleted ${total.deleted}/${plan.delete.length} products absent from the feed`))
    yield* printData(SyncResult, { ...counts, deleted }, {
      json,
      human: ({ created, deleted, unchanged, updated }) =>
        `Synced ${products.length} products: ${created} created, ${updated} updated, ${unchanged} unchanged, ${deleted} deleted.`
    })
  })).pipe(Command.withDescription(
    "Make the catalog equal to a feed: import it, then delete products absent from it (--dry-run to preview)"
  ))

export const productsCommand = Command.make("products").pipe(
  Command.withDescription("One assistant's product catalog (--assistant or DASTYAR_ASSISTANT)"),
  Command.withSubcommands([list, get, search, importFeed, sync, remove])
)
