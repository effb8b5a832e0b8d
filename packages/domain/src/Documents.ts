/**
 * The knowledge base: uploads become ingest jobs that clients poll; finished
 * jobs appear in the document list under their `resultFileId`.
 */
import { HttpApiEndpoint, HttpApiGroup, HttpApiSchema, Multipart, OpenApi } from "@effect/platform"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { AssistantId } from "./Assistants"
import { ApiKeyAuth } from "./Auth"
import * as Constraint from "./Constraint"
import { errorFields, failure, ListOf, success } from "./Envelope"
import { AssistantNotFoundResponse, NotImplementedResponse, PayloadTooLargeResponse } from "./Errors"

export const maxFilesPerUpload = 10
export const maxFileBytes = 25 * 1024 * 1024

export const JobId = Schema.String.pipe(Schema.brand("JobId"))
export type JobId = typeof JobId.Type

export const JobStatus = Schema.Literal("queued", "processing", "ready", "failed")
export const JobKind = Schema.Literal("create", "replace")

export const DocumentIngestJob = Schema.Struct({
  id: JobId,
  status: JobStatus,
  path: Schema.String.annotations({ description: "Folder name plus file name; root documents have the file name alone" }),
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

export const FileUpload = HttpApiSchema.Multipart(
  Schema.Struct({
    files: Multipart.FilesSchema,
    folderId: Schema.optional(Constraint.FolderId)
  }),
  // The part limit counts the folderId field too; the size limit includes part headers.
  { maxParts: Option.some(maxFilesPerUpload + 1), maxFileSize: Option.some(maxFileBytes + 64 * 1024) }
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

export const DocumentDelete = Schema.Struct({
  fileIds: Constraint.arrayOf(Constraint.String, { min: 1, max: 1000 })
}).annotations({ identifier: "DocumentDelete", parseOptions: { errors: "all" } })

export class UnsupportedFileType extends Schema.TaggedError<UnsupportedFileType>()(
  "UnsupportedFileType",
  errorFields
) {}
export const UnsupportedFileTypeResponse = failure(UnsupportedFileType, {
  status: 415,
  code: "documents.unsupported_file_type"
})

const assistantPath = HttpApiSchema.param("assistantCode", AssistantId)
const JobList = success(ListOf(DocumentIngestJob), { identifier: "DocumentIngestJobListResponse", status: 202 })

export class DocumentsApi extends HttpApiGroup.make("documents")
  .add(
    HttpApiEndpoint.post("upload")`/assistants/${assistantPath}/documents`
      .annotate(OpenApi.Summary, "Upload files")
      .setPayload(FileUpload)
      .addSuccess(JobList)
      .addError(UnsupportedFileTypeResponse)
      .annotate(OpenApi.Description, "Up to 10 files of 25 MB; one queued job per file. Answers 202.")
  )
  .add(
    HttpApiEndpoint.post("uploadText")`/assistants/${assistantPath}/documents/text`
      .annotate(OpenApi.Summary, "Upload a text document")
      .setPayload(TextUpload)
      .addSuccess(JobList)
  )
  .add(
    HttpApiEndpoint.get("job")`/assistants/${assistantPath}/documents/jobs/${HttpApiSchema.param("jobId", JobId)}`
      .annotate(OpenApi.Summary, "Get an ingest job")
      .addSuccess(success(DocumentIngestJob, { identifier: "DocumentIngestJobResponse" }))
  )
  .add(
    HttpApiEndpoint.get("list")`/assistants/${assistantPath}/documents`
      .annotate(OpenApi.Summary, "List documents")
      .setUrlParams(Schema.Struct({ folderId: Schema.optional(Constraint.FolderId) }))
      .addSuccess(success(ListOf(Document), { identifier: "DocumentListResponse" }))
  )
  .add(
    HttpApiEndpoint.del("delete")`/assistants/${assistantPath}/documents`
      .annotate(OpenApi.Summary, "Delete documents")
      .setPayload(DocumentDelete)
      .addSuccess(success(Schema.Null, { identifier: "DocumentsDeletedResponse" }))
  )
  .addError(AssistantNotFoundResponse)
  .addError(PayloadTooLargeResponse)
  .addError(NotImplementedResponse)
  .middleware(ApiKeyAuth)
  .prefix("/v1")
  .annotate(OpenApi.Description, "The knowledge base: asynchronous ingest jobs and finished documents.")
{}
