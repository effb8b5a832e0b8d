/**
 * Splitting a product feed into import requests the server accepts: at most
 * 1,000 products and at most the products body limit (3 MB) per request,
 * measured as the exact UTF-8 size of the JSON body that will be sent.
 */
import { Products } from "@dastyar/domain"
import * as Effect from "effect/Effect"

export interface BatchLimits {
  /** Products per request; the server takes up to 1,000. */
  readonly maxItems: number
  /** Bytes of the JSON body `{"products":[…]}`; the server refuses more than 3 MB. */
  readonly maxBytes: number
}

export const importLimits: BatchLimits = { maxItems: 1000, maxBytes: Products.maxBodyBytes }

const encoder = new TextEncoder()

/** UTF-8 bytes of a value's JSON text (what `fetch` sends for it). */
export const jsonBytes = (value: unknown): number => encoder.encode(JSON.stringify(value)).length

/** `{"products":[]}`: the body around the elements. */
const envelopeBytes = jsonBytes({ products: [] })

/**
 * The products in order, cut into batches within both limits. A product too
 * large to fit any body goes alone, so the server names the problem (413).
 */
export const importBatches = <P>(
  products: Iterable<P>,
  limits: Partial<BatchLimits> = {}
): Array<Array<P>> => {
  const maxItems = limits.maxItems ?? importLimits.maxItems
  const maxBytes = limits.maxBytes ?? importLimits.maxBytes
  const batches: Array<Array<P>> = []
  let current: Array<P> = []
  let currentBytes = envelopeBytes
  for (const product of products) {
    const bytes = jsonBytes(product)
    // Every element after the first adds a comma.
    if (current.length > 0 && (current.length >= maxItems || currentBytes + 1 + bytes > maxBytes)) {
      batches.push(current)
      current = []
      currentBytes = envelopeBytes
    }
    currentBytes += current.length === 0 ? bytes : 1 + bytes
    current.push(product)
  }
  if (current.length > 0) batches.push(current)
  return batches
}

export interface ImportCounts {
  readonly created: number
  readonly updated: number
  readonly unchanged: number
}

export const noCounts: ImportCounts = { created: 0, updated: 0, unchanged: 0 }

export const addCounts = (left: ImportCounts, right: ImportCounts): ImportCounts => ({
  created: left.created + right.created,
  updated: left.updated + right.updated,
  unchanged: left.unchanged + right.unchanged
})

/** What `onBatch` is told after each stored batch. */
export interface ImportedBatch<Result = ImportCounts> {
  /** 1-based, as the CLI's progress counts: batch 1 of `batches`. */
  readonly batch: number
  readonly batches: number
  readonly size: number
  readonly result: Result
}

/**
 * Imports any number of products in order, in as many requests as the limits
 * need, summing the counts. Each request is all or nothing; a failed one stops
 * the import with its error, and the batches before it stay stored.
 */
export const importInBatches = <P, Result extends ImportCounts, E, R, EB = never, RB = never>(
  products: Iterable<P>,
  send: (batch: Array<P>) => Effect.Effect<Result, E, R>,
  options: {
    readonly limits?: Partial<BatchLimits> | undefined
    readonly onBatch?: ((batch: ImportedBatch<Result>) => Effect.Effect<void, EB, RB>) | undefined
  } = {}
): Effect.Effect<ImportCounts, E | EB, R | RB> => {
  const batches = importBatches(products, options.limits)
  const onBatch = options.onBatch
  return Effect.reduce(batches.entries(), noCounts, (total, [index, batch]) =>
    send(batch).pipe(
      Effect.tap((result) =>
        onBatch === undefined
          ? Effect.void
          : onBatch({ batch: index + 1, batches: batches.length, size: batch.length, result })
      ),
      Effect.map((result) => addCounts(total, result))
    ))
}
