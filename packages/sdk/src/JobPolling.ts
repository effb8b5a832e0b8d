/**
 * Polling ingest jobs until each is final (`ready` or `failed`): rounds over
 * the unfinished jobs with exponentially growing pauses between them, an
 * overall deadline, and 429s waited out (all polls share one rate-limited route).
 */
import { DastyarApiError } from "./DastyarApiError"
import type { DocumentIngestJob } from "./Schemas"

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

export const isFinal = (job: DocumentIngestJob): boolean => job.status === "ready" || job.status === "failed"

/** Thrown when the deadline passes first; `jobs` holds the last state read of each job. */
export class JobWaitTimeoutError extends Error {
  override readonly name = "JobWaitTimeoutError"
  constructor(readonly jobs: ReadonlyArray<DocumentIngestJob>, readonly timeoutMs: number) {
    const pending = jobs.filter((job) => !isFinal(job)).map((job) => `${job.id} (${job.status})`)
    super(`ingest jobs not finished after ${timeoutMs} ms: ${pending.join(", ")}`)
  }
}

const sleepFor = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds))

/** The final state of every job, in the order of `jobIds`. */
export const waitUntilFinal = async (
  jobIds: ReadonlyArray<string>,
  getJob: (jobId: string) => Promise<DocumentIngestJob>,
  options: WaitOptions = {}
): Promise<Array<DocumentIngestJob>> => {
  const timeoutMs = options.timeoutMs ?? defaultWaitTimeoutMs
  const maxDelay = options.maxDelayMs ?? 10_000
  const factor = options.factor ?? 2
  const sleep = options.sleep ?? sleepFor
  const deadline = Date.now() + timeoutMs
  const latest = new Map<string, DocumentIngestJob>()
  const pending = () =>
    jobIds.filter((id) => {
      const job = latest.get(id)
      return job === undefined || !isFinal(job)
    })
  const states = () => jobIds.flatMap((id) => latest.get(id) ?? [])
  let delay = options.initialDelayMs ?? 500
  for (;;) {
    for (const jobId of pending()) {
      for (;;) {
        try {
          const job = await getJob(jobId)
          latest.set(jobId, job)
          options.onUpdate?.(job)
          break
        } catch (error) {
          const rateLimited = error instanceof DastyarApiError && error.httpStatus === 429
          if (!rateLimited || Date.now() >= deadline) throw error
          await sleep(Math.min((error.retryAfter ?? 1) * 1000, Math.max(0, deadline - Date.now())))
        }
      }
    }
    if (pending().length === 0) return states()
    const left = deadline - Date.now()
    if (left <= 0) throw new JobWaitTimeoutError(states(), timeoutMs)
    await sleep(Math.min(delay, left))
    delay = Math.min(delay * factor, maxDelay)
  }
}

