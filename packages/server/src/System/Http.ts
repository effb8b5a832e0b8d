/** Liveness and readiness probes. */
import { DastyarApi, System } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import { latestMigration } from "../Database/Migrator"
import { annotateRoute } from "../Platform/RequestLog"

export const SystemHttpLive = HttpApiBuilder.group(DastyarApi, "system", (handlers) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const ready = sql<{ readonly latest: number | null }>`SELECT max(migration_id) AS latest FROM effect_sql_migrations`
      .pipe(
        Effect.timeout("2 seconds"),
        Effect.map((rows) => rows[0]?.latest === latestMigration),
        Effect.orElseSucceed(() => false)
      )
    return handlers
      // The probes pass no authentication middleware, which is where other routes record their template for the log.
      .handle("health", () => Effect.as(annotateRoute, { status: "up" as const }))
      .handle("ready", () =>
        annotateRoute.pipe(
          Effect.zipRight(ready),
          Effect.flatMap((isReady) =>
            isReady ? Effect.succeed({ status: "ready" as const }) : Effect.fail(new System.NotReady())
          )
        ))
  }))
