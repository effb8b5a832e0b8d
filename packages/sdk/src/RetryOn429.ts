/**
 * A `fetch` that waits out 429s: it sleeps for the answer's `Retry-After`
 * seconds and sends the request again, up to `maxRetries` times.
 */
import { retryAfterSeconds } from "./RetryAfter"

export type Fetch = (request: Request) => Promise<Response>

export interface RetryOptions {
  /** Retries after the first 429; default 3. */
  readonly maxRetries?: number | undefined
  /** How to wait; injectable so tests need not wait a minute. Default: `setTimeout`. */
  readonly sleep?: ((milliseconds: number) => Promise<void>) | undefined
}

export const defaultMaxRetries = 3

const sleepFor = (milliseconds: number) => new Promise<void>((resolve) => setTimeout(resolve, milliseconds))

export const retryOn429 = (fetch: Fetch, options: RetryOptions = {}): Fetch => {
  const maxRetries = options.maxRetries ?? defaultMaxRetries
  const sleep = options.sleep ?? sleepFor
  return async (request) => {
    for (let retries = 0;; retries++) {
      // A request body can be read once; every attempt sends a copy.
      const response = await fetch(request.clone())
      const seconds = retryAfterSeconds(response.headers)
      // Without `Retry-After` there is no safe delay to honour: hand the 429 back.
      if (response.status !== 429 || retries >= maxRetries || seconds === undefined) return response
      await response.body?.cancel()
      await sleep(seconds * 1000)
    }
  }
}
