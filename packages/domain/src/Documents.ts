/**
 * The knowledge base: uploads become ingest jobs that clients poll; finished
 * jobs appear in the document list under their `resultFileId`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart, OpenApi } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import { ApiKeyAuth } from "./Auth"
import * as Constraint from "./Constraint"
import { errorFields, failure, ListOf, responseStatusFor, success } from "./Envelope"
import { AssistantNotFoundResponse, FieldError, PayloadTooLargeResponse } from "./Errors"
import { translateCurrent } from "./i18n"

export const maxFilesPerUpload = 10
export const maxFileBytes = 25 * 1024 * 1024

export const JobId = Schema.String.pipe(Schema.brand("JobId"))
export type JobId = typeof JobId.Type

export const JobStatus = Schema.Literal("queued", "processing", "ready", "failed")
export const JobKind = Schema.Literal("create", "replace")

export const DocumentIngestJob = Schema.Struct({
  id: JobId,
  status: JobStatus,
  path: Schema.String.annotations({
    description: "Folder name plus file name; root documents have the file name alone"
  }),
  kind: JobKind,
  resultFileId: Schema.NullOr(Schema.String),
  resultNChunks: Schema.NullOr(Schema.Int),
  resultSizeBytes: Schema.NullOr(Schema.Int),
  errorMessage: Schema.NullOr(Schema.String),
  createdAt: Schema.DateTimeUtc,
  updatedAt: Schema.DateTimeUtc
}).annotations({ identifier: "DocumentIngestJob" })

export const Document = Schema.Struct({
  fileId: Schema.String,
  path: Schema.String,
  nChunks: Schema.Int,
  size: Schema.Int.annotations({ description: "Bytes" }),
  createdAt: Schema.Int.annotations({ description: "Unix epoch in seconds" })
}).annotations({ identifier: "Document" })

/**
 * Parts stream to temporary files. The parser refuses a part past the spec's
 * limits before writing it: more parts than 10 files and the folder field (with
 * one to spare, so that an 11th file is still named by the server's own count),
 * or a file past 25 MB (plus room for the part's headers, which the parser
 * counts too). The server checks each file's exact size itself and names the
 * offending part.
 */
export const FileUpload = HttpApiSchema.Multipart(
  Schema.Struct({
    files: Multipart.FilesSchema,
    folderId: Schema.optional(Constraint.FolderId)
  }),
  {
    maxParts: Option.some(maxFilesPerUpload + 2),
    maxFileSize: Option.some(maxFileBytes + 64 * 1024),
    maxTotalSize: Option.some((maxFilesPerUpload + 2) * (maxFileBytes + 64 * 1024))
  }
)

export const TextUpload = Schema.Struct({
  folderId: Schema.optional(Constraint.FolderId),
  filename: Constraint.pattern(/^[^/\\]+\.[A-Za-z0-9]+$/, "constraint.filename"),
  content: Constraint.text({ min: 1, max: 2_000_000 })
}).annotations({
  identifier: "TextUpload",
  parseOptions: { errors: "all" },
  examples: [{ filename: "shipping.md", content: "# Shipping\nOrders ship within 2 working days." }]
})

export const JobListQuery = Schema.Struct({
  status: Schema.optional(Constraint.oneOf(...JobStatus.literals)),
  ...Constraint.pageParams(500)
}).annotations({ parseOptions: { errors: "all" } })
export type JobListQuery = typeof JobListQuery.Type

export const DocumentDelete = Schema.Struct({
  fileIds: Constraint.arrayOf(Constraint.String, { min: 1, max: 1000 })
}).annotations({ identifier: "DocumentDelete", parseOptions: { errors: "all" } })

/**
 * A named error that also names the offending upload parts in a top-level
 * `fields` array (`files.3`, constraints translated), like validation errors.
 */
const failureWithFields = <Self extends { readonly fields: ReadonlyArray<FieldError> }, Tag extends string>(
  error:
    & Schema.Schema<
      Self,
      { readonly _tag: Tag; readonly message?: string | undefined; readonly fields: ReadonlyArray<FieldError> }
    >
    & { readonly _tag: Tag },
  options: {
    readonly status: number
    readonly code: "documents.unsupported_file_type" | "documents.too_many_files" | "documents.file_too_large"
    readonly description: string
  }
) => {
  const status = responseStatusFor(options.status)
  return Schema.transformOrFail(
    Schema.Struct({
      data: Schema.Null,
      response: Schema.Struct({
        status: Schema.Literal(status),
        message: Schema.String,
        code: Schema.Literal(options.code)
      }),
      fields: Schema.Array(FieldError)
    }),
    error,
    {
      strict: true,
      decode: (wire) => ParseResult.succeed({ _tag: error._tag, message: wire.response.message, fields: wire.fields }),
      encode: (value) =>
        Effect.all({
          message: translateCurrent(options.code),
          fields: Effect.forEach(value.fields, (field) =>
            Effect.map(Effect.forEach(field.constraints, translateCurrent), (constraints) => ({
              property: field.property,
              constraints
            })))
        }).pipe(Effect.map(({ fields, message }) => ({
          data: null,
          response: { status, message, code: options.code },
          fields
        })))
    }
  ).annotations({
    identifier: `${error._tag}Response`,
    description: options.description,
    ...HttpApiSchema.annotations({ status: options.status })
  })
}

const uploadProblem = { ...errorFields, fields: Schema.Array(FieldError) }

/** Kinds are judged by the bytes; one unsupported file refuses the whole request, before any job exists. */
export class UnsupportedFileType
  extends Schema.TaggedError<UnsupportedFileType>()("UnsupportedFileType", uploadProblem)
{}
export const UnsupportedFileTypeResponse = failureWithFields(UnsupportedFileType, {
  status: 415,
  code: "documents.unsupported_file_type",
  description: "415: a file is not text, PDF, Word, image or audio; `fields` names each such part (`files.N`)"
})

export class TooManyFiles extends Schema.TaggedError<TooManyFiles>()("TooManyFiles", uploadProblem) {}
export const TooManyFilesResponse = failureWithFields(TooManyFiles, {
  status: 400,
  code: "documents.too_many_files",
  description: `400: more than ${maxFilesPerUpload} files; \`fields\` names the first part over the limit`
})

export class FileTooLarge extends Schema.TaggedError<FileTooLarge>()("FileTooLarge", uploadProblem) {}
export const FileTooLargeResponse = failureWithFields(FileTooLarge, {
  status: 413,
  code: "documents.file_too_large",
  description: "413: a file is larger than 25 MB; `fields` names each such part"
})

export class JobNotFound extends Schema.TaggedError<JobNotFound>()("JobNotFound", errorFields) {}
export const JobNotFoundResponse = failure(JobNotFound, { status: 404, code: "documents.job_not_found" })

/** `folderId` that is not a folder of the key's account. */
export class FolderNotFound extends Schema.TaggedError<FolderNotFound>()("FolderNotFound", errorFields) {}
export const FolderNotFoundResponse = failure(FolderNotFound, { status: 404, code: "folders.not_found" })

const assistantPath = HttpApiSchema.param("assistantCode", AssistantId)
const JobList = success(ListOf(DocumentIngestJob), { identifier: "DocumentIngestJobListResponse", status: 202 })

export class DocumentsApi extends HttpApiGroup.make("documents")
  .annotate(OpenApi.Title, "Documents")
  .add(
    HttpApiEndpoint.post("upload")`/assistants/${assistantPath}/documents`
      .annotate(OpenApi.Summary, "Upload files")
      .setPayload(FileUpload)
      .addSuccess(JobList)
      .addError(UnsupportedFileTypeResponse)
      .addError(TooManyFilesResponse)
      .addError(FileTooLargeResponse)
      .addError(FolderNotFoundResponse)
      .annotate(
        OpenApi.Description,
        "Up to 10 files of 25 MB; one queued job per file. Answers 202. The kind comes from the bytes: text (UTF-8 or " +
          "UTF-16), PDF, Word (.docx, .doc), image (PNG, JPEG, WebP, GIF, TIFF, BMP; read by OCR, English and Persian) " +
          "or audio (MP3, WAV, Ogg/Opus, M4A/AAC, FLAC, WebM; transcribed). `path` is the folder's name, `/`, and the " +
          "file name; at the root, the file name alone. An existing path, or one with a job in flight, gives `kind: replace`. " +
          "File names may be in any script, sent as UTF-8 in the quoted `filename` (as browsers, curl and fetch do) or " +
          "as RFC 5987 `filename*=UTF-8''…`; a part whose Content-Disposition cannot be read refuses the request with " +
          "400 naming it (`parts.N`, counted from 0 over all parts)."
      )
  )
  .add(
    HttpApiEndpoint.post("uploadText")`/assistants/${assistantPath}/documents/text`
      .annotate(OpenApi.Summary, "Upload a text document")
      .setPayload(TextUpload)
      .addSuccess(JobList)
      .addError(FolderNotFoundResponse)
      .annotate(OpenApi.Description, "One queued job for a text document. Answers 202.")
  )
  .add(
    HttpApiEndpoint.get("listJobs")`/assistants/${assistantPath}/documents/jobs`
      .annotate(OpenApi.Summary, "List ingest jobs")
      .setUrlParams(JobListQuery)
      .addSuccess(success(ListOf(DocumentIngestJob), { identifier: "DocumentIngestJobListPageResponse" }))
      .annotate(
        OpenApi.Description,
        "The assistant's ingest jobs, newest first, optionally of one `status` (e.g. `failed`, to find what went " +
          "wrong without the job ids). `limit` 1 to 500 (default 100), `offset`; `count` is the number of all " +
          "matching jobs."
      )
  )
  .add(
    HttpApiEndpoint.get("job")`/assistants/${assistantPath}/documents/jobs/${HttpApiSchema.param("jobId", JobId)}`
      .annotate(OpenApi.Summary, "Get an ingest job")
      .addSuccess(success(DocumentIngestJob, { identifier: "DocumentIngestJobResponse" }))
      .addError(JobNotFoundResponse)
      .annotate(
        OpenApi.Description,
        "Poll until `ready` or `failed`. `errorMessage` values: `no_text`, `encrypted`, `corrupt_file`, " +
          "`too_large` (the file exceeds a reading budget: inflated size, pages, pixels, memory or time), " +
          "`transcription_not_configured`, `transcription_failed`, `transcription_unavailable`, `embeddings_failed`, " +
          "`embeddings_unavailable`, `superseded` (a later upload to the same path became ready first), `timeout`, " +
          "`ingest_failed` (anything else)."
      )
  )
  .add(
    HttpApiEndpoint.get("list")`/assistants/${assistantPath}/documents`
      .annotate(OpenApi.Summary, "List documents")
      .setUrlParams(Schema.Struct({ folderId: Schema.optional(Constraint.FolderId) }))
      .addSuccess(success(ListOf(Document), { identifier: "DocumentListResponse" }))
      .addError(FolderNotFoundResponse)
      .annotate(OpenApi.Description, "Ready documents only (a job appears here under its `resultFileId` once `ready`).")
  )
  .add(
    HttpApiEndpoint.del("delete")`/assistants/${assistantPath}/documents`
      .annotate(OpenApi.Summary, "Delete documents")
      .setPayload(DocumentDelete)
      .addSuccess(success(Schema.Null, { identifier: "DocumentsDeletedResponse" }))
      .annotate(
        OpenApi.Description,
        "Removes the documents and their chunks at once (list and search). Identifiers that are not documents of " +
          "this assistant are ignored: the answer is the same 200 with `data: null`."
      )
  )
  .addError(AssistantNotFoundResponse)
  .addError(PayloadTooLargeResponse)
  .middleware(ApiKeyAuth)
  .prefix("/v1")
  .annotate(OpenApi.Description, "The knowledge base: asynchronous ingest jobs and finished documents.")
{}
