/**
 * Structured JSON logs, one object per line, at `DASTYAR_LOG_LEVEL`, each
 * carrying the trace and span ids of the span it was written in (when tracing
 * is on: see `Telemetry.tracingOffWhenUnexported`).
 */
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as FiberRefs from "effect/FiberRefs"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as Option from "effect/Option"
import * as Tracer from "effect/Tracer"
import { AppConfig } from "./Config"

export const jsonLogger = Logger.make((options) => {
  const context = FiberRefs.getOrDefault(options.context, FiberRef.currentContext)
  // With tracing off, spans are no-ops whose ids ("noop") would only mislead.
  const span = Option.filter(Context.getOption(context, Tracer.ParentSpan), (s) => s.spanId !== "noop")
  const entry = {
    ...Logger.structuredLogger.log(options),
    ...Option.match(span, { onNone: () => ({}), onSome: (s) => ({ traceId: s.traceId, spanId: s.spanId }) })
  }
  globalThis.console.log(JSON.stringify(entry))
})

export const layer = Layer.unwrapEffect(
  Effect.map(
    AppConfig,
    (config) => Layer.merge(Logger.replace(Logger.defaultLogger, jsonLogger), Logger.minimumLogLevel(config.logLevel))
  )
).pipe(Layer.provide(AppConfig.Default))
