/**
 * The process exit codes, and the teardown that sets them: a failed command
 * ends with an `ExitWith` failure carrying its code (its message was already
 * printed), so nothing else needs to print or inspect it.
 */
import type { Teardown } from "@effect/platform/Runtime"
import * as Cause from "effect/Cause"
import * as Data from "effect/Data"
import * as Exit from "effect/Exit"
import * as Option from "effect/Option"

export const ExitCode = {
  ok: 0,
  /** The server answered with an error (4xx/5xx) or an unreadable response. */
  api: 1,
  /** Bad flags or arguments, a missing credential or an unusable base URL. */
  usage: 2,
  /** The server could not be reached. */
  connection: 3,
  /** A bug: an unexpected defect (printed with its trace). */
  internal: 70,
  interrupted: 130
} as const

export class ExitWith extends Data.TaggedError("ExitWith")<{ readonly code: number }> {}

export const teardown: Teardown = (exit, onExit) =>
  onExit(Exit.match(exit, {
    onSuccess: () => ExitCode.ok,
    onFailure: (cause) =>
      Cause.isInterruptedOnly(cause) ? ExitCode.interrupted : Cause.failureOption(cause).pipe(
        Option.flatMap((error) => error instanceof ExitWith ? Option.some(error.code) : Option.none()),
        Option.getOrElse(() => ExitCode.internal)
      )
  }))
