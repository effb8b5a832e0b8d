/** `dastyar docs …`: one assistant's knowledge base: upload files and folders, follow ingest jobs, list, delete. */
import { Constraint, Documents, Envelope } from "@dastyar/domain"
import type { Assistants } from "@dastyar/domain"
import { type EffectClient, isFinalJob, toUploadPart, uploadBatch, waitForJobs } from "@dastyar/sdk"
import { Args, Command, Options } from "@effect/cli"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { assistantCode, assistantOption } from "../AssistantOption"
import { CommandFailed } from "../CommandFailed"
import { ExitCode } from "../ExitCode"
import { publicOptions } from "../GlobalOptions"
import { printData } from "../Output"
import { given } from "../Payload"
import { bar, liveLines } from "../Progress"
import { type Column, keyValues, pageTable, table } from "../Render"
import { publicSession } from "../Session"
import { type Candidate, selectFiles } from "../Upload/Walk"

const options = { ...publicOptions, assistant: assistantOption }

type Job = typeof Documents.DocumentIngestJob.Type

const folderOption = Options.text("folder").pipe(
  Options.withDescription("Folder id (32 lowercase hex characters); root when left out"),
  Options.optional
)

const folderIdOf = (folder: Option.Option<string>) =>
  Option.match(folder, {
    onNone: () => Effect.succeed(undefined),
    onSome: (value) =>
      Either.match(Schema.decodeUnknownEither(Constraint.FolderId)(value), {
        onLeft: () =>
          Effect.fail(
            new CommandFailed({
              message: "--folder must be 32 lowercase hexadecimal characters",
              exitCode: ExitCode.usage
            })
          ),
        onRight: Effect.succeed
      })
  })

/** What became of one file given to `docs upload`. */
const Outcome = Schema.Struct({
  file: Schema.String,
  status: Schema.Literal("skipped", "refused", "queued", "processing", "ready", "failed"),
  job: Schema.NullOr(Documents.DocumentIngestJob),
  reason: Schema.NullOr(Schema.String)
})
type Outcome = typeof Outcome.Type
const Outcomes = Envelope.ListOf(Outcome)

const stageOf: Readonly<Record<string, number>> = { uploading: 1, queued: 2, processing: 3, ready: 4, failed: 4 }

/** `[#####.....] manual.pdf  processing`: a file's way through upload and ingest. */
const fileLine = (file: string, status: string, detail = "") =>
  `${bar(stageOf[status] ?? 0, 4, 12)} ${file}  ${status}${detail === "" ? "" : `: ${detail}`}`

const jobDetail = (job: Job) =>
  job.status === "ready"
    ? (job.resultNChunks === 1 ? "1 chunk" : `${job.resultNChunks ?? 0} chunks`)
    : job.status === "failed"
    ? job.errorMessage ?? "failed"
    : ""

/** `files.3` → 3: the parts a 415 names. */
const partIndices = (fields: ReadonlyArray<{ readonly property: string }>) =>
  new Set(fields.flatMap(({ property }) => {
    const match = /^files\.(\d+)$/.exec(property)
    return match?.[1] === undefined ? [] : [Number(match[1])]
  }))

/** Refusals of a request's content (not of the caller or the assistant): they concern only its files. */
const refusedRequest = new Set(["ValidationFailed", "FileTooLarge", "TooManyFiles", "PayloadTooLarge"])

const fieldText = (field: { readonly property: string; readonly constraints: ReadonlyArray<string> }) =>
  `${field.property}: ${field.constraints.join(", ")}`

/**
 * Uploads one batch. A 415 refuses the whole request: the parts it names are
 * refused and the rest sent again; if it names none, each file goes alone.
 */
const sendBatch = (
  client: EffectClient,
  code: Assistants.AssistantId,
  batch: ReadonlyArray<Candidate>,
  folderId: string | undefined
): Effect.Effect<Array<Outcome>, unknown> =>
  Effect.gen(function*() {
    const parts = yield* Effect.forEach(batch, (candidate) =>
      Effect.tryPromise({
        try: async () => toUploadPart(candidate.file),
        catch: (error) =>
          new CommandFailed({
            message: `cannot read ${candidate.file}: ${error instanceof Error ? error.message : String(error)}`,
            exitCode: ExitCode.usage
          })
      }))
    const sent = yield* Effect.either(uploadBatch(client, code, parts, folderId))
    if (Either.isRight(sent)) {
      // Each job names its path (folder name, `/`, file name): match by it, so a part the server
      // answered no job for is reported as such, not given its neighbour's job.
      const unmatched = [...sent.right.list]
      return batch.map((candidate, index): Outcome => {
        const name = parts[index]?.name ?? candidate.file
        const at = unmatched.findIndex((job) => job.path === name || job.path.endsWith(`/${name}`))
        const job = at < 0 ? null : unmatched.splice(at, 1)[0] ?? null
        return job === null
          ? { file: candidate.file, status: "failed", job: null, reason: `the server answered no job for ${name}` }
          : { file: candidate.file, status: job.status, job, reason: null }
      })
    }
    const error = sent.left
    // The request's content refused as a whole: every file of it is refused with the reason, and the others go on.
    if (refusedRequest.has(error._tag)) {
      const reason = [error.message, ...("fields" in error ? error.fields.map(fieldText) : [])].filter(Boolean).join(
        "; "
      )
      return batch.map((candidate): Outcome => ({ file: candidate.file, status: "refused", job: null, reason }))
    }
    if (error._tag !== "UnsupportedFileType") return yield* Effect.fail(error)
    if (batch.length === 1) {
      return batch.map((candidate): Outcome => ({
        file: candidate.file,
        status: "refused",
        job: null,
        reason: error.message ?? "unsupported file type"
      }))
    }
    const named = partIndices(error.fields)
    if (named.size === 0) {
      const alone = yield* Effect.forEach(batch, (candidate) => sendBatch(client, code, [candidate], folderId))
      return alone.flat()
    }
    const refused = batch.filter((_, index) => named.has(index)).map((candidate): Outcome => ({
      file: candidate.file,
      status: "refused",
      job: null,
      reason: error.fields.find((field) =>
        field.property === `files.${batch.indexOf(candidate)}`
      )?.constraints.join(", ") ??
        "unsupported file type"
    }))
    const rest = batch.filter((_, index) => !named.has(index))
    const resent = rest.length === 0 ? [] : yield* sendBatch(client, code, rest, folderId)
    const byFile = new Map([...refused, ...resent].map((outcome) => [outcome.file, outcome]))
    return batch.flatMap((candidate) => byFile.get(candidate.file) ?? [])
  })

const outcomeColumns: ReadonlyArray<Column<typeof Outcome.Encoded>> = [
  { header: "file", value: (outcome) => outcome.file },
  { header: "status", value: (outcome) => outcome.status },
  { header: "chunks", value: (outcome) => outcome.job?.resultNChunks ?? null },
  { header: "detail", value: (outcome) => outcome.reason ?? outcome.job?.errorMessage ?? outcome.job?.id ?? null }
]

const upload = Command.make("upload", {
  ...options,
  paths: Args.text({ name: "file or folder" }).pipe(
    Args.withDescription("Files, or folders whose supported files are uploaded with their relative paths"),
    Args.atLeast(1)
  ),
  folder: folderOption,
  wait: Options.boolean("wait").pipe(Options.withDescription("Follow every ingest job until it is ready or failed")),
  timeout: Options.integer("timeout").pipe(
    Options.withDescription("With --wait: give up after this many seconds (default 600)"),
    Options.withDefault(600)
  )
}, ({ assistant, folder, paths, timeout, wait, ...common }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(common)
    const code = yield* assistantCode(assistant)
    const folderId = yield* folderIdOf(folder)
    const { send, skipped } = yield* selectFiles(paths)
    const view = liveLines()
    const outcomes = new Map<string, Outcome>()
    for (const { file, reason } of skipped) {
      outcomes.set(file, { file, status: "skipped", job: null, reason })
      yield* view.set(file, `${" ".repeat(14)}${file}  skipped: ${reason}`)
    }
    const fileOfJob = new Map<string, string>()
    const show = (outcome: Outcome) =>
      Effect.gen(function*() {
        outcomes.set(outcome.file, outcome)
        if (outcome.job !== null) fileOfJob.set(outcome.job.id, outcome.file)
        const detail = outcome.reason ?? (outcome.job === null ? "" : jobDetail(outcome.job))
        yield* view.set(
          outcome.file,
          outcome.status === "refused"
            ? `${" ".repeat(14)}${outcome.file}  refused: ${detail}`
            : fileLine(outcome.file, outcome.status, detail)
        )
      })
    for (let start = 0; start < send.length; start += Documents.maxFilesPerUpload) {
      const batch = send.slice(start, start + Documents.maxFilesPerUpload)
      yield* Effect.forEach(batch, ({ file }) => view.set(file, fileLine(file, "uploading")))
      const results = yield* sendBatch(client, code, batch, folderId)
      yield* Effect.forEach(results, show)
    }
    const jobIds = Array.from(outcomes.values()).flatMap((outcome) =>
      outcome.job !== null && !isFinalJob(outcome.job) ? [outcome.job.id] : []
    )
    let unfinished = 0
    if (wait && jobIds.length > 0) {
      yield* waitForJobs(client, code, jobIds, {
        timeout: `${timeout} seconds`,
        onUpdate: (job) => {
          const file = fileOfJob.get(job.id)
          return file === undefined ? Effect.void : show({ file, status: job.status, job, reason: null })
        }
      }).pipe(Effect.catchTag("JobWaitTimeout", (error) =>
        Effect.sync(() => {
          unfinished = error.jobs.filter((job) => !isFinalJob(job)).length
        })))
    }
    yield* view.finish
    const ordered = [...skipped.map(({ file }) => file), ...send.map(({ file }) => file)].flatMap((file) =>
      outcomes.get(file) ?? []
    )
    yield* printData(Outcomes, { list: ordered, count: ordered.length }, {
      json,
      human: ({ list }) => list.length === 0 ? "Nothing to upload." : table(list, outcomeColumns)
    })
    const failed = ordered.filter((outcome) => outcome.status === "failed" || outcome.status === "refused").length
    if (failed > 0 || unfinished > 0) {
      const parts = [
        ...(failed > 0 ? [`${failed} of ${send.length} files failed or were refused`] : []),
        ...(unfinished > 0 ? [`${unfinished} not finished after ${timeout} s`] : [])
      ]
      return yield* new CommandFailed({ message: parts.join("; "), exitCode: ExitCode.api })
    }
  })).pipe(Command.withDescription(
    "Upload files and folders (walked recursively); skips what the server would refuse and says why"
  ))

const documentColumns: ReadonlyArray<Column<typeof Documents.Document.Encoded>> = [
  { header: "fileId", value: (document) => document.fileId },
  { header: "path", value: (document) => document.path },
  { header: "chunks", value: (document) => document.nChunks },
  { header: "size", value: (document) => document.size },
  // The one timestamp in Unix seconds; shown as ISO 8601 like the others.
  { header: "createdAt", value: (document) => new Date(document.createdAt * 1000).toISOString() }
]

const list = Command.make(
  "list",
  { ...options, folder: folderOption },
  ({ assistant, folder, ...common }) =>
    Effect.gen(function*() {
      const { client, json } = yield* publicSession(common)
      const code = yield* assistantCode(assistant)
      const folderId = yield* folderIdOf(folder)
      const documents = yield* client.documents.list({
        path: { assistantCode: code },
        urlParams: folderId === undefined ? {} : { folderId }
      })
      yield* printData(Envelope.ListOf(Documents.Document), documents, {
        json,
        human: ({ list }) => list.length === 0 ? "No documents." : table(list, documentColumns)
      })
    })
).pipe(Command.withDescription("List ready documents (all, or one folder's)"))

const remove = Command.make("delete", {
  ...options,
  fileIds: Args.text({ name: "fileId" }).pipe(
    Args.withDescription("Ids of documents to remove (see `dastyar docs list`)"),
    Args.atLeast(1)
  )
}, ({ assistant, fileIds, ...common }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(common)
    const code = yield* assistantCode(assistant)
    const data = yield* client.documents.delete({ path: { assistantCode: code }, payload: { fileIds } })
    yield* printData(Schema.Null, data, {
      json,
      human: () =>
        `Deleted ${
          fileIds.length === 1 ? "1 document" : `${fileIds.length} documents`
        } (ids that were not documents are ignored).`
    })
  })).pipe(Command.withDescription("Delete documents and their chunks by fileId"))

const job = Command.make("job", {
  ...options,
  jobId: Args.text({ name: "jobId" }).pipe(
    Args.withDescription("The ingest job's id, as printed by `dastyar docs upload`"),
    Args.withSchema(Documents.JobId)
  )
}, ({ assistant, jobId, ...common }) =>
  Effect.gen(function*() {
    const { client, json } = yield* publicSession(common)
    const found = yield* client.documents.job({ path: { assistantCode: yield* assistantCode(assistant), jobId } })
    yield* printData(Documents.DocumentIngestJob, found, { json, human: keyValues })
  })).pipe(Command.withDescription("Show an ingest job"))

const jobColumns: ReadonlyArray<Column<typeof Documents.DocumentIngestJob.Encoded>> = [
  { header: "id", value: (found) => found.id },
  { header: "status", value: (found) => found.status },
  { header: "path", value: (found) => found.path },
  { header: "chunks", value: (found) => found.resultNChunks },
  { header: "updatedAt", value: (found) => found.updatedAt },
  { header: "error", value: (found) => found.errorMessage }
]

const jobs = Command.make("jobs", {
  ...options,
  status: Options.choice("status", Documents.JobStatus.literals).pipe(
    Options.withDescription("Only jobs in this status, e.g. failed"),
    Options.optional
  ),
  limit: Options.integer("limit").pipe(Options.withDescription("Page size, 1 to 500 (default 100)"), Options.optional),
  offset: Options.integer("offset").pipe(Options.withDescription("Jobs to skip (default 0)"), Options.optional)
}, ({ assistant, limit, offset, status, ...common }) =>
  Effect.gen(function*() {
    const { checked, client, json } = yield* publicSession(common)
    const code = yield* assistantCode(assistant)
    const urlParams = yield* checked(Documents.JobListQuery, {
      ...given("status", status),
      ...given("limit", limit),
      ...given("offset", offset)
    })
    const page = yield* client.documents.listJobs({ path: { assistantCode: code }, urlParams })
    yield* printData(Envelope.ListOf(Documents.DocumentIngestJob), page, {
      json,
      human: (found) => pageTable(found, jobColumns, { noun: "jobs", empty: "No ingest jobs." })
    })
  })).pipe(Command.withDescription("List ingest jobs, newest first (e.g. --status failed to find what went wrong)"))

export const docsCommand = Command.make("docs").pipe(
  Command.withDescription("One assistant's knowledge base (--assistant or DASTYAR_ASSISTANT)"),
  Command.withSubcommands([upload, list, jobs, job, remove])
)
