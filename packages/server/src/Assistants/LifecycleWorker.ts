/** Runs the assistant lifecycle queue for as long as the server lives. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Worker from "../Platform/Worker"
import { Assistants } from "./Assistants"

export const layer = Layer.scopedDiscard(
  Effect.flatMap(Assistants, (assistants) =>
    Worker.consume("assistant-lifecycle", assistants.processNext, {
      failureMessage: "assistant lifecycle task failed; it will be retried"
    }))
)
