/** The durable queue of ingest jobs (one element per job, offered with the job row). */
import { PersistedQueue } from "@effect/experimental"
import * as Schema from "effect/Schema"
import { elementId } from "../Queue/Queue"
import { TraceLink } from "../Telemetry"

export const IngestTask = Schema.Struct({
  jobId: Schema.String,
  /** Whose job it is, for fair claims across shops (Queue/Queue.ts); absent in tasks queued before. */
  assistantId: Schema.optional(Schema.String),
  queuedBy: Schema.optional(TraceLink)
})
export type IngestTask = typeof IngestTask.Type

export const make = PersistedQueue.make({ name: "document-ingest", schema: IngestTask })

/** The queue element of a job (offering it twice queues it once). */
export const elementIdOf = (jobId: string) => elementId("document-ingest", jobId)

/** `Queue.ts`'s table, read by the sweeper to tell a waiting job from one the queue gave up. */
export const queueTable = "dastyar_queue"
