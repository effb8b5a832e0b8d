/**
 * Runs document ingest for as long as the server lives: `DASTYAR_INGEST_WORKERS`
 * fibers taking jobs from the durable queue (a job whose worker died is taken
 * again once its lease expires), and a sweeper that ends jobs nothing will
 * finish, so no job stays `queued` or `processing` forever.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { AppConfig } from "../Config"
import { linksTo } from "../Telemetry"
import { DocumentsRepo } from "./DocumentsRepo"
import { Ingest } from "./Ingest"
import * as IngestQueue from "./IngestQueue"

/** Beyond the job time limit: the queue's lease (30 s) plus a margin. */
const abandonMargin = Duration.minutes(2)

export const layer = Layer.scopedDiscard(
  Effect.gen(function*() {
    const ingest = yield* Ingest
    const repo = yield* DocumentsRepo
    const queue = yield* IngestQueue.make
    const { ingest: settings } = yield* AppConfig

    const takeOne = queue.take((task) =>
      ingest.run(task.jobId).pipe(
        Effect.withSpan("Documents.ingestTask", { links: linksTo(task.queuedBy), root: true })
      )
    ).pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("ingest task failed; the queue retries it", cause))
    )
    yield* Effect.forEach(
      Array.from({ length: settings.workers }),
      () => Effect.forkScoped(Effect.forever(takeOne)),
      { discard: true }
    )

    const processingSeconds = Duration.toSeconds(Duration.sum(settings.timeout, abandonMargin))
    yield* repo.failAbandoned({
      processingSeconds,
      queueTable: IngestQueue.queueTable,
      queueIdOf: IngestQueue.elementIdOf
    }).pipe(
      Effect.tap((ended) =>
        ended.length === 0 ? Effect.void : Effect.logWarning("ended abandoned ingest jobs").pipe(
          Effect.annotateLogs({ jobIds: ended })
        )
      ),
      Effect.catchAllCause((cause) => Effect.logWarning("ingest sweeper failed", cause)),
      Effect.repeat(Schedule.spaced("1 minute")),
      Effect.forkScoped
    )
  })
)
