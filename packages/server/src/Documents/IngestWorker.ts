/**
 * Runs document ingest for as long as the server lives: `DASTYAR_INGEST_WORKERS`
 * fibers taking jobs from the durable queue (a job whose worker died is taken
 * again once its lease expires), and a sweeper that ends jobs nothing will
 * finish, so no job stays `queued` or `processing` forever.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AppConfig } from "../Config"
import * as Worker from "../Platform/Worker"
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
    )
    yield* Worker.consume("document-ingest", takeOne, {
      workers: settings.workers,
      failureMessage: "ingest task failed; the queue retries it"
    })

    const processingSeconds = Duration.toSeconds(Duration.sum(settings.timeout, abandonMargin))
    const sweep = repo.failAbandoned({
      processingSeconds,
      queueTable: IngestQueue.queueTable,
      queueIdOf: IngestQueue.elementIdOf
    }).pipe(
      Effect.tap((ended) =>
        ended.length === 0 ? Effect.void : Effect.logWarning("ended abandoned ingest jobs").pipe(
          Effect.annotateLogs({ jobIds: ended })
        )
      )
    )
    yield* Worker.every("document-ingest-sweeper", sweep, { interval: "1 minute", failureMessage: "ingest sweeper failed" })
  })
)
