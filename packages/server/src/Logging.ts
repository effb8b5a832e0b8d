/** Structured JSON logs, one object per line, at `DASTYAR_LOG_LEVEL`. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import { AppConfig } from "./Config"

export const layer = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) => Layer.merge(Logger.json, Logger.minimumLogLevel(config.logLevel)))
).pipe(Layer.provide(AppConfig.Default))
