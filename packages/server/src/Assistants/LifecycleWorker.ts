/** Runs the assistant lifecycle queue for as long as the server lives. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { Assistants } from "./Assistants"

export const layer = Layer.scopedDiscard(
  Effect.gen(function*() {
    const assistants = yield* Assistants
    yield* assistants.processNext.pipe(
      Effect.catchAllCause((cause) => Effect.logWarning("assistant lifecycle task failed; it will be retried", cause)),
      Effect.repeat(Schedule.forever),
      Effect.forkScoped
    )
  })
)
