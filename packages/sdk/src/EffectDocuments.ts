/**
 * Knowledge-base helpers for the Effect client: uploading parts in one
 * multipart request, and polling ingest jobs until each is final with an
 * exponential backoff (capped), an overall timeout, and 429s waited out.
 */
import type { AssistantId } from "@dastyar/domain/Assistants"
import type { Documents } from "@dastyar/domain"
import * as Data from "effect/Data"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Ref from "effect/Ref"
import * as Schedule from "effect/Schedule"
import { type UploadPart, uploadForm } from "./DocumentFiles"
import type { EffectClient } from "./EffectClient"

type Job = typeof Documents.DocumentIngestJob.Type

export const isFinalJob = (job: Job): boolean => job.status === "ready" || job.status === "failed"

/** One upload request (up to 10 parts); one queued job per part, in order. */
export const uploadBatch = (
  client: EffectClient,
  assistantCode: AssistantId,
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

/** The final state of every job, in the order of `jobIds`; `JobWaitTimeout` if the deadline comes first. */
export const waitForJobs = <E = never, R = never>(
  client: EffectClient,
  assistantCode: AssistantId,
  jobIds: ReadonlyArray<Documents.JobId>,
  options: WaitForJobsOptions<E, R> = {}
) =>
  Effect.gen(function*() {
    const timeout = Duration.decode(options.timeout ?? "10 minutes")
    const latest = yield* Ref.make(new Map<string, Job>())
    const pending = Effect.map(Ref.get(latest), (known) =>
      jobIds.filter((id) => {
        const job = known.get(id)
        return job === undefined || !isFinalJob(job)
      }))
    // All polls share one rate-limited route: a 429 means wait and ask again.
    const read = (jobId: Documents.JobId) =>
      client.documents.job({ path: { assistantCode, jobId } }).pipe(
        Effect.retry({ while: (error) => error._tag === "TooManyRequests", schedule: Schedule.spaced("2 seconds") }),
        Effect.tap((job) => Ref.update(latest, (known) => new Map(known).set(jobId, job))),
        Effect.tap((job) => options.onUpdate === undefined ? Effect.void : options.onUpdate(job))
      )
    const round = Effect.flatMap(pending, (ids) => Effect.forEach(ids, read, { discard: true }))
    const backoff = Schedule.exponential(options.initialDelay ?? "500 millis").pipe(
      Schedule.union(Schedule.spaced(options.maxDelay ?? "10 seconds"))
    )
    const states = Effect.map(Ref.get(latest), (known) => jobIds.flatMap((id) => known.get(id) ?? []))
    yield* round.pipe(
      Effect.zipRight(pending),
      Effect.repeat({ schedule: backoff, until: (ids) => ids.length === 0 }),
      Effect.timeout(timeout),
      Effect.catchTag("TimeoutException", () => Effect.flatMap(states, (jobs) => new JobWaitTimeout({ jobs, timeout })))
    )
    return yield* states
  })
