/**
 * Starts the Dastyar server (`pnpm start` runs the compiled form of this file).
 *
 * The socket is bound first (a taken port fails at once, in one line) and
 * answers `503 service.not_ready` until the app is served; on SIGTERM or
 * SIGINT requests in flight finish (up to `DASTYAR_SHUTDOWN_TIMEOUT`), then
 * workers stop and hand their queue leases back, the pool closes, exit code 0.
 */
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import * as ConfigError from "effect/ConfigError"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AppLive } from "./App"
import * as Serving from "./Http/Serving"
import * as Telemetry from "./Telemetry"

/** What to type to reach the server from this machine. */
const localBaseUrl = (host: string, port: number) => {
  const reachable = host === "0.0.0.0" || host === "::" ? "localhost" : host.includes(":") ? `[${host}]` : host
  return `http://${reachable}:${port}`
}

const exitWith = (message: string) =>
  Effect.sync(() => {
    console.error(message)
    process.exit(1)
  })

/** `NAME: what is wrong` for each setting at fault, on one line. */
const describeConfigError = (error: ConfigError.ConfigError): string => {
  switch (error._op) {
    case "And":
    case "Or":
      return `${describeConfigError(error.left)}; ${describeConfigError(error.right)}`
    default:
      return error.path.length === 0 ? error.message : `${error.path.join(".")}: ${error.message}`
  }
}

const main = Effect.gen(function*() {
  yield* Layer.build(AppLive.pipe(Layer.provide(Serving.layer)))
  // Registered after the app, so it runs first at stop, while the services are still up.
  yield* Serving.drainOnStop
  const { config } = yield* Serving.NodeServer
  const base = localBaseUrl(config.host, config.port)
  yield* Effect.sync(() =>
    console.log([
      "",
      `Dastyar is ready. Listening on ${config.host}:${config.port}`,
      `  Base URL:      ${base}`,
      `  API reference: ${base}/docs`,
      `  CLI:           DASTYAR_BASE_URL=${base} ./dastyar --help`,
      ""
    ].join("\n"))
  )
  return yield* Effect.never
}).pipe(
  Effect.scoped,
  Telemetry.tracingOffWhenUnexported,
  // Start failures a user fixes by hand are one line, not a stack trace.
  Effect.catchTags({
    ListenError: (error) => exitWith(error.message),
    EmbeddedDatabaseInUse: (error) => exitWith(error.message)
  }),
  Effect.provide([Serving.NodeServer.Default, NodeHttpServer.layerContext]),
  // A setting out of range (a short operator token among them) names itself in one line.
  Effect.catchIf(ConfigError.isConfigError, (error) => exitWith(`Invalid configuration: ${describeConfigError(error)}`))
)

NodeRuntime.runMain(main, { disablePrettyLogger: true })
