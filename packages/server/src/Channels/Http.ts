/** The messenger hook and the operator's connection routes. */
import { DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Connections } from "./Connections"
import { Hooks } from "./Hooks"

const HooksHttpLive = HttpApiBuilder.group(DastyarApi, "hooks", (handlers) =>
  Effect.gen(function*() {
    const hooks = yield* Hooks
    // Raw: the body is read (and HMAC-checked) by the driver, not decoded by the framework.
    return handlers
      .handleRaw("deliver", ({ path, request }) => hooks.receive(path.driver, path.connectionCode, request))
      .handleRaw(
        "deliverWithSecret",
        ({ path, request }) => hooks.receive(path.driver, path.connectionCode, request, path.hookSecret)
      )
      .handle("verify", ({ path, urlParams }) => hooks.verify(path.driver, path.connectionCode, urlParams))
  }))

const AdminConnectionsHttpLive = HttpApiBuilder.group(
  DastyarApi,
  "adminConnections",
  (handlers) =>
    Effect.gen(function*() {
      const connections = yield* Connections
      return handlers
        .handle("createConnection", ({ path, payload }) => connections.create(path.assistantId, payload))
        .handle("listConnections", ({ path }) => connections.list(path.assistantId))
        .handle("disableConnection", ({ path }) => connections.disable(path.assistantId, path.connectionCode))
        .handle("enableConnection", ({ path }) => connections.enable(path.assistantId, path.connectionCode))
        .handle(
          "deleteConnection",
          ({ path }) => connections.remove(path.assistantId, path.connectionCode).pipe(Effect.as(null))
        )
    })
)

/** Needs `RateLimit` (the hook's per-connection limit) and the channel services from the app. */
export const ChannelsHttpLive = Layer.mergeAll(HooksHttpLive, AdminConnectionsHttpLive).pipe(
  Layer.provide(Hooks.DefaultWithoutDependencies)
)
