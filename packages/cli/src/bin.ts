/**
 * Entry point of `dastyar` (`pnpm cli …`, or `bin/dastyar.js`). Failures are
 * reported by `Failure` as one line; the runtime's own error dump is turned off
 * and the exit code comes from `ExitCode.teardown`.
 */
import { FetchHttpClient } from "@effect/platform"
import { NodeContext, NodeRuntime } from "@effect/platform-node"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { run } from "./Cli"
import { teardown } from "./ExitCode"
import { report } from "./Failure"
import { withTidyConsole } from "./Terminal"

const main = run(process.argv).pipe(
  Effect.catchAllCause((cause) => Cause.isInterruptedOnly(cause) ? Effect.interrupt : report(cause)),
  withTidyConsole,
  Effect.provide(Layer.mergeAll(NodeContext.layer, FetchHttpClient.layer))
)

NodeRuntime.runMain(main, { disableErrorReporting: true, teardown })
