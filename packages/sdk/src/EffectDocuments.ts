/**
 * Knowledge-base helpers for the Effect client: uploading parts in one
 * multipart request, and polling ingest jobs until each is final with an
 * exponential backoff (capped), an overall timeout, and 429s waited out.
 */
import type { Assistants, Documents } from "@dastyar/domain"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { uploadForm, type UploadPart } from "./DocumentFiles"
import type { EffectClient } from "./EffectClient"
import { isFinal, waitForJobsWith } from "./JobPolling"
import type { PollTiming } from "./Polling"

type Job = typeof Documents.DocumentIngestJob.Type

export const isFinalJob: (job: Job) => boolean = isFinal

/** One upload request (up to 10 parts); one queued job per part, in order. */
export const uploadBatch = (
  client: EffectClient,
  assistantCode: Assistants.AssistantId,
  parts: ReadonlyArray<UploadPart>,
  folderId: string | undefined
) => client.documents.upload({ path: { assistantCode }, payload: uploadForm(parts, folderId) })

export class JobWaitTimeout extends Data.TaggedError("JobWaitTimeout")<{
  /** The last state read of each job. */
  readonly jobs: ReadonlyArray<Job>
  readonly timeout: Duration.Duration
}> {
  override get message() {
    const pending = this.jobs.filter((job) => !isFinalJob(job)).map((job) => `${job.id} (${job.status})`)
    return `ingest jobs not finished after ${Duration.format(this.timeout)}: ${pending.join(", ")}`
  }
}

export interface WaitForJobsOptions<E, R> {
  /** Overall limit; default 10 minutes. */
  readonly timeout?: Duration.DurationInput | undefined
  /** First pause between rounds (default 500 ms), doubling up to `maxDelay` (default 10 s). */
  readonly initialDelay?: Duration.DurationInput | undefined
  readonly maxDelay?: Duration.DurationInput | undefined
  /** Called with every job state read. */
  readonly onUpdate?: ((job: Job) => Effect.Effect<void, E, R>) | undefined
}

/** Options as Durations, turned into the shared loop's timing. */
export const effectTiming = (options: {
  readonly timeout?: Duration.DurationInput | undefined
  readonly initialDelay?: Duration.DurationInput | undefined
  readonly maxDelay?: Duration.DurationInput | undefined
}): Partial<PollTiming> => ({
  timeoutMs: Duration.toMillis(options.timeout ?? "10 minutes"),
  initialDelayMs: Duration.toMillis(options.initialDelay ?? "500 millis"),
  maxDelayMs: Duration.toMillis(options.maxDelay ?? "10 seconds")
})

/** All polls share one rate-limited route; the Effect client's 429 carries no delay, so wait a second. */
export const tooManyRequestsDelayMs = (error: { readonly _tag: string }): number | undefined =>
  error._tag === "TooManyRequests" ? 1000 : undefined

/** The final state of every job, in the order of `jobIds`; `JobWaitTimeout` if the deadline comes first. */
export const waitForJobs = <E = never, R = never>(
  client: EffectClient,
  assistantCode: Assistants.AssistantId,
  jobIds: ReadonlyArray<Documents.JobId>,
  options: WaitForJobsOptions<E, R> = {}
) =>
  waitForJobsWith(jobIds, {
    read: (jobId) => client.documents.job({ path: { assistantCode, jobId } }),
    rateLimitDelayMs: tooManyRequestsDelayMs,
    onUpdate: options.onUpdate,
    timedOut: (jobs) => new JobWaitTimeout({ jobs, timeout: Duration.decode(options.timeout ?? "10 minutes") }),
    timing: effectTiming(options)
  })
