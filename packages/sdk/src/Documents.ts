/**
 * The promise client's knowledge-base methods: uploads that become ingest
 * jobs, polling those jobs until they are final, and the list and deletion of
 * finished documents. All take the assistant's id (`assistantCode`) first.
 */
import { chunksOf } from "./Chunks"
import { type FileInput, maxFilesPerUpload, uploadForm, uploadParts } from "./DocumentFiles"
import { type WaitOptions, waitUntilFinal } from "./JobPolling"
import { runAsPromise } from "./Polling"
import { present } from "./Present"
import type { RawClient } from "./RawClient"
import type { DocumentIngestJob, DocumentList, TextUpload } from "./Schemas"
import { unwrap, unwrapNull } from "./Unwrap"

export interface UploadOptions {
  /** The folder (32 lowercase hex characters); root when left out. */
  readonly folderId?: string | undefined
  /** Called after each request of up to 10 files with the jobs it created. */
  readonly onBatch?: ((jobs: ReadonlyArray<DocumentIngestJob>) => void) | undefined
}

export interface DocumentsClient {
  /**
   * Uploads any number of files in requests of 10, each checked against the
   * 25 MB limit before anything is sent (`FileTooLargeError`). Returns one
   * queued job per file, in the order given. A request refused by the server
   * (e.g. 415 for an unsupported kind) throws; earlier requests stay accepted.
   */
  readonly uploadFiles: (
    assistantCode: string,
    files: ReadonlyArray<FileInput>,
    options?: UploadOptions
  ) => Promise<Array<DocumentIngestJob>>
  /** A text document; returns its queued job. */
  readonly uploadText: (assistantCode: string, upload: TextUpload) => Promise<DocumentIngestJob>
  /** One job's current state. */
  readonly getJob: (assistantCode: string, jobId: string) => Promise<DocumentIngestJob>
  /** Polls until the job is `ready` or `failed`; `JobWaitTimeoutError` after `timeoutMs`. */
  readonly waitForJob: (assistantCode: string, jobId: string, options?: WaitOptions) => Promise<DocumentIngestJob>
  /** Polls until every job is final; the final states in the order of `jobIds`. */
  readonly waitForJobs: (
    assistantCode: string,
    jobIds: ReadonlyArray<string>,
    options?: WaitOptions
  ) => Promise<Array<DocumentIngestJob>>
  /** Ready documents only, at the root and in every folder unless `folderId` is given. */
  readonly list: (assistantCode: string, query?: { readonly folderId?: string | undefined }) => Promise<DocumentList>
  /** Removes documents and their chunks; unknown ids are ignored. */
  readonly delete: (assistantCode: string, fileIds: ReadonlyArray<string>) => Promise<null>
}

export const makeDocumentsClient = (raw: RawClient): DocumentsClient => {
  const onAssistant = (assistantCode: string) => ({ params: { path: { assistantCode } } })

  const getJob = (assistantCode: string, jobId: string) =>
    unwrap(raw.GET("/v1/assistants/{assistantCode}/documents/jobs/{jobId}", {
      params: { path: { assistantCode, jobId } }
    }))

  const waitForJobs = (assistantCode: string, jobIds: ReadonlyArray<string>, options?: WaitOptions) =>
    runAsPromise(waitUntilFinal(jobIds, (jobId) => getJob(assistantCode, jobId), options))

  return {
    uploadFiles: async (assistantCode, files, options = {}) => {
      const parts = await uploadParts(files)
      const jobs: Array<DocumentIngestJob> = []
      for (const batch of chunksOf(parts, maxFilesPerUpload)) {
        const form = uploadForm(batch, options.folderId)
        const { list } = await unwrap(raw.POST("/v1/assistants/{assistantCode}/documents", {
          ...onAssistant(assistantCode),
          // The generated type describes the form's fields (binary parts as strings);
          // the serializer sends the real multipart form built from the Blobs.
          body: { files: batch.map((part) => part.name), ...present("folderId", options.folderId) },
          bodySerializer: () => form
        }))
        jobs.push(...list)
        options.onBatch?.(list)
      }
      return jobs
    },
    uploadText: async (assistantCode, body) => {
      const { list } = await unwrap(raw.POST("/v1/assistants/{assistantCode}/documents/text", {
        ...onAssistant(assistantCode),
        body
      }))
      const [job] = list
      if (job === undefined) throw new Error("the server answered a text upload without a job")
      return job
    },
    getJob,
    waitForJob: async (assistantCode, jobId, options) => {
      const [job] = await waitForJobs(assistantCode, [jobId], options)
      if (job === undefined) throw new Error(`no state was read for job ${jobId}`)
      return job
    },
    waitForJobs,
    list: (assistantCode, query = {}) =>
      unwrap(raw.GET("/v1/assistants/{assistantCode}/documents", {
        params: { path: { assistantCode }, query: present("folderId", query.folderId) }
      })),
    delete: (assistantCode, fileIds) =>
      unwrapNull(raw.DELETE("/v1/assistants/{assistantCode}/documents", {
        ...onAssistant(assistantCode),
        body: { fileIds: [...fileIds] }
      }))
  }
}
