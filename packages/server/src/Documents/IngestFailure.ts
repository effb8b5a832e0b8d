/**
 * Why an ingest job failed: the `errorMessage` a client reads on a `failed`
 * job (documented in the README and the domain). `transient` failures are
 * retried with backoff before the job is given up.
 */
import * as Schema from "effect/Schema"

export const ErrorMessage = Schema.Literal(
  "no_text",
  "encrypted",
  "corrupt_file",
  "too_large",
  "transcription_not_configured",
  "transcription_failed",
  "transcription_unavailable",
  "embeddings_failed",
  "embeddings_unavailable",
  "superseded",
  "timeout",
  "ingest_failed"
)
export type ErrorMessage = typeof ErrorMessage.Type

export class IngestFailure extends Schema.TaggedError<IngestFailure>()("IngestFailure", {
  errorMessage: ErrorMessage,
  /** For the logs only; clients see `errorMessage`. */
  detail: Schema.String,
  transient: Schema.Boolean
}) {}

export const permanent = (errorMessage: ErrorMessage, detail: string) =>
  new IngestFailure({ errorMessage, detail, transient: false })
