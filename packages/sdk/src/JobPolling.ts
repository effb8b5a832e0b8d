/**
 * Waiting for ingest jobs until each is final (`ready` or `failed`), written
 * once for both faces: each round reads only the unfinished jobs; the loop,
 * backoff, deadline and 429 handling are `Polling`'s.
 */
import * as Effect from "effect/Effect"
import { DastyarApiError } from "./DastyarApiError"
import { fromPromise, type PollTiming, pollUntil, promiseSleep, type Sleep, waitOutRateLimit } from "./Polling"
import type { DocumentIngestJob } from "./Schemas"

interface JobState {
  readonly id: string
  readonly status: string
}

export const isFinal = (job: { readonly status: string }): boolean => job.status === "ready" || job.status === "failed"

export interface JobWaitLoop<Id extends string, J extends JobState, E, R, T, EU, RU> {
  readonly read: (jobId: Id) => Effect.Effect<J, E, R>
  /** How long a refused read waits before it is sent again; undefined when the error is not a 429. */
  readonly rateLimitDelayMs: (error: E) => number | undefined
  readonly onUpdate?: ((job: J) => Effect.Effect<void, EU, RU>) | undefined
  readonly timedOut: (jobs: ReadonlyArray<J>) => T
  readonly timing?: Partial<PollTiming> | undefined
  readonly sleep?: Sleep | undefined
}

/** The final state of every job, in the order of `jobIds`; `timedOut` with the last states at the deadline. */
export const waitForJobsWith = <Id extends string, J extends JobState, E, R, T, EU = never, RU = never>(
  jobIds: ReadonlyArray<Id>,
  loop: JobWaitLoop<Id, J, E, R, T, EU, RU>
): Effect.Effect<Array<J>, E | EU | T, R | RU> => {
  const inOrder = (known: ReadonlyMap<string, J>) => jobIds.flatMap((id) => known.get(id) ?? [])
  const unfinished = (known: ReadonlyMap<string, J>) =>
    jobIds.filter((id) => {
      const job = known.get(id)
      return job === undefined || !isFinal(job)
    })
  return pollUntil({
    start: new Map<string, J>(),
    round: (known, deadline) =>
      Effect.reduce(
        unfinished(known),
        new Map(known),
        (next, jobId) =>
          waitOutRateLimit(loop.read(jobId), loop.rateLimitDelayMs, deadline, loop.sleep).pipe(
            Effect.tap((job) => loop.onUpdate === undefined ? Effect.void : loop.onUpdate(job)),
            Effect.map((job) => next.set(jobId, job))
          )
      ),
    done: (known) => unfinished(known).length === 0,
    timedOut: (known) => loop.timedOut(inOrder(known)),
    timing: loop.timing,
    sleep: loop.sleep
  }).pipe(Effect.map(inOrder))
}

// The promise face's options and errors.

export interface WaitOptions {
  /** Give up after this long overall; default 10 minutes. */
  readonly timeoutMs?: number | undefined
  /** Pause after the first round; default 500 ms. */
  readonly initialDelayMs?: number | undefined
  /** Longest pause between rounds; default 10 s. */
  readonly maxDelayMs?: number | undefined
  /** Growth of the pause per round; default 2. */
  readonly factor?: number | undefined
  /** Called with every job state read, e.g. for progress. */
  readonly onUpdate?: ((job: DocumentIngestJob) => void) | undefined
  /** Injectable for tests. */
  readonly sleep?: ((milliseconds: number) => Promise<void>) | undefined
}

export const defaultWaitTimeoutMs = 10 * 60 * 1000

/** Thrown when the deadline passes first; `jobs` holds the last state read of each job. */
export class JobWaitTimeoutError extends Error {
  override readonly name = "JobWaitTimeoutError"
  constructor(readonly jobs: ReadonlyArray<DocumentIngestJob>, readonly timeoutMs: number) {
    const pending = jobs.filter((job) => !isFinal(job)).map((job) => `${job.id} (${job.status})`)
    super(`ingest jobs not finished after ${timeoutMs} ms: ${pending.join(", ")}`)
  }
}

/** A promise face's timing options, with only the given ones set. */
export const timingOf = (options: WaitOptions): Partial<PollTiming> => {
  const timing: { -readonly [K in keyof PollTiming]?: PollTiming[K] } = {}
  if (options.timeoutMs !== undefined) timing.timeoutMs = options.timeoutMs
  if (options.initialDelayMs !== undefined) timing.initialDelayMs = options.initialDelayMs
  if (options.maxDelayMs !== undefined) timing.maxDelayMs = options.maxDelayMs
  if (options.factor !== undefined) timing.factor = options.factor
  return timing
}

/** The promise face's reading of a 429: wait its `Retry-After` (1 s when absent). */
export const apiErrorRateLimitDelayMs = (error: unknown): number | undefined =>
  error instanceof DastyarApiError && error.httpStatus === 429 ? (error.retryAfter ?? 1) * 1000 : undefined

/** The promise face of `waitForJobsWith`. */
export const waitUntilFinal = (
  jobIds: ReadonlyArray<string>,
  getJob: (jobId: string) => Promise<DocumentIngestJob>,
  options: WaitOptions = {}
): Effect.Effect<Array<DocumentIngestJob>, unknown> => {
  const timeoutMs = options.timeoutMs ?? defaultWaitTimeoutMs
  const onUpdate = options.onUpdate
  return waitForJobsWith(jobIds, {
    read: (jobId) => fromPromise(() => getJob(jobId)),
    rateLimitDelayMs: apiErrorRateLimitDelayMs,
    onUpdate: onUpdate === undefined ? undefined : (job) => Effect.sync(() => onUpdate(job)),
    timedOut: (jobs) => new JobWaitTimeoutError(jobs, timeoutMs),
    timing: timingOf(options),
    sleep: promiseSleep(options.sleep)
  })
}
