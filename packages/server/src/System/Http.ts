/** Liveness and readiness probes. */
import { DastyarApi, System } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { isMigrated } from "../Database/Migrator"
import { annotateRoute } from "../Platform/RequestLog"

export const SystemHttpLive = HttpApiBuilder.group(DastyarApi, "system", (handlers) =>
  Effect.sync(() =>
    handlers
      // The probes pass no authentication middleware, which is where other routes record their template for the log.
      .handle("health", () => Effect.as(annotateRoute, { status: "up" as const }))
      .handle("ready", () =>
        annotateRoute.pipe(
          Effect.zipRight(isMigrated),
          Effect.flatMap((isReady) =>
            isReady ? Effect.succeed({ status: "ready" as const }) : Effect.fail(new System.NotReady())
          )
        ))
  ))
