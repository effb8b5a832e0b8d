/**
 * Rows of the knowledge base: ingest jobs, their uploaded bytes (1 MiB pieces
 * in Postgres until the job ends), and documents with their chunks.
 */
import { Constraint, Documents as Domain } from "@dastyar/domain"
import { SqlClient, SqlSchema } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as fs from "node:fs/promises"
import { ReadSql } from "../Database/Replicas"
import type { FileKind } from "./FileKind"
import type { ErrorMessage } from "./IngestFailure"

export const JobRow = Schema.Struct({
  id: Domain.JobId,
  assistantId: Schema.String,
  folderId: Schema.NullOr(Schema.String),
  path: Schema.String,
  filename: Schema.String,
  kind: Domain.JobKind,
  fileKind: Schema.Literal("text", "pdf", "docx", "doc", "image", "audio"),
  mimeType: Schema.String,
  sizeBytes: Schema.Int,
  status: Domain.JobStatus,
  attempts: Schema.Int,
  resultFileId: Schema.NullOr(Schema.String),
  resultNChunks: Schema.NullOr(Schema.Int),
  resultSizeBytes: Schema.NullOr(Schema.Int),
  errorMessage: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtcFromDate,
  updatedAt: Schema.DateTimeUtcFromDate
})
export type JobRow = typeof JobRow.Type

export interface NewJob {
  readonly id: string
  readonly assistantId: string
  readonly folderId: string | null
  readonly path: string
  readonly filename: string
  readonly kind: typeof Domain.JobKind.Type
  readonly fileKind: FileKind
  readonly mimeType: string
  readonly sizeBytes: number
}

const DocumentRow = Schema.Struct({
  id: Schema.String,
  path: Schema.String,
  nChunks: Schema.Int,
  sizeBytes: Schema.Int,
  createdAt: Schema.DateFromSelf
})

export interface NewChunk {
  readonly chunk: number
  readonly text: string
  /** The chunk's headings, outermost first (see `Chunker`). */
  readonly headingPath: string
  readonly searchText: string
  readonly modelId: string
  /** pgvector's binary form (`halfvecBinary`). */
  readonly embedding: Uint8Array
}

const pieceBytes = 1024 * 1024

export class DocumentsRepo extends Effect.Service<DocumentsRepo>()("DocumentsRepo", {
  effect: Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    // The job and document lists may be served by a replica (Database/Replicas.ts).
    const readSql = yield* ReadSql

    const findJob = SqlSchema.findOne({
      Request: Schema.Struct({ assistantId: Schema.String, jobId: Schema.String }),
      Result: JobRow,
      execute: ({ assistantId, jobId }) =>
        sql`SELECT * FROM document_jobs WHERE id = ${jobId} AND assistant_id = ${assistantId}`
    })

    /** Claims the job for one more attempt; none when it has ended or is gone. */
    const startAttempt = SqlSchema.findOne({
      Request: Schema.String,
      Result: JobRow,
      execute: (jobId) =>
        sql`
          UPDATE document_jobs SET status = 'processing', attempts = attempts + 1, updated_at = now()
          WHERE id = ${jobId} AND status IN ('queued', 'processing')
          RETURNING *`
    })

    /** A page of the assistant's jobs, newest first, and the number of all that match. */
    const pageJobs = (
      assistantId: string,
      status: typeof JobRow.Type.status | undefined,
      page: { readonly limit: number; readonly offset: number }
    ) => {
      const where = sql`assistant_id = ${assistantId} ${status === undefined ? sql`` : sql`AND status = ${status}`}`
      return Effect.all({
        list: readSql`
          SELECT * FROM document_jobs WHERE ${where}
          ORDER BY created_at DESC, id DESC LIMIT ${page.limit} OFFSET ${page.offset}`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Schema.Array(JobRow)))
        ),
        count: readSql`SELECT count(*)::text AS count FROM document_jobs WHERE ${where}`.pipe(
          Effect.flatMap(Schema.decodeUnknown(Schema.Tuple(Schema.Struct({ count: Schema.NumberFromString })))),
          Effect.map(([row]) => row.count)
        )
      }, { concurrency: 1 })
    }

    const listDocuments = SqlSchema.findAll({
      Request: Schema.Struct({ assistantId: Schema.String, folderId: Schema.NullOr(Schema.String) }),
      Result: DocumentRow,
      execute: ({ assistantId, folderId }) =>
        readSql`
          SELECT id, path, n_chunks, size_bytes, created_at FROM documents
          WHERE assistant_id = ${assistantId} AND state = 'ready'
          ${folderId === null ? sql`` : sql`AND folder_id = ${folderId}`}
          ORDER BY created_at, path`
    })

    /**
     * Reads the job's uploaded pieces in order, each while the one before is used (written to a file, say);
     * false when one is missing.
     */
    const forEachPiece = <E, R>(
      jobId: string,
      sizeBytes: number,
      use: (piece: Uint8Array, offset: number) => Effect.Effect<void, E, R>
    ) =>
      Effect.gen(function*() {
        const pieces = Math.ceil(sizeBytes / pieceBytes)
        const fetch = (seq: number) =>
          seq >= pieces ? Effect.succeed(undefined) : sql<{ readonly bytes: string }>`
            SELECT encode(bytes, 'base64') AS bytes FROM document_upload_pieces
            WHERE job_id = ${jobId} AND seq = ${seq}`.pipe(
            // Base64 rather than bytea's hex text: a third fewer bytes to send and parse. Node's decoder skips
            // the line breaks Postgres puts in it.
            Effect.map((rows) => rows[0] === undefined ? undefined : Buffer.from(rows[0].bytes, "base64"))
          )
        let piece = yield* fetch(0)
        for (let seq = 0; seq < pieces; seq++) {
          if (piece === undefined) return false
          const [, next] = yield* Effect.all([use(piece, seq * pieceBytes), fetch(seq + 1)], { concurrency: 2 })
          piece = next
        }
        return true
      })

    /** Removes a job's half-written document (a previous attempt that did not finish). */
    const removeStaging = (jobId: string) =>
      sql`DELETE FROM documents WHERE job_id = ${jobId} AND state = 'staging'`.pipe(Effect.asVoid)

    /** Serialises the writes to one path (until the transaction ends). */
    const lockPath = (assistantId: string, path: string) =>
      sql`SELECT pg_advisory_xact_lock(hashtextextended(${`${assistantId}:${path}`}, 0))`.pipe(Effect.asVoid)

    return {
      lockPath,
      folderOfAccount: (accountId: string, folderId: Constraint.FolderId) =>
        sql<{ readonly id: string; readonly name: string }>`
          SELECT id, name FROM folders WHERE id = ${folderId} AND account_id = ${accountId}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]))
        ),

      /** `replace` when the path holds a ready document or a job that has not ended. */
      kindForPath: (assistantId: string, path: string) =>
        sql<{ readonly inUse: boolean }>`
          SELECT EXISTS (SELECT 1 FROM documents WHERE assistant_id = ${assistantId} AND path = ${path} AND state = 'ready')
              OR EXISTS (
                SELECT 1 FROM document_jobs
                WHERE assistant_id = ${assistantId} AND path = ${path} AND status IN ('queued', 'processing')
              ) AS in_use`.pipe(Effect.map((rows) => (rows[0]?.inUse ? "replace" as const : "create" as const))),

      insertJob: (job: NewJob) =>
        sql`INSERT INTO document_jobs ${sql.insert({ ...job, status: "queued" })} RETURNING *`.pipe(
          Effect.flatMap((rows) => Schema.decodeUnknown(JobRow)(rows[0]))
        ),

      /** Copies an uploaded file into the job's pieces, 1 MiB at a time. */
      storeFile: (assistantId: string, jobId: string, filePath: string) =>
        Effect.acquireUseRelease(
          Effect.promise(() => fs.open(filePath, "r")),
          (handle) =>
            Effect.gen(function*() {
              for (let seq = 0;; seq++) {
                const buffer = Buffer.alloc(pieceBytes)
                const { bytesRead } = yield* Effect.promise(() => handle.read(buffer, 0, pieceBytes, seq * pieceBytes))
                if (bytesRead === 0) return
                yield* sql`INSERT INTO document_upload_pieces ${
                  sql.insert({ assistantId, jobId, seq, bytes: buffer.subarray(0, bytesRead) })
                }`
                if (bytesRead < pieceBytes) return
              }
            }),
          (handle) => Effect.promise(() => handle.close())
        ),

      storeBytes: (assistantId: string, jobId: string, bytes: Uint8Array) =>
        Effect.forEach(
          Array.from({ length: Math.ceil(bytes.length / pieceBytes) }, (_, seq) => seq),
          (seq) =>
            sql`INSERT INTO document_upload_pieces ${
              sql.insert({ assistantId, jobId, seq, bytes: bytes.subarray(seq * pieceBytes, (seq + 1) * pieceBytes) })
            }`,
          { discard: true }
        ),

      /** The uploaded bytes, read piece by piece into one buffer. */
      readUpload: (jobId: string, sizeBytes: number) =>
        Effect.gen(function*() {
          const bytes = Buffer.alloc(sizeBytes)
          const complete = yield* forEachPiece(jobId, sizeBytes, (piece, offset) =>
            Effect.sync(() => {
              bytes.set(piece, offset)
            }))
          return complete ? Option.some(bytes) : Option.none()
        }),

      /**
       * The uploaded bytes written to `filePath` piece by piece, for a reader in another process: this
       * process holds one piece at a time instead of the whole file. False when pieces are missing.
       */
      copyUpload: (jobId: string, sizeBytes: number, filePath: string) =>
        Effect.acquireUseRelease(
          Effect.promise(() => fs.open(filePath, "w")),
          (handle) =>
            forEachPiece(jobId, sizeBytes, (piece, offset) =>
              Effect.promise(() =>
                handle.write(piece, 0, piece.length, offset)
              ).pipe(Effect.asVoid)),
          (handle) => Effect.promise(() => handle.close())
        ),

      findJob: (assistantId: string, jobId: string) => findJob({ assistantId, jobId }),
      pageJobs,
      startAttempt,
      removeStaging,

      insertStaging: (document: {
        readonly id: string
        readonly assistantId: string
        readonly folderId: string | null
        readonly jobId: string
        readonly path: string
        readonly nChunks: number
        readonly sizeBytes: number
      }) => sql`INSERT INTO documents ${sql.insert({ ...document, state: "staging" })}`.pipe(Effect.asVoid),

      insertChunks: (assistantId: string, fileId: string, chunks: ReadonlyArray<NewChunk>) =>
        chunks.length === 0
          ? Effect.void
          : sql`INSERT INTO document_chunks ${sql.insert(chunks.map((chunk) => ({ assistantId, fileId, ...chunk })))}`.pipe(
            Effect.asVoid
          ),

      /**
       * Adds words to the assistant's term dictionary (see Search/SearchEngine.ts): the ingest sends each of
       * a document's words once, in a few statements while its chunks are written. Sorted, as the products'
       * trigger does: concurrent writers insert in one order and never deadlock.
       */
      addTerms: (assistantId: string, terms: ReadonlyArray<string>) =>
        terms.length === 0
          ? Effect.void
          : sql`
            INSERT INTO search_terms (assistant_id, term)
            SELECT ${assistantId}, t FROM unnest(${terms}::text[]) AS t ORDER BY 2
            ON CONFLICT DO NOTHING`.pipe(Effect.asVoid),

      /**
       * Makes the staged document the one at its path, in one transaction: the
       * previous document at the path (a replace) goes, the staged one turns
       * ready, the job records its result and the uploaded bytes are dropped.
       * Jobs for one path finish one at a time; when a job uploaded later has
       * already finished, this older one ends `superseded` instead.
       */
      finish: (job: JobRow, fileId: string, nChunks: number) =>
        Effect.gen(function*() {
          yield* lockPath(job.assistantId, job.path)
          const newer = yield* sql<{ readonly id: string }>`
            SELECT d.id FROM documents d JOIN document_jobs j ON j.id = d.job_id
            WHERE d.assistant_id = ${job.assistantId} AND d.path = ${job.path} AND d.state = 'ready'
              AND (j.created_at, j.id) > (SELECT created_at, id FROM document_jobs WHERE id = ${job.id})`
          if (newer.length > 0) {
            yield* removeStaging(job.id)
            yield* sql`
              UPDATE document_jobs SET status = 'failed', error_message = 'superseded', updated_at = now()
              WHERE id = ${job.id}`
            yield* sql`DELETE FROM document_upload_pieces WHERE job_id = ${job.id}`
            return "superseded" as const
          }
          yield* sql`
            DELETE FROM documents
            WHERE assistant_id = ${job.assistantId} AND path = ${job.path} AND state = 'ready'`
          yield* sql`UPDATE documents SET state = 'ready', n_chunks = ${nChunks}, created_at = now() WHERE id = ${fileId}`
          yield* sql`
            UPDATE document_jobs
            SET status = 'ready', result_file_id = ${fileId}, result_n_chunks = ${nChunks},
                result_size_bytes = size_bytes, error_message = NULL, updated_at = now()
            WHERE id = ${job.id}`
          yield* sql`DELETE FROM document_upload_pieces WHERE job_id = ${job.id}`
          return "ready" as const
        }).pipe(sql.withTransaction),

      fail: (jobId: string, errorMessage: ErrorMessage) =>
        Effect.gen(function*() {
          yield* removeStaging(jobId)
          yield* sql`
            UPDATE document_jobs SET status = 'failed', error_message = ${errorMessage}, updated_at = now()
            WHERE id = ${jobId} AND status IN ('queued', 'processing')`
          yield* sql`DELETE FROM document_upload_pieces WHERE job_id = ${jobId}`
        }).pipe(sql.withTransaction),

      /**
       * Ends jobs nothing will finish: processing for longer than a job may
       * take, or queued while their queue element has been given up.
       */
      failAbandoned: (
        options: {
          readonly processingSeconds: number
          readonly queueTable: string
          readonly queueIdOf: (jobId: string) => string
        }
      ) =>
        Effect.gen(function*() {
          const open = yield* sql<{ readonly id: string; readonly status: string; readonly stale: boolean }>`
            SELECT id, status, updated_at < now() - make_interval(secs => ${options.processingSeconds}) AS stale
            FROM document_jobs
            WHERE status IN ('queued', 'processing') AND updated_at < now() - interval '1 minute'`
          if (open.length === 0) return []
          const live = new Set(
            (yield* sql<{ readonly id: string }>`
              SELECT id FROM ${sql(options.queueTable)}
              WHERE id IN ${sql.in(open.map((job) => options.queueIdOf(job.id)))}
                AND completed = FALSE AND attempts < 10`).map((row) => row.id)
          )
          const abandoned = open.filter((job) => job.stale || !live.has(options.queueIdOf(job.id)))
          for (const job of abandoned) {
            yield* removeStaging(job.id)
            yield* sql`
              UPDATE document_jobs SET status = 'failed', error_message = 'ingest_failed', updated_at = now()
              WHERE id = ${job.id} AND status IN ('queued', 'processing')`
            yield* sql`DELETE FROM document_upload_pieces WHERE job_id = ${job.id}`
          }
          return abandoned.map((job) => job.id)
        }),

      listDocuments: (assistantId: string, folderId: string | null) => listDocuments({ assistantId, folderId }),

      deleteDocuments: (assistantId: string, fileIds: ReadonlyArray<string>) =>
        sql`DELETE FROM documents WHERE assistant_id = ${assistantId} AND id IN ${sql.in(fileIds)}`.pipe(Effect.asVoid)
    } as const
  })
}) {}
