/** Cutting a list into requests of a fixed maximum size (bulk deletes, uploads of 10 files). */
import * as Effect from "effect/Effect"

export const chunksOf = <A>(items: ReadonlyArray<A>, size: number): Array<Array<A>> => {
  const chunks: Array<Array<A>> = []
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size))
  return chunks
}

/** The per-request maximum of `POST /products/delete`. */
export const maxBulkDelete = 1000

export interface BulkDeleteCounts {
  readonly deleted: number
  readonly notFound: number
}

/**
 * Deletes any number of externalIds in requests of up to 1,000, in order,
 * summing the counts; `onChunk` sees the running total after each request.
 */
export const bulkDeleteInChunks = <Id, E, R, EC = never, RC = never>(
  externalIds: ReadonlyArray<Id>,
  send: (chunk: Array<Id>) => Effect.Effect<BulkDeleteCounts, E, R>,
  onChunk?: ((total: BulkDeleteCounts) => Effect.Effect<void, EC, RC>) | undefined
): Effect.Effect<BulkDeleteCounts, E | EC, R | RC> =>
  Effect.reduce(chunksOf(externalIds, maxBulkDelete), { deleted: 0, notFound: 0 }, (total, chunk) =>
    send(chunk).pipe(
      Effect.map((result) => ({ deleted: total.deleted + result.deleted, notFound: total.notFound + result.notFound })),
      Effect.tap((next) => onChunk === undefined ? Effect.void : onChunk(next))
    ))
