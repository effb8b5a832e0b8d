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
import * as fs from "node:fs"
import { SourceMap } from "node:module"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { AppConfig } from "./Config"

/** A stack frame's position in a compiled file (`dist/js/*.js`), as printed in a stack trace. */
const compiledFrame = /((?:file:\/\/)?\/[^\s():"]*\/dist\/js\/[^\s():"/]+\.js):(\d+):(\d+)/g

const sourceMaps = new Map<string, SourceMap | undefined>()
const sourceMapOf = (file: string): SourceMap | undefined => {
  if (!sourceMaps.has(file)) {
    let map: SourceMap | undefined
    try {
      map = new SourceMap(JSON.parse(fs.readFileSync(`${file}.map`, "utf8")))
    } catch {
      map = undefined
    }
    sourceMaps.set(file, map)
  }
  return sourceMaps.get(file)
}

/**
 * Stack frames of the compiled server, pointed back at the TypeScript sources.
 * `pnpm start` runs without `--enable-source-maps`, which would hold the
 * decoded maps in memory for the life of the process; a map is
 * read here only when a logged stack trace first needs it.
 */
export const mapCompiledFrames = (text: string): string =>
  process.sourceMapsEnabled || !text.includes("/dist/js/") ? text : text.replace(
    compiledFrame,
    (frame, location: string, line: string, column: string) => {
      const file = location.startsWith("file:") ? fileURLToPath(location) : location
      const entry = sourceMapOf(file)?.findEntry(Number(line) - 1, Number(column) - 1)
      if (entry === undefined || !("originalSource" in entry)) return frame
      const source = entry.originalSource.startsWith("file:")
        ? fileURLToPath(entry.originalSource)
        : path.resolve(path.dirname(file), entry.originalSource)
      return `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`
    }
  )

export const jsonLogger = Logger.make((options) => {
  const context = FiberRefs.getOrDefault(options.context, FiberRef.currentContext)
  // With tracing off, spans are no-ops whose ids ("noop") would only mislead.
  const span = Option.filter(Context.getOption(context, Tracer.ParentSpan), (s) => s.spanId !== "noop")
  const entry = {
    ...Logger.structuredLogger.log(options),
    ...Option.match(span, { onNone: () => ({}), onSome: (s) => ({ traceId: s.traceId, spanId: s.spanId }) })
  }
  globalThis.console.log(mapCompiledFrames(JSON.stringify(entry)))
})

export const layer = Layer.unwrapEffect(
  Effect.map(
    AppConfig,
    (config) => Layer.merge(Logger.replace(Logger.defaultLogger, jsonLogger), Logger.minimumLogLevel(config.logLevel))
  )
).pipe(Layer.provide(AppConfig.Default))
