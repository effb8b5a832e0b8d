/**
 * A command that ran but did not succeed for a reason it has already explained
 * (invalid feed rows, failed ingest jobs, an unreadable file): one summary
 * line and the exit code to end with.
 */
import * as Data from "effect/Data"

export class CommandFailed extends Data.TaggedError("CommandFailed")<{
  readonly message: string
  readonly exitCode: number
}> {}
