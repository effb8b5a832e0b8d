/**
 * The knowledge base's requests: uploads become queued ingest jobs (row,
 * uploaded bytes and queue element in one transaction), jobs are polled,
 * ready documents are listed and deleted. Processing happens in `Ingest`.
 */
import { Constraint, Documents as Domain, I18n } from "@dastyar/domain"
import type { Multipart } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as fs from "node:fs/promises"
import { newId } from "../Ids"
import { currentTraceLink } from "../Telemetry"
import { DocumentsRepo, type JobRow } from "./DocumentsRepo"
import { Extraction } from "./Extraction/Extraction"
import { type FileKind, sniffFile } from "./FileKind"
import * as IngestQueue from "./IngestQueue"

const megabytes = Domain.maxFileBytes / (1024 * 1024)

const toResponse = (row: JobRow): typeof Domain.DocumentIngestJob.Type => ({
  id: row.id,
  status: row.status,
  path: row.path,
  kind: row.kind,
  resultFileId: row.resultFileId,
  resultNChunks: row.resultNChunks,
  resultSizeBytes: row.resultSizeBytes,
  errorMessage: row.errorMessage,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt
})

/** The part's name as the client sent it, for error fields: `files.2` and its file name. */
const partName = (file: { readonly name: string }, index: number) => ({
  property: `files.${index}`,
  name: file.name.length > 0 ? file.name : `files.${index}`
})

/**
 * The 413 naming each file over the size limit by its position among `files`; also what the HTTP edge
 * answers when the multipart parser stops a file past the limit while writing it.
 */
export const fileTooLarge = (files: ReadonlyArray<{ readonly name: string; readonly index: number }>) =>
  new Domain.FileTooLarge({
    fields: files.map((file) => {
      const part = partName(file, file.index)
      return {
        property: part.property,
        constraints: [I18n.token("documents.part.too_large", { name: part.name, max: megabytes })]
      }
    })
  })

/** The file name a path ends with: the client's base name, without any directory it sent. */
const baseName = (name: string) => {
  const base = name.split(/[/\\]/).pop()?.trim() ?? ""
  return base.length > 0 ? base : "upload"
}

/** Kinds always read by a reader process (HTML is found only when the text is read). */
const readInChild: ReadonlySet<FileKind> = new Set(["pdf", "docx", "doc"])

interface Accepted {
  readonly filename: string
  readonly fileKind: FileKind
  readonly mimeType: string
  readonly sizeBytes: number
  readonly store: (jobId: string) => Effect.Effect<void, unknown>
}

export class Documents extends Effect.Service<Documents>()("Documents", {
  effect: Effect.gen(function*() {
    const repo = yield* DocumentsRepo
    const sql = yield* SqlClient.SqlClient
    const queue = yield* IngestQueue.make
    const extraction = yield* Extraction

    /** The folder's name, or 404 when it is not a folder of the account. */
    const folderName = (accountId: string, folderId: Constraint.FolderId | undefined) =>
      folderId === undefined
        ? Effect.succeed(Option.none<{ readonly id: string; readonly name: string }>())
        : repo.folderOfAccount(accountId, folderId).pipe(
          Effect.orDie,
          Effect.flatMap(Option.match({
            onNone: () => Effect.fail(new Domain.FolderNotFound()),
            onSome: (folder) => Effect.succeed(Option.some(folder))
          }))
        )

    /** Job rows, bytes and queue elements of one request, all or nothing. */
    const enqueue = (
      assistantId: string,
      folder: Option.Option<{ readonly id: string; readonly name: string }>,
      files: ReadonlyArray<Accepted>
    ) =>
      Effect.gen(function*() {
        const queuedBy = yield* currentTraceLink
        const pathOf = (file: Accepted) =>
          Option.match(folder, { onNone: () => file.filename, onSome: ({ name }) => `${name}/${file.filename}` })
        // Uploads to one path queue one after the other, so they agree on create or replace;
        // locks are taken in one order so that two requests cannot wait on each other.
        yield* Effect.forEach([...new Set(files.map(pathOf))].sort(), (path) => repo.lockPath(assistantId, path), {
          discard: true
        })
        return yield* Effect.forEach(files, (file) =>
          Effect.gen(function*() {
            const path = pathOf(file)
            const kind = yield* repo.kindForPath(assistantId, path)
            const job = yield* repo.insertJob({
              id: newId("job"),
              assistantId,
              folderId: Option.match(folder, { onNone: () => null, onSome: ({ id }) => id }),
              path,
              filename: file.filename,
              kind,
              fileKind: file.fileKind,
              mimeType: file.mimeType,
              sizeBytes: file.sizeBytes
            })
            yield* file.store(job.id)
            yield* queue.offer({ jobId: job.id, assistantId, queuedBy }, { id: IngestQueue.elementIdOf(job.id) })
            return toResponse(job)
          }))
      }).pipe(
        sql.withTransaction,
        Effect.orDie
      )

    return {
      /**
       * Checks every part before anything is stored: the number of files, each
       * file's size, the folder and each file's kind. Any problem refuses the
       * whole request and names the offending parts.
       */
      upload: Effect.fn("Documents.upload")(function*(
        accountId: string,
        assistantId: string,
        payload: {
          readonly files: ReadonlyArray<Multipart.PersistedFile>
          readonly folderId?: Constraint.FolderId | undefined
        }
      ) {
        const { files } = payload
        if (files.length > Domain.maxFilesPerUpload) {
          const first = partName(files[Domain.maxFilesPerUpload], Domain.maxFilesPerUpload)
          return yield* new Domain.TooManyFiles({
            fields: [{
              property: first.property,
              constraints: [I18n.token("documents.part.too_many", { name: first.name, max: Domain.maxFilesPerUpload })]
            }]
          })
        }
        const sizes = yield* Effect.forEach(
          files,
          (file) => Effect.promise(() => fs.stat(file.path).then((stat) => stat.size))
        )
        const tooLarge = files.flatMap((file, index) =>
          (sizes[index] ?? 0) <= Domain.maxFileBytes ? [] : [{ name: file.name, index }]
        )
        if (tooLarge.length > 0) return yield* fileTooLarge(tooLarge)
        const folder = yield* folderName(accountId, payload.folderId)
        const sniffed = yield* Effect.forEach(files, (file) => sniffFile(file.path), { concurrency: 2 })
        const refused = files.flatMap((file, index) => {
          const kind = sniffed[index]
          if (kind === undefined || kind._tag === "Supported") return []
          const part = partName(file, index)
          return [{
            property: part.property,
            constraints: [I18n.token("documents.part.unsupported", { name: part.name, detected: kind.detected })]
          }]
        })
        if (refused.length > 0) return yield* new Domain.UnsupportedFileType({ fields: refused })
        const accepted = files.flatMap((file, index): Array<Accepted> => {
          const kind = sniffed[index]
          if (kind === undefined || kind._tag !== "Supported") return []
          return [{
            filename: baseName(file.name),
            fileKind: kind.kind,
            mimeType: kind.mimeType,
            sizeBytes: sizes[index] ?? 0,
            store: (jobId) => repo.storeFile(assistantId, jobId, file.path)
          }]
        })
        if (accepted.some((file) => readInChild.has(file.fileKind))) yield* extraction.prepare
        return yield* enqueue(assistantId, folder, accepted)
      }),

      uploadText: Effect.fn("Documents.uploadText")(
        function*(accountId: string, assistantId: string, payload: typeof Domain.TextUpload.Type) {
          const folder = yield* folderName(accountId, payload.folderId)
          const bytes = new TextEncoder().encode(payload.content)
          return yield* enqueue(assistantId, folder, [{
            filename: payload.filename,
            fileKind: "text",
            mimeType: "text/plain; charset=utf-8",
            sizeBytes: bytes.length,
            store: (jobId) => repo.storeBytes(assistantId, jobId, bytes)
          }])
        }
      ),

      job: Effect.fn("Documents.job")(function*(assistantId: string, jobId: string) {
        const row = yield* repo.findJob(assistantId, jobId).pipe(Effect.orDie)
        return yield* Option.match(row, {
          onNone: () => Effect.fail(new Domain.JobNotFound()),
          onSome: (job) => Effect.succeed(toResponse(job))
        })
      }),

      listJobs: Effect.fn("Documents.listJobs")(function*(assistantId: string, query: Domain.JobListQuery) {
        const { count, list } = yield* repo.pageJobs(assistantId, query.status, {
          limit: query.limit ?? 100,
          offset: query.offset ?? 0
        }).pipe(Effect.orDie)
        return { list: list.map(toResponse), count }
      }),

      list: Effect.fn("Documents.list")(
        function*(accountId: string, assistantId: string, folderId: Constraint.FolderId | undefined) {
          const folder = yield* folderName(accountId, folderId)
          const rows = yield* repo.listDocuments(
            assistantId,
            Option.match(folder, { onNone: () => null, onSome: ({ id }) => id })
          ).pipe(
            Effect.orDie
          )
          return rows.map((row): typeof Domain.Document.Type => ({
            fileId: row.id,
            path: row.path,
            nChunks: row.nChunks,
            size: row.sizeBytes,
            createdAt: Math.floor(row.createdAt.getTime() / 1000)
          }))
        }
      ),

      /** Documents and their chunks go at once; identifiers that are not this assistant's documents are ignored. */
      remove: Effect.fn("Documents.remove")(function*(assistantId: string, fileIds: ReadonlyArray<string>) {
        yield* repo.deleteDocuments(assistantId, fileIds).pipe(Effect.orDie)
      })
    } as const
  }),
  dependencies: [DocumentsRepo.Default, Extraction.Default]
}) {}
