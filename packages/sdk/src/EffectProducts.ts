/**
 * Product helpers for the Effect client: every page as a stream (following
 * `nextCursor`), and a whole-feed import batched within the server's limits.
 */
import type { AssistantId } from "@dastyar/domain/Assistants"
import type { Products } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Stream from "effect/Stream"
import type { EffectClient } from "./EffectClient"
import { present } from "./Present"
import { addCounts, type BatchLimits, type ImportCounts, importBatches, noCounts } from "./ProductBatches"

export interface PageQuery {
  readonly limit?: number | undefined
  readonly q?: string | undefined
  readonly category?: string | undefined
  readonly state?: Products.IndexState | undefined
}

/** Every page from the first to the last. */
export const productPages = (client: EffectClient, assistantCode: AssistantId, query: PageQuery = {}) =>
  Stream.paginateEffect(Option.none<string>(), (cursor) =>
    client.products.list({
      path: { assistantCode },
      urlParams: {
        ...present("limit", query.limit),
        ...present("q", query.q),
        ...present("category", query.category),
        ...present("state", query.state),
        ...present("cursor", Option.getOrUndefined(cursor))
      }
    }).pipe(
      Effect.map((page) => [page, Option.map(Option.fromNullable(page.nextCursor), Option.some)] as const)
    ))

/** Every product of every page, in order of first creation. */
export const allProducts = (client: EffectClient, assistantCode: AssistantId, query: PageQuery = {}) =>
  productPages(client, assistantCode, query).pipe(Stream.flatMap((page) => Stream.fromIterable(page.list)))

export interface EffectImportedBatch {
  /** 0-based. */
  readonly index: number
  readonly batches: number
  readonly size: number
  readonly result: ImportCounts
}

/**
 * Imports any number of products in order, in as many requests as the limits
 * need, summing the counts. Each request is all or nothing; a failed one stops
 * the import with its error, and the batches before it stay stored.
 */
export const importAll = <E, R>(
  client: EffectClient,
  assistantCode: AssistantId,
  products: ReadonlyArray<Products.ProductCreate>,
  options: {
    readonly limits?: Partial<BatchLimits> | undefined
    readonly onBatch?: ((batch: EffectImportedBatch) => Effect.Effect<void, E, R>) | undefined
  } = {}
) => {
  const batches = importBatches(products, options.limits)
  return Effect.reduce(batches.entries(), noCounts, (total, [index, batch]) =>
    client.products.import({ path: { assistantCode }, payload: { products: batch } }).pipe(
      Effect.tap((result) =>
        options.onBatch === undefined
          ? Effect.void
          : options.onBatch({ index, batches: batches.length, size: batch.length, result })
      ),
      Effect.map((result) => addCounts(total, result))
    ))
}
