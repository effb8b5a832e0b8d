/** Starts the Dastyar server: `pnpm start`. */
import { HttpServer } from "@effect/platform"
import { NodeHttpServer, NodeRuntime } from "@effect/platform-node"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { createServer } from "node:http"
import { AppLive } from "./App"
import { AppConfig } from "./Config"

const ServerLive = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => NodeHttpServer.layer(createServer, { port: config.port }))
).pipe(Layer.provide(AppConfig.Default))

const MainLive = AppLive.pipe(
  HttpServer.withLogAddress,
  Layer.provide(ServerLive)
)

NodeRuntime.runMain(Layer.launch(MainLive), { disablePrettyLogger: true })
