/**
 * Product helpers for the Effect client: every page as a stream (following
 * `nextCursor`), a whole-feed import batched within the server's limits, bulk
 * deletes of any size, and waiting until products are indexed. The logic is
 * the shared core's (`Paging`, `ProductBatches`, `Chunks`, `Indexing`).
 */
import { type Assistants, Products } from "@dastyar/domain"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { bulkDeleteInChunks } from "./Chunks"
import type { EffectClient } from "./EffectClient"
import { effectTiming, tooManyRequestsDelayMs } from "./EffectDocuments"
import { waitUntilIndexedWith } from "./Indexing"
import { pagesOf } from "./Paging"
import { present } from "./Present"
import { type BatchLimits, type ImportedBatch, importInBatches } from "./ProductBatches"

export interface PageQuery {
  readonly limit?: number | undefined
  readonly q?: string | undefined
  readonly category?: string | undefined
  readonly state?: Products.IndexState | undefined
}

const listPage = (
  client: EffectClient,
  assistantCode: Assistants.AssistantId,
  query: PageQuery,
  cursor: string | undefined
) =>
  client.products.list({
    path: { assistantCode },
    urlParams: {
      ...present("limit", query.limit),
      ...present("q", query.q),
      ...present("category", query.category),
      ...present("state", query.state),
      ...present("cursor", cursor)
    }
  })

/** Every page from the first to the last. */
export const productPages = (client: EffectClient, assistantCode: Assistants.AssistantId, query: PageQuery = {}) =>
  pagesOf((cursor) => listPage(client, assistantCode, query, cursor))

/** Every product of every page, in order of first creation. */
export const allProducts = (client: EffectClient, assistantCode: Assistants.AssistantId, query: PageQuery = {}) =>
  productPages(client, assistantCode, query).pipe(Stream.mapConcat((page) => page.list))

export type EffectImportedBatch = ImportedBatch<typeof Products.ProductImportResult.Type>

/**
 * Imports any number of products in order, in as many requests as the limits
 * need, summing the counts. Each request is all or nothing; a failed one stops
 * the import with its error, and the batches before it stay stored.
 * `onBatch` counts batches from 1.
 */
export const importAll = <E = never, R = never>(
  client: EffectClient,
  assistantCode: Assistants.AssistantId,
  products: ReadonlyArray<Products.ProductCreate>,
  options: {
    readonly limits?: Partial<BatchLimits> | undefined
    readonly onBatch?: ((batch: EffectImportedBatch) => Effect.Effect<void, E, R>) | undefined
  } = {}
) =>
  importInBatches(
    products,
    (batch) => client.products.import({ path: { assistantCode }, payload: { products: batch } }),
    options
  )

/** Deletes by externalId in requests of up to 1,000; `onChunk` sees the running total after each. */
export const bulkDelete = <E = never, R = never>(
  client: EffectClient,
  assistantCode: Assistants.AssistantId,
  externalIds: ReadonlyArray<string>,
  onChunk?: (total: typeof Products.ProductBulkDeleteResult.Type) => Effect.Effect<void, E, R>
) =>
  bulkDeleteInChunks(
    externalIds.map((id) => Products.ExternalId.make(id)),
    (chunk) => client.products.bulkDelete({ path: { assistantCode }, payload: { externalIds: chunk } }),
    onChunk
  )

export class IndexWaitTimeout extends Data.TaggedError("IndexWaitTimeout")<{
  /** The awaited externalIds still pending at the deadline. */
  readonly pending: ReadonlyArray<string>
  readonly timeout: Duration.Duration
}> {
  override get message() {
    return `${this.pending.length} products still pending after ${Duration.format(this.timeout)}`
  }
}

/**
 * Waits until the given products (every product when undefined) are no longer
 * `pending`; answers the externalIds whose indexing failed. `IndexWaitTimeout`
 * at the deadline (default 10 minutes).
 */
export const waitUntilIndexed = (
  client: EffectClient,
  assistantCode: Assistants.AssistantId,
  externalIds?: ReadonlyArray<string>,
  options: {
    readonly timeout?: Duration.DurationInput | undefined
    readonly initialDelay?: Duration.DurationInput | undefined
    readonly maxDelay?: Duration.DurationInput | undefined
  } = {}
) =>
  waitUntilIndexedWith(externalIds, {
    listPage: (state, cursor) => listPage(client, assistantCode, { state, limit: 200 }, cursor),
    rateLimitDelayMs: tooManyRequestsDelayMs,
    timedOut: (pending) => new IndexWaitTimeout({ pending, timeout: Duration.decode(options.timeout ?? "10 minutes") }),
    timing: effectTiming(options)
  })
