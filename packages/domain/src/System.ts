import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "@effect/platform"
import * as Schema from "effect/Schema"
import { errorFields, failure, success } from "./Envelope"

export const Health = Schema.Struct({ status: Schema.Literal("up", "ready") }).annotations({ identifier: "Health" })

export class NotReady extends Schema.TaggedError<NotReady>()("NotReady", errorFields) {}
export const NotReadyResponse = failure(NotReady, { status: 503, code: "service.not_ready" })

/** Probes for load balancers and orchestrators; no key. */
export class SystemApi extends HttpApiGroup.make("system")
  .annotate(OpenApi.Title, "System")
  .add(
    HttpApiEndpoint.get("health", "/health")
      .annotate(OpenApi.Summary, "Liveness probe")
      .addSuccess(success(Health, { identifier: "HealthResponse" }))
      .annotate(OpenApi.Description, "200 while the process is up.")
  )
  .add(
    HttpApiEndpoint.get("ready", "/ready")
      .annotate(OpenApi.Summary, "Readiness probe")
      .addSuccess(success(Health, { identifier: "ReadyResponse" }))
      .addError(NotReadyResponse)
      .annotate(OpenApi.Description, "200 only when the database is reachable and migrated.")
  )
  .annotate(OpenApi.Description, "Liveness and readiness probes.")
{}
