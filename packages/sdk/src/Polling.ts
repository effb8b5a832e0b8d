/**
 * The one polling loop of the SDK, used by both faces (promise and Effect):
 * rounds of reads with exponentially growing pauses between them (capped), an
 * overall deadline, and 429s waited out inside a round. Waiting for ingest
 * jobs and for products to be indexed are both built on it.
 */
import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"

export interface PollTiming {
  /** Give up after this long overall. */
  readonly timeoutMs: number
  /** Pause after the first round. */
  readonly initialDelayMs: number
  /** Longest pause between rounds. */
  readonly maxDelayMs: number
  /** Growth of the pause per round. */
  readonly factor: number
}

export const defaultTiming: PollTiming = {
  timeoutMs: 10 * 60 * 1000,
  initialDelayMs: 500,
  maxDelayMs: 10_000,
  factor: 2
}

/** How a pause is taken; the promise face lets tests inject one that returns at once. */
export type Sleep = (milliseconds: number) => Effect.Effect<void>

const clockSleep: Sleep = (milliseconds) => Effect.sleep(milliseconds)

export interface PollLoop<A, E, R, T> {
  /** The state before the first round. */
  readonly start: A
  /** One round: reads what is still unfinished, given the last state and the deadline (epoch ms). */
  readonly round: (last: A, deadline: number) => Effect.Effect<A, E, R>
  readonly done: (state: A) => boolean
  /** The error when the deadline passes first, carrying the last state read. */
  readonly timedOut: (last: A) => T
  readonly timing?: Partial<PollTiming> | undefined
  readonly sleep?: Sleep | undefined
}

/** Runs rounds until `done`, pausing with backoff between them; fails with `timedOut` at the deadline. */
export const pollUntil = <A, E, R, T>(loop: PollLoop<A, E, R, T>): Effect.Effect<A, E | T, R> =>
  Effect.gen(function*() {
    const timing = { ...defaultTiming, ...loop.timing }
    const sleep = loop.sleep ?? clockSleep
    const deadline = (yield* Clock.currentTimeMillis) + timing.timeoutMs
    let state = loop.start
    let delay = timing.initialDelayMs
    for (;;) {
      state = yield* loop.round(state, deadline)
      if (loop.done(state)) return state
      const left = deadline - (yield* Clock.currentTimeMillis)
      if (left <= 0) return yield* Effect.fail(loop.timedOut(state))
      yield* sleep(Math.min(delay, left))
      delay = Math.min(delay * timing.factor, timing.maxDelayMs)
    }
  })

/**
 * Repeats a read refused with 429 after the delay the refusal names
 * (`rateLimitDelayMs` answers undefined for any other error), until the
 * deadline; then the refusal is the error.
 */
export const waitOutRateLimit = <A, E, R>(
  read: Effect.Effect<A, E, R>,
  rateLimitDelayMs: (error: E) => number | undefined,
  deadline: number,
  sleep: Sleep = clockSleep
): Effect.Effect<A, E, R> => {
  const attempt: Effect.Effect<A, E, R> = Effect.catchAll(read, (error) =>
    Effect.gen(function*() {
      const delay = rateLimitDelayMs(error)
      const left = deadline - (yield* Clock.currentTimeMillis)
      if (delay === undefined || left <= 0) return yield* Effect.fail(error)
      yield* sleep(Math.min(delay, left))
      return yield* attempt
    }))
  return attempt
}

/** The promise face's way to run a core effect: it resolves with the value or throws the error itself. */
export const runAsPromise = async <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  throw Cause.squash(exit.cause)
}

/** A promise-returning call as an effect whose error is what the promise rejected with. */
export const fromPromise = <A>(call: () => Promise<A>): Effect.Effect<A, unknown> =>
  Effect.tryPromise({ try: call, catch: (error) => error })

/** A promise face's `sleep` option as the core's `Sleep`. */
export const promiseSleep = (sleep: ((milliseconds: number) => Promise<void>) | undefined): Sleep | undefined =>
  sleep === undefined ? undefined : (milliseconds) => Effect.promise(() => sleep(milliseconds))
