/**
 * OpenTelemetry tracing: spans are exported over OTLP/HTTP when the standard
 * `OTEL_EXPORTER_OTLP_ENDPOINT` (or `…_TRACES_ENDPOINT`) is set; otherwise the
 * server makes no spans at all (`tracingOffWhenUnexported`), since they would
 * cost every request CPU and go nowhere.
 * Service name `dastyar-server` unless `OTEL_SERVICE_NAME` says otherwise.
 * No secret goes into a span: see `Platform/Redaction.ts`.
 */
import { HttpMiddleware } from "@effect/platform"
import type { SpanProcessor } from "@opentelemetry/sdk-trace-base"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import * as Tracer from "effect/Tracer"
import * as Redaction from "./Platform/Redaction"

export const serviceName = Config.string("OTEL_SERVICE_NAME").pipe(Config.withDefault("dastyar-server"))

/** `k1=v1,k2=v2` as in the OTLP exporter specification. */
const parseHeaders = (raw: string): Record<string, string> =>
  Object.fromEntries(
    raw.split(",").map((pair) => pair.split("=")).filter((kv) => kv.length >= 2).map(([k = "", ...v]) => [
      decodeURIComponent(k.trim()),
      decodeURIComponent(v.join("=").trim())
    ])
  )

const tracesEndpoint = Config.all({
  traces: Config.option(Config.string("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")),
  base: Config.option(Config.string("OTEL_EXPORTER_OTLP_ENDPOINT"))
}).pipe(
  Config.map(({ base, traces }) =>
    Option.orElse(traces, () => Option.map(base, (url) => `${url.replace(/\/+$/, "")}/v1/traces`))
  )
)

/** Tracing with the given span processors (tests pass an in-memory one). */
// The OpenTelemetry SDK is imported only when tracing is on: unconfigured, a server never loads it.
export const layerWith = (spanProcessor: SpanProcessor) =>
  Layer.unwrapEffect(
    Effect.map(
      Effect.promise(() => import("@effect/opentelemetry/NodeSdk")),
      (NodeSdk) =>
        NodeSdk.layer(Effect.map(serviceName, (name) => ({ resource: { serviceName: name }, spanProcessor })))
    )
  )

const exporting = Layer.unwrapEffect(
  Effect.gen(function*() {
    const endpoint = yield* tracesEndpoint
    if (Option.isNone(endpoint)) return Layer.empty
    const headers = parseHeaders(yield* Config.string("OTEL_EXPORTER_OTLP_HEADERS").pipe(Config.withDefault("")))
    const scheduledDelayMillis = yield* Config.integer("OTEL_BSP_SCHEDULE_DELAY").pipe(Config.withDefault(5000))
    const [{ OTLPTraceExporter }, { BatchSpanProcessor }] = yield* Effect.promise(() =>
      Promise.all([import("@opentelemetry/exporter-trace-otlp-http"), import("@opentelemetry/sdk-trace-base")])
    )
    return layerWith(
      new BatchSpanProcessor(new OTLPTraceExporter({ url: endpoint.value, headers }), { scheduledDelayMillis })
    )
  })
)

/**
 * Tracing as configured, and, whether or not spans are exported, every
 * credential-bearing header redacted from the spans the platform makes (Effect
 * redacts only `authorization`, `cookie`, `set-cookie` and `x-api-key`).
 */
export const layer = Layer.provideMerge(exporting, Redaction.layerRedactHeaders)

/**
 * Runs `effect` (the whole server, in `main.ts`) with tracing off when no
 * exporter is configured: no spans, ids or stack captures per operation, and
 * no HTTP server span (URL and header attributes) per request: spans that go
 * nowhere would still cost every request CPU. Tests keep the default (on).
 */
export const tracingOffWhenUnexported = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.flatMap(Effect.orDie(tracesEndpoint), (endpoint) =>
    Option.isSome(endpoint) ? effect : effect.pipe(
      HttpMiddleware.withTracerDisabledWhenEffect(() => true),
      Effect.withTracerEnabled(false)
    ))

/**
 * `Effect.withSpan` for the per-request path. With tracing off (see
 * `tracingOffWhenUnexported`) the span would be a no-op that is still made,
 * provided (a copy of the request's whole context) and ended on every call;
 * then `effect` runs as it is. Logs and trace links treat both alike: they skip no-op spans.
 */
export const withSpanWhenTracing =
  (name: string, options?: Tracer.SpanOptions) => <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
    Effect.withFiberRuntime((fiber) =>
      fiber.getFiberRef(FiberRef.currentTracerEnabled) ? Effect.withSpan(effect, name, options) : effect
    )

/**
 * The span that queued a piece of background work, carried in the queue
 * element so the worker's span can link back to the request.
 */
export const TraceLink = Schema.Struct({ traceId: Schema.String, spanId: Schema.String })
export type TraceLink = typeof TraceLink.Type

export const currentTraceLink: Effect.Effect<TraceLink | undefined> = Effect.map(
  Effect.option(Effect.currentSpan),
  (span) =>
    Option.match(span, {
      onNone: () => undefined,
      // With tracing off, spans are no-ops: nothing to link to.
      onSome: ({ spanId, traceId }) => spanId === "noop" ? undefined : { spanId, traceId }
    })
)

export const linksTo = (link: TraceLink | undefined): ReadonlyArray<Tracer.SpanLink> =>
  link === undefined ? [] : [{ _tag: "SpanLink", span: Tracer.externalSpan(link), attributes: {} }]
