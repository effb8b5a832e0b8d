/**
 * The one retry policy of the messenger drivers' API calls (Telegram, Bale,
 * WhatsApp): a platform outage (unreachable, timed out, 5xx) or a 429 is tried
 * again after an exponential backoff, or after the wait the platform asked
 * for; anything else fails at once. Attempts are bounded
 * (`DASTYAR_CHANNEL_RETRY_ATTEMPTS`), so a call is never retried forever.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { AppConfig } from "../Config"

/** What a failed call says about itself. */
export interface Retryable {
  /** Worth another try: the platform was unreachable or overloaded, or asked to slow down. */
  readonly transient: boolean
  /** The platform's own wait (a 429's `retry_after`), preferred to the backoff. */
  readonly retryAfterSeconds: number | null
}

export interface RetryPolicy {
  /** Attempts per call, the first included. */
  readonly attempts: number
  /** The wait before the second attempt; each later wait doubles, up to 30 seconds. */
  readonly baseDelay: Duration.Duration
}

/** A platform asking to wait longer than this inside one call is given up on. */
const longestWait = Duration.minutes(2)
const backoffCap = Duration.seconds(30)

/** The wait before attempt `attempt + 1`, after `error` ended attempt `attempt`. */
export const delayAfter = (policy: RetryPolicy, attempt: number, error: Retryable): Duration.Duration =>
  error.retryAfterSeconds !== null
    ? Duration.seconds(error.retryAfterSeconds)
    : Duration.min(Duration.times(policy.baseDelay, 2 ** (attempt - 1)), backoffCap)

/** The policy set for this server. */
export const policy = Effect.map(AppConfig, (config): RetryPolicy => config.channelRetry)

/** Runs `effect`, again after transient failures, at most `policy.attempts` times in all. */
export const retrying = <A, E extends Retryable, R>(
  effect: Effect.Effect<A, E, R>,
  policy: RetryPolicy,
  what: string
): Effect.Effect<A, E, R> => {
  const attempt = (n: number): Effect.Effect<A, E, R> =>
    Effect.catchAll(effect, (error) => {
      const delay = delayAfter(policy, n, error)
      if (!error.transient || n >= policy.attempts || Duration.greaterThan(delay, longestWait)) {
        return Effect.fail(error)
      }
      return Effect.logWarning("messenger API call failed; retrying").pipe(
        Effect.annotateLogs({ call: what, attempt: n, retryInMs: Duration.toMillis(delay) }),
        Effect.zipRight(Effect.sleep(delay)),
        Effect.zipRight(attempt(n + 1))
      )
    })
  return attempt(1)
}
