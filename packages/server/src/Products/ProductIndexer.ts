/**
 * The durable background indexer. Wake-ups come through the persisted queue
 * (offered with each write); the product rows say what is due and carry a
 * lease, so several workers and instances share the work, a killed worker's
 * batch is taken again once its lease expires, and a failed batch is retried
 * with exponential backoff (the sweeper queues its wake-up once that has passed).
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { CostLedger } from "../Accounts/CostLedger"
import { AppConfig } from "../Config"
import * as EventLoop from "../Platform/EventLoop"
import * as Worker from "../Platform/Worker"
import * as Queue from "../Queue/Queue"
import { Embedder, vectorLiteral } from "../Search/Embedder"
import * as IndexQueue from "./IndexQueue"
import { embeddingText, type ProductFields, searchFields } from "./SearchKeys"
import { TermExpansions } from "./TermExpansions"
import { VectorIndexes } from "./VectorIndexes"

/**
 * Products one claim takes, and so one turn: what a small shop's write waits for behind a big shop's backlog on
 * each worker. The fixed cost of a batch (a claim and a store statement) stays small beside its embedding.
 */
const batchSize = 128
/** Products whose search fields are computed between two turns of the event loop. */
const piece = 16
const leaseSeconds = 120
const maxBackoffSeconds = 300
const queueWorkers = 2
/** The library's default: an element that failed this often is no longer claimed (`Queue/Queue.ts`). */
const queueMaxAttempts = 10

interface DueProduct {
  readonly id: string
  readonly assistantId: string
  readonly externalId: string
  readonly indexVersion: number
  readonly title: string
  readonly category: string | null
  readonly subcategory: string | null
  readonly attributes: ProductFields["attributes"]
}

export class ProductIndexer extends Effect.Service<ProductIndexer>()("ProductIndexer", {
  dependencies: [VectorIndexes.Default, TermExpansions.Default, CostLedger.Default],
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const embedder = yield* Embedder
    const queue = yield* IndexQueue.make
    const vectorIndexes = yield* VectorIndexes
    const expansions = yield* TermExpansions
    const ledger = yield* CostLedger

    /**
     * Takes up to a batch of the assistant's due products under a lease, oldest due first. Not by a bitmap scan:
     * with statistics from before a big import the planner chose one, which read and sorted the shop's whole
     * backlog for every batch, where the index of waiting products gives the oldest in order.
     */
    const claim = (assistantId: string) =>
      sql.withTransaction(Effect.zipRight(
        sql`SET LOCAL enable_bitmapscan = off`,
        sql<DueProduct>`
          WITH due AS (
            SELECT id FROM products
            WHERE assistant_id = ${assistantId} AND index_state <> 'synced' AND index_due_at <= now()
              AND (index_lease_until IS NULL OR index_lease_until < now())
            ORDER BY index_due_at LIMIT ${batchSize} FOR UPDATE SKIP LOCKED
          )
          UPDATE products p SET index_lease_until = now() + make_interval(secs => ${leaseSeconds})
          FROM due WHERE p.id = due.id AND p.assistant_id = ${assistantId}
          RETURNING p.id, p.assistant_id, p.external_id, p.index_version, p.title, p.category, p.subcategory,
            p.attributes`
      ))

    /**
     * The statement's records as one JSON text, computed in pieces: a batch's fields took the event loop from
     * every search for its whole length. Only the text outlives this: the vectors and their literals, held until
     * the statement's reply, were copied by each young-generation collection meanwhile and then promoted.
     */
    const storedRecords = (products: ReadonlyArray<DueProduct>, vectors: ReadonlyArray<ReadonlyArray<number>>) =>
      EventLoop.mapInPieces(
        products.map((product, i) => ({ product, vector: vectors[i] })),
        piece,
        (part) =>
          part.map(({ product, vector }) => {
            const fields = searchFields(product.externalId, { ...product, ...noDisplayFields })
            return {
              id: product.id,
              version: product.indexVersion,
              fields: fields.map((words) => words.join(" ")),
              terms: [...new Set(fields.flat())],
              embedding: vectorLiteral(vector ?? [])
            }
          })
      ).pipe(Effect.map(JSON.stringify))

    /** Stores the search representation; a product written again meanwhile keeps its newer version pending. */
    const store = (assistantId: string, records: string) =>
      sql`
        UPDATE products p SET
          search_terms = ARRAY(SELECT jsonb_array_elements_text(x.terms)),
          search_fields = ARRAY(SELECT jsonb_array_elements_text(x.fields)),
          embedding = x.embedding::halfvec,
          embedding_model = ${embedder.modelId},
          index_state = CASE WHEN p.index_version = x.version THEN 'synced' ELSE p.index_state END,
          indexed_at = CASE WHEN p.index_version = x.version THEN now() ELSE p.indexed_at END,
          index_attempts = 0, index_error = NULL, index_lease_until = NULL
        FROM jsonb_to_recordset(${records}::jsonb)
          AS x(id text, version integer, fields jsonb, terms jsonb, embedding text)
        WHERE p.id = x.id AND p.assistant_id = ${assistantId}`

    const markFailed = (products: ReadonlyArray<DueProduct>, reason: string) =>
      sql`
        UPDATE products SET index_state = 'failed', index_error = ${reason.slice(0, 500)},
          index_attempts = index_attempts + 1, index_lease_until = NULL,
          index_due_at = now() + make_interval(secs => least(${maxBackoffSeconds}, power(2, index_attempts + 1)))
        WHERE id = ANY(${products.map((product) => product.id)})`

    /**
     * Merges the terms a batch left in the scoped-terms index's pending list (migration 0031) into the index, so
     * searches do not recheck those rows. Only the index's owner may; without that the list's limit bounds it.
     */
    const mergePendingTerms = sql`SELECT gin_clean_pending_list('products_scoped_terms_idx'::regclass)`.pipe(
      Effect.asVoid,
      Effect.catchAll((error) => Effect.logDebug("could not merge the terms' pending list", error.message))
    )

    const indexBatch = (assistantId: string, products: ReadonlyArray<DueProduct>) => {
      const texts = products.map((product) => embeddingText({ ...product, ...noDisplayFields }))
      const meter = (tokens: number) =>
        ledger.meter({
          kind: "embedding",
          model: embedder.modelId,
          tokens,
          shares: products.map((product, i) => ({ assistantId: product.assistantId, weight: texts[i]?.length ?? 0 }))
        })
      return embedder.embed(texts).pipe(
        Effect.tap(({ tokens }) => meter(tokens)),
        Effect.flatMap(({ vectors }) => storedRecords(products, vectors)),
        // The statement has committed its terms (and the dictionary's, by trigger): searches see them from now on,
        // so the shop's remembered expansions are forgotten at once, not after the index's upkeep.
        Effect.flatMap((records) => store(assistantId, records)),
        Effect.zipRight(expansions.invalidate([...new Set(products.map((product) => product.assistantId))])),
        Effect.zipRight(mergePendingTerms),
        Effect.catchTag(
          "EmbedderError",
          (error) =>
            Effect.logWarning("product indexing failed; retrying with backoff", error.message).pipe(
              Effect.zipRight(markFailed(products, error.message))
            )
        )
      )
    }

    /**
     * Queues a wake-up for each shop with due products and none waiting or
     * running: retries whose backoff has passed, products marked pending
     * without one (a new embedder), a wake-up the queue gave up. The work then
     * takes its turn with other shops' rather than beside them. The shops with
     * waiting products are read one index probe each (a skip scan), so a big
     * backlog is not read through every two seconds.
     */
    const wakeUnattended = Effect.fn("ProductIndexer.wakeUnattended")(function*() {
      const shops = yield* sql<{ readonly assistantId: string }>`
        WITH RECURSIVE waiting AS (
          (SELECT assistant_id FROM products WHERE index_state <> 'synced' ORDER BY assistant_id LIMIT 1)
          UNION ALL
          SELECT (SELECT p.assistant_id FROM products p
                  WHERE p.index_state <> 'synced' AND p.assistant_id > w.assistant_id
                  ORDER BY p.assistant_id LIMIT 1)
          FROM waiting w WHERE w.assistant_id IS NOT NULL
        )
        SELECT w.assistant_id FROM waiting w
        WHERE w.assistant_id IS NOT NULL
          AND NOT EXISTS (
            SELECT 1 FROM ${sql(Queue.tableName)} q
            WHERE q.queue_name = ${IndexQueue.queueName} AND q.tenant_key = w.assistant_id AND NOT q.completed
              AND q.attempts < ${queueMaxAttempts})
          AND EXISTS (
            SELECT 1 FROM products p
            WHERE p.assistant_id = w.assistant_id AND p.index_state <> 'synced' AND p.index_due_at <= now()
              AND (p.index_lease_until IS NULL OR p.index_lease_until < now()))`
      for (const { assistantId } of shops) yield* IndexQueue.request(queue, assistantId)
      return shops.length
    })

    /** Whether another shop's wake-up waits to be taken (one running on another worker is not waiting). */
    const otherShopWaiting = (assistantId: string) =>
      sql<{ readonly waiting: boolean }>`
        SELECT EXISTS (
          SELECT 1 FROM ${sql(Queue.tableName)}
          WHERE queue_name = ${IndexQueue.queueName} AND NOT completed AND attempts < ${queueMaxAttempts}
            AND acquired_at IS NULL AND tenant_key IS DISTINCT FROM ${assistantId}) AS waiting`.pipe(
        Effect.map((rows) => rows[0]?.waiting === true)
      )

    /**
     * One shop's turn: a batch at a time while no other shop's wake-up waits; when one does, the rest of this shop's
     * work is queued behind it (the queue's claims take turns between shops), so a small shop's write waits for at
     * most one batch of a big import on each worker, while a shop indexing alone pays for no queue round trip.
     */
    const indexTurn = Effect.fn("ProductIndexer.indexTurn")(function*(assistantId: string, continued: boolean) {
      let indexed = 0
      for (;;) {
        const batch = yield* claim(assistantId)
        if (batch.length > 0) yield* indexBatch(assistantId, batch)
        indexed += batch.length
        if (batch.length < batchSize) {
          // The assistant may have grown past the size that gets its own vector index.
          if (indexed > 0 || continued) yield* vectorIndexes.caughtUp(assistantId)
          return
        }
        if (yield* otherShopWaiting(assistantId)) break
      }
      yield* IndexQueue.request(queue, assistantId, true)
    })

    return {
      /** Handles one wake-up from the queue; waits while the queue is empty. */
      processNext: queue.take(({ assistantId, continued }) => indexTurn(assistantId, continued === true)),
      /** Retries failed products whose backoff has passed, and anything whose wake-up was lost. */
      sweep: wakeUnattended(),
      /** Vectors of another embedder are never compared with this one's: those products are indexed again. */
      reindexOtherEmbedders: sql`
        UPDATE products SET index_state = 'pending', index_version = index_version + 1, index_due_at = now(),
          index_attempts = 0
        WHERE embedding_model IS DISTINCT FROM ${embedder.modelId} AND index_state = 'synced'`.pipe(
        Effect.tap(() => Effect.logDebug("checked product vectors against the current embedder"))
      )
    } as const
  })
}) {}

/** Display-only fields do not reach the search representation. */
const noDisplayFields = { description: null, imageUrl: null, url: null, price: null, currency: null, inStock: true }

/**
 * Runs the indexer while the server lives: queue workers and a sweeper. Off
 * when search is disabled for the deployment (products then stay `pending`).
 */
export const layer = Layer.scopedDiscard(
  Effect.gen(function*() {
    const { searchEnabled } = yield* AppConfig
    if (!searchEnabled) return
    const indexer = yield* ProductIndexer
    const failureMessage = "product indexer pass failed"
    yield* indexer.reindexOtherEmbedders.pipe(Effect.catchAllCause((cause) => Effect.logWarning(failureMessage, cause)))
    yield* Worker.consume("product-indexer", indexer.processNext, { workers: queueWorkers, failureMessage })
    yield* Worker.every("product-indexer-sweeper", indexer.sweep, { interval: "2 seconds", failureMessage })
  })
)
