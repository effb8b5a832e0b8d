/**
 * HNSW indexes of large assistants' product vectors. pgvector's guidance for
 * filtered search is a partial index per filter value (or a partition), not a
 * global index with the filter applied to its results: over every assistant's
 * rows a filtered HNSW scan finds few of one assistant's nearest products, and
 * iterative scans find them only slowly. So an assistant with at
 * least `DASTYAR_VECTOR_INDEX_MIN_PRODUCTS` products (default 5,000) gets an
 * index of its own, partial on the assistant and the current embedder, which
 * its searches use with no filter to fight (iterative scans cover the
 * optional filters, see HybridSearch.ts); a smaller assistant is served by an
 * exact scan, a few milliseconds over its halfvecs. Partitions by assistant
 * would serve the same purpose with one index per partition, but a hash
 * partition still mixes assistants and its index has the filter problem again.
 *
 * The indexes are made here, not by migrations: a pass every 30 seconds
 * (and shortly after the indexer catches up on an assistant) compares the
 * assistants' sizes (a sample finds the candidates, exact counts decide) with
 * the indexes that exist, builds what is missing once
 * the assistant has nothing pending (concurrently on Postgres, so writes go
 * on) and drops what is no longer wanted: an assistant
 * that shrank below half the threshold, was deleted, or whose vectors are
 * now another embedder's. Index names are derived from assistant, embedder
 * and dimensions, so a pass needs no bookkeeping table, and several instances
 * running it at once only race to `IF NOT EXISTS`.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import { createHash } from "node:crypto"
import { AppConfig } from "../Config"
import { isEmbedded } from "../Database/Database"
import * as Worker from "../Platform/Worker"
import { Embedder } from "../Search/Embedder"

const namePrefix = "products_hnsw_"
/**
 * A build's session settings on Postgres (not in embedded mode, whose WASM memory never gives memory back):
 * - Memory: the graph of 100k 512-dimension halfvecs fits, so the build never spills to disk.
 * - No parallel workers: pgvector builds with Postgres's two by default, which take every core of a small
 *   server and double every assistant's search latency meanwhile. On one core a build takes longer, but a
 *   background build does not get to starve the foreground.
 */
const buildSettings = [
  { name: "maintenance_work_mem", value: "'256MB'" },
  { name: "max_parallel_maintenance_workers", value: "0" }
]
/** Rows read to estimate every assistant's size in a full pass. */
const sampleRows = 2_000
/** How long after the indexer caught up on an assistant its size is looked at. */
const quietPeriod = "2 seconds"

/** The index of an assistant's vectors of one embedder and dimension count (63 characters at most). */
export const indexName = (assistantId: string, modelId: string, dimensions: number): string =>
  namePrefix +
  createHash("sha256").update(`${assistantId}\u0000${modelId}\u0000${dimensions}`).digest("hex").slice(0, 32)

/** A SQL string literal (DDL takes no parameters); ids and model names are ours, but quote them properly anyway. */
const quoted = (value: string) => `'${value.replace(/'/g, "''")}'`

export class VectorIndexes extends Effect.Service<VectorIndexes>()("VectorIndexes", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const embedder = yield* Embedder
    const { vectorIndexMinProducts } = yield* AppConfig
    const embedded = yield* isEmbedded
    // In embedded mode PGlite runs on the server's own thread: a build of 10k products' graph stopped every
    // request for seconds (keep-alive connections were reset behind it), and its build memory stayed in the
    // WASM memory for good. Small embedded catalogs are scanned exactly; an index is built only when asked for.
    const minProducts = Option.getOrElse(vectorIndexMinProducts, () => embedded ? Infinity : 5_000)
    // PGlite is one session: there is nothing to build concurrently with.
    const concurrently = embedded ? "" : "CONCURRENTLY"

    const build = (name: string, assistantId: string, dimensions: number) =>
      Effect.scoped(Effect.gen(function*() {
        const connection = yield* sql.reserve
        if (!embedded) {
          for (const setting of buildSettings) {
            yield* connection.executeRaw(`SET ${setting.name} = ${setting.value}`, [])
          }
        }
        yield* connection.executeRaw(
          `CREATE INDEX ${concurrently} IF NOT EXISTS ${name} ON products
           USING hnsw ((embedding::halfvec(${dimensions})) halfvec_cosine_ops)
           WHERE assistant_id = ${quoted(assistantId)} AND embedding_model = ${quoted(embedder.modelId)}`,
          []
        ).pipe(
          // The connection goes back to the pool with its settings as they were, also after a failed build.
          Effect.ensuring(
            embedded ? Effect.void : Effect.forEach(
              buildSettings,
              (setting) => connection.executeRaw(`RESET ${setting.name}`, []).pipe(Effect.ignore),
              { discard: true }
            )
          )
        )
        yield* Effect.logInfo("built a vector index", { assistantId, name })
      }))

    const drop = (name: string) =>
      sql.unsafe(`DROP INDEX ${concurrently} IF EXISTS ${name}`).pipe(
        Effect.zipRight(Effect.logInfo("dropped a vector index", { name }))
      )

    /** An assistant's product count (through the assistant's btree). */
    const countOf = (assistantId: string) =>
      sql<{ readonly n: number }>`SELECT count(*)::int AS n FROM products WHERE assistant_id = ${assistantId}`.pipe(
        Effect.map((rows) => rows[0]?.n ?? 0)
      )

    /**
     * Every assistant's size, estimated from a sample of about 2,000 rows
     * (whole pages, TABLESAMPLE SYSTEM): counting all rows reads the whole heap
     * every pass and pushes searches' pages out of the cache, and a larger
     * sample reads more pages from outside the buffer cache, which the searches
     * running meanwhile pay for. An assistant of 5,000 products at a million rows is about 10
     * sampled rows, or a few pages when its rows lie together; a pass that
     * misses one (a few percent of passes then) is followed by another 30 s
     * later, and an assistant grown through the indexer is looked at as soon
     * as it catches up. The decisions are taken on exact counts (below).
     */
    const estimatedSizes = Effect.gen(function*() {
      const [table] = yield* sql<{ readonly rows: number }>`
        SELECT reltuples::float8 AS rows FROM pg_class WHERE oid = 'products'::regclass`
      const percent = Math.min(100, Math.max(0.01, (100 * sampleRows) / Math.max(1, table?.rows ?? 0)))
      const sampled = yield* sql<{ readonly assistantId: string; readonly n: number }>`
        SELECT assistant_id, count(*)::int AS n FROM products
        ${percent >= 100 ? sql`` : sql`TABLESAMPLE SYSTEM (${percent})`} GROUP BY assistant_id`
      return sampled.map((row) => ({ assistantId: row.assistantId, n: (row.n * 100) / percent }))
    })

    /** Assistants with products waiting for the indexer: an index built now would slow it down (each insert costs). */
    const busy = sql<{ readonly assistantId: string }>`
      SELECT DISTINCT assistant_id FROM products WHERE index_state = 'pending'`.pipe(
      Effect.map((rows) => new Set(rows.map((row) => row.assistantId)))
    )

    /** The dimension count of the current embedder's vectors (null while none is stored). */
    const dimensions = sql<{ readonly dims: number }>`
      SELECT vector_dims(embedding) AS dims FROM products
      WHERE embedding_model = ${embedder.modelId} AND embedding IS NOT NULL LIMIT 1`.pipe(
      Effect.map((rows) => rows[0]?.dims ?? null)
    )

    /** Our indexes; one still being built (by any session) counts as valid, a failed build's leftover does not. */
    const existing = sql<{ readonly name: string; readonly valid: boolean; readonly assistantId: string | null }>`
      SELECT c.relname AS name,
        i.indisvalid OR EXISTS (SELECT 1 FROM pg_stat_progress_create_index p WHERE p.index_relid = c.oid) AS valid,
        substring(pg_get_expr(i.indpred, i.indrelid) FROM 'assistant_id = ''([^'']+)''') AS assistant_id
      FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
      WHERE i.indrelid = 'products'::regclass AND starts_with(c.relname, ${namePrefix})`

    // One pass at a time in this instance: a build is long, and two passes would only wait on each other.
    const oneAtATime = yield* Effect.makeSemaphore(1)
    /** Assistants the indexer has just caught up on, to look at before the next full pass. */
    const caughtUp = yield* Queue.sliding<string>(1024)

    /** Builds the missing indexes of large assistants; drops the unwanted ones (all assistants, or one). */
    const pass = Effect.fn("VectorIndexes.reconcile")(function*(assistantId: string | null) {
      const min = minProducts
      const dims = yield* dimensions
      const present = yield* existing
      const valid = new Set(present.filter((index) => index.valid).map((index) => index.name))
      const nameOf = (id: string) => dims === null ? "" : indexName(id, embedder.modelId, dims)
      // Exact counts decide, except for an indexed assistant clearly above the threshold.
      const sized: Array<{ readonly assistantId: string; readonly n: number }> = []
      if (assistantId !== null) sized.push({ assistantId, n: yield* countOf(assistantId) })
      else {
        const estimates = new Map((yield* estimatedSizes).map((row) => [row.assistantId, row.n]))
        // The sample finds the assistants that may have grown; those with an index are looked at whatever it says.
        const looked = new Set([
          ...[...estimates].filter(([, n]) => n >= min / 4).map(([id]) => id),
          ...present.flatMap((index) => index.assistantId === null ? [] : [index.assistantId])
        ])
        for (const id of looked) {
          const estimate = estimates.get(id) ?? 0
          const clear = estimate >= min * 1.5 && valid.has(nameOf(id))
          sized.push({ assistantId: id, n: clear ? estimate : yield* countOf(id) })
        }
      }
      const keep = new Set(sized.filter((row) => row.n >= min / 2).map((row) => nameOf(row.assistantId)))
      // An index another instance is building counts as valid; a failed build's leftover is dropped and built again.
      if (assistantId === null) {
        for (const index of present) if (!index.valid || !keep.has(index.name)) yield* drop(index.name)
      }
      if (dims === null) return
      const wanted = sized.filter((row) => row.n >= min && !valid.has(nameOf(row.assistantId)))
      const indexing = wanted.length === 0 ? new Set<string>() : yield* busy
      for (const row of wanted) {
        if (!indexing.has(row.assistantId)) yield* build(nameOf(row.assistantId), row.assistantId, dims)
      }
    })

    const reconcile = (assistantId: string | null) => oneAtATime.withPermits(1)(pass(assistantId))

    return {
      reconcile,
      /** Tells the pass that an assistant's products were just indexed (it may have grown past the threshold). */
      caughtUp: (assistantId: string) => Queue.offer(caughtUp, assistantId).pipe(Effect.asVoid),
      /** Handles one caught-up assistant; waits while there is none. */
      processNext: Queue.take(caughtUp).pipe(
        // An import comes in batches: the indexer catching up between two is not the end of it.
        Effect.tap(() => Effect.sleep(quietPeriod)),
        Effect.flatMap(reconcile)
      )
    } as const
  })
}) {}

/** Runs the reconciling pass while the server lives (off when search is disabled). */
export const layer = Layer.scopedDiscard(
  Effect.gen(function*() {
    const { searchEnabled } = yield* AppConfig
    if (!searchEnabled) return
    const indexes = yield* VectorIndexes
    const failureMessage = "vector index pass failed"
    yield* Worker.consume("vector-indexes", indexes.processNext, { failureMessage })
    yield* Worker.every("vector-indexes-sweeper", indexes.reconcile(null), { interval: "30 seconds", failureMessage })
  })
)
