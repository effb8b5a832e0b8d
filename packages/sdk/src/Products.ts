/**
 * The promise client's product methods: one per route of the catalog, plus
 * iteration over every page and a whole-feed import that batches within the
 * server's limits. All take the assistant's id (`assistantCode`) first.
 */
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { bulkDeleteInChunks } from "./Chunks"
import { type IndexedResult, waitUntilIndexedWith } from "./Indexing"
import { apiErrorRateLimitDelayMs, defaultWaitTimeoutMs, timingOf, type WaitOptions } from "./JobPolling"
import { pagesOf } from "./Paging"
import { fromPromise, promiseSleep, runAsPromise } from "./Polling"
import { present } from "./Present"
import { type BatchLimits, type ImportCounts, type ImportedBatch, importInBatches } from "./ProductBatches"
import type { RawClient } from "./RawClient"
import type {
  Product,
  ProductBulkDeleteResult,
  ProductCreate,
  ProductImportResult,
  ProductPage,
  ProductPatch,
  ProductReplace,
  ProductSearch,
  ProductSearchList
} from "./Schemas"
import { unwrap, unwrapNull } from "./Unwrap"

export interface ProductListQuery {
  /** 1 to 200; default 50. */
  readonly limit?: number | undefined
  /** `nextCursor` of the previous page. */
  readonly cursor?: string | undefined
  /** Part of the title or externalId. */
  readonly q?: string | undefined
  readonly category?: string | undefined
  readonly state?: "pending" | "synced" | "failed" | undefined
}

export interface ImportAllOptions {
  /** Smaller limits than the server's (1,000 products, 3 MB); larger ones are the caller's risk. */
  readonly limits?: Partial<BatchLimits> | undefined
  /** Called after each batch is stored, e.g. for progress; `batch` counts from 1. */
  readonly onBatch?: ((batch: ImportedBatch<ProductImportResult>) => void) | undefined
}

/** Timing of `waitUntilIndexed`: the same options as waiting for ingest jobs, without `onUpdate`. */
export type IndexWaitOptions = Omit<WaitOptions, "onUpdate">

/** Thrown when products are still `pending` at the deadline; `pending` names them. */
export class IndexWaitTimeoutError extends Error {
  override readonly name = "IndexWaitTimeoutError"
  constructor(readonly pending: ReadonlyArray<string>, readonly timeoutMs: number) {
    const shown = pending.slice(0, 10).join(", ")
    super(`${pending.length} products still pending after ${timeoutMs} ms: ${shown}${pending.length > 10 ? ", …" : ""}`)
  }
}

export interface ProductsClient {
  /** 409 `products.external_id_taken` if it exists: use `replace` to upsert. */
  readonly create: (assistantCode: string, product: ProductCreate) => Promise<Product>
  /** 404 `products.not_found` if there is none. */
  readonly get: (assistantCode: string, externalId: string) => Promise<Product>
  /** Creates or fully replaces: a field not sent is cleared. */
  readonly replace: (assistantCode: string, externalId: string, product: ProductReplace) => Promise<Product>
  /** Only the fields sent change; null clears a nullable field. */
  readonly update: (assistantCode: string, externalId: string, patch: ProductPatch) => Promise<Product>
  readonly delete: (assistantCode: string, externalId: string) => Promise<null>
  /** One page; pass its `nextCursor` for the next one. */
  readonly list: (assistantCode: string, query?: ProductListQuery) => Promise<ProductPage>
  /** Every page from the first (or from `query.cursor`) to the last, following `nextCursor`. */
  readonly pages: (assistantCode: string, query?: ProductListQuery) => AsyncIterable<ProductPage>
  /** Every product of every page, in order of first creation. */
  readonly all: (assistantCode: string, query?: ProductListQuery) => AsyncIterable<Product>
  /** One import request: up to 1,000 products and 3 MB, all or nothing. */
  readonly import: (assistantCode: string, products: ReadonlyArray<ProductCreate>) => Promise<ProductImportResult>
  /**
   * Any number of products, sent in order in as many import requests as the
   * limits need, with the counts summed. Each request is all or nothing; when
   * one fails, the batches before it stay stored and the error is thrown.
   */
  readonly importAll: (
    assistantCode: string,
    products: Iterable<ProductCreate>,
    options?: ImportAllOptions
  ) => Promise<ImportCounts>
  /** Deletes by externalId in requests of up to 1,000; unknown ids count as `notFound`. */
  readonly bulkDelete: (assistantCode: string, externalIds: ReadonlyArray<string>) => Promise<ProductBulkDeleteResult>
  /** Hybrid keyword and meaning search, best first. */
  readonly search: (assistantCode: string, search: ProductSearch) => Promise<ProductSearchList>
  /**
   * Waits until the given products (every product when left out) are no longer
   * `pending`, i.e. search finds them; answers the externalIds whose indexing
   * failed. `IndexWaitTimeoutError` after `timeoutMs` (default 10 minutes).
   */
  readonly waitUntilIndexed: (
    assistantCode: string,
    externalIds?: ReadonlyArray<string>,
    options?: IndexWaitOptions
  ) => Promise<IndexedResult>
}

const listQuery = (query: ProductListQuery) => ({
  // The query string carries the number as text.
  ...present("limit", query.limit === undefined ? undefined : String(query.limit)),
  ...present("cursor", query.cursor),
  ...present("q", query.q),
  ...present("category", query.category),
  ...present("state", query.state)
})

export const makeProductsClient = (raw: RawClient): ProductsClient => {
  const onAssistant = (assistantCode: string) => ({ params: { path: { assistantCode } } })
  const onProduct = (assistantCode: string, externalId: string) => ({ params: { path: { assistantCode, externalId } } })

  const list = (assistantCode: string, query: ProductListQuery = {}) =>
    unwrap(raw.GET("/v1/assistants/{assistantCode}/products", {
      params: { path: { assistantCode }, query: listQuery(query) }
    }))

  const pageStream = (assistantCode: string, query: ProductListQuery) =>
    pagesOf((cursor) => fromPromise(() => list(assistantCode, { ...query, cursor })), query.cursor)

  const pages = (assistantCode: string, query: ProductListQuery = {}): AsyncIterable<ProductPage> =>
    Stream.toAsyncIterable(pageStream(assistantCode, query))

  const all = (assistantCode: string, query: ProductListQuery = {}): AsyncIterable<Product> =>
    Stream.toAsyncIterable(pageStream(assistantCode, query).pipe(Stream.mapConcat((page) => page.list)))

  const importOnce = (assistantCode: string, products: ReadonlyArray<ProductCreate>) =>
    unwrap(raw.POST("/v1/assistants/{assistantCode}/products/import", {
      ...onAssistant(assistantCode),
      body: { products: [...products] }
    }))

  return {
    create: (assistantCode, body) =>
      unwrap(raw.POST("/v1/assistants/{assistantCode}/products", { ...onAssistant(assistantCode), body })),
    get: (assistantCode, externalId) =>
      unwrap(raw.GET("/v1/assistants/{assistantCode}/products/{externalId}", onProduct(assistantCode, externalId))),
    replace: (assistantCode, externalId, body) =>
      unwrap(raw.PUT("/v1/assistants/{assistantCode}/products/{externalId}", {
        ...onProduct(assistantCode, externalId),
        body
      })),
    update: (assistantCode, externalId, body) =>
      unwrap(raw.PATCH("/v1/assistants/{assistantCode}/products/{externalId}", {
        ...onProduct(assistantCode, externalId),
        body
      })),
    delete: (assistantCode, externalId) =>
      unwrapNull(
        raw.DELETE("/v1/assistants/{assistantCode}/products/{externalId}", onProduct(assistantCode, externalId))
      ),
    list,
    pages,
    all,
    import: importOnce,
    importAll: (assistantCode, products, options = {}) => {
      const onBatch = options.onBatch
      return runAsPromise(importInBatches(products, (batch) => fromPromise(() => importOnce(assistantCode, batch)), {
        limits: options.limits,
        onBatch: onBatch === undefined ? undefined : (batch) => Effect.sync(() => onBatch(batch))
      }))
    },
    bulkDelete: (assistantCode, externalIds) =>
      runAsPromise(
        bulkDeleteInChunks(externalIds, (chunk) =>
          fromPromise(() =>
            unwrap(raw.POST("/v1/assistants/{assistantCode}/products/delete", {
              ...onAssistant(assistantCode),
              body: { externalIds: chunk }
            }))
          ))
      ),
    waitUntilIndexed: (assistantCode, externalIds, options = {}) => {
      const timeoutMs = options.timeoutMs ?? defaultWaitTimeoutMs
      return runAsPromise(waitUntilIndexedWith(externalIds, {
        listPage: (state, cursor) => fromPromise(() => list(assistantCode, { state, cursor, limit: 200 })),
        rateLimitDelayMs: apiErrorRateLimitDelayMs,
        timedOut: (pending) => new IndexWaitTimeoutError(pending, timeoutMs),
        timing: timingOf(options),
        sleep: promiseSleep(options.sleep)
      }))
    },
    search: (assistantCode, body) =>
      unwrap(raw.POST("/v1/assistants/{assistantCode}/products/search", { ...onAssistant(assistantCode), body }))
  }
}
