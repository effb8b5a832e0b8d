/**
 * The background worker loop, written once for every queue and periodic pass:
 * fibers that live as long as the layer's scope, a failure logged and counted
 * (never ending the loop), a growing pause after consecutive failures so a
 * broken dependency does not spin, and counters per worker and outcome.
 *
 * Leases are the queue's (`Queue/Queue.ts`: an element a dead worker held is
 * handed out again) or the rows' own (SKIP LOCKED batches, lease columns);
 * what one element or one pass means stays with the feature.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"

const runs = Metric.counter("dastyar_worker_runs", { description: "background worker runs by worker and outcome" })

/** After the n-th failure in a row: 100 ms, doubling, at most 10 s; a success starts over. */
const pauseAfter = (failures: number) => Duration.millis(Math.min(10_000, 100 * 2 ** Math.min(failures - 1, 10)))

const counted = (worker: string, outcome: "ok" | "failed") =>
  Metric.update(runs.pipe(Metric.tagged("worker", worker), Metric.tagged("outcome", outcome)), 1)

/** One run, its failure logged and counted; the number of failures in a row after it. */
const runOnce = <A, E, R>(worker: string, run: Effect.Effect<A, E, R>, failureMessage: string, failures: number) =>
  Effect.matchCauseEffect(run, {
    onSuccess: () => Effect.as(counted(worker, "ok"), 0),
    onFailure: (cause) =>
      Effect.logWarning(failureMessage, cause).pipe(
        Effect.annotateLogs({ worker }),
        Effect.zipRight(counted(worker, "failed")),
        Effect.as(failures + 1)
      )
  })

/**
 * `workers` fibers each handling one queue element after another: `takeOne`
 * waits while the queue is empty and handles what it takes (in its own span,
 * linked to the request that queued it).
 */
export const consume = <A, E, R>(
  worker: string,
  takeOne: Effect.Effect<A, E, R>,
  options: { readonly workers?: number; readonly failureMessage: string }
): Effect.Effect<void, never, R | Scope.Scope> =>
  Effect.forEach(
    Array.from({ length: options.workers ?? 1 }),
    () =>
      Effect.iterate(0, {
        while: () => true,
        body: (failures) =>
          runOnce(worker, takeOne, options.failureMessage, failures).pipe(
            Effect.tap((failuresNow) => failuresNow === 0 ? Effect.void : Effect.sleep(pauseAfter(failuresNow)))
          )
      }).pipe(Effect.forkScoped),
    { discard: true }
  )

/**
 * A pass run now and then every `interval` (a failed pass is tried again at
 * the next one), in a span named `span` when given.
 */
export const every = <A, E, R>(
  worker: string,
  pass: Effect.Effect<A, E, R>,
  options: { readonly interval: Duration.DurationInput; readonly failureMessage: string; readonly span?: string }
): Effect.Effect<void, never, R | Scope.Scope> =>
  runOnce(
    worker,
    options.span === undefined ? pass : Effect.withSpan(pass, options.span),
    options.failureMessage,
    0
  ).pipe(
    Effect.repeat(Schedule.spaced(options.interval)),
    Effect.asVoid,
    Effect.forkScoped
  )
