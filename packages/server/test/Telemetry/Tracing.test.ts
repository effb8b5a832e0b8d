import { describe, expect, layer } from "@effect/vitest"
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as http from "node:http"
import * as Telemetry from "../../src/Telemetry"
import { admin, call, setupAccount, TestApp } from "../support/TestApp"

const exporter = new InMemorySpanExporter()
const InMemoryTracing = Telemetry.layerWith(new SimpleSpanProcessor(exporter))

const waitFor = <A>(find: () => A | undefined) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 100; attempt++) {
      const found = find()
      if (found !== undefined) return found
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.die(new Error("span never arrived"))
  })

const allAttributeValues = (spans: ReadonlyArray<ReadableSpan>) =>
  spans.flatMap((span) => Object.values(span.attributes).map(String))

describe("tracing", () => {
  layer(TestApp().pipe(Layer.provide(InMemoryTracing)), { excludeTestServices: true })("in-memory exporter", (it) => {
    it.effect("one authenticated request: a server span with the route template, children for auth, domain and SQL", () =>
      Effect.gen(function*() {
        const { key, assistantId } = yield* setupAccount()
        exporter.reset()
        const reply = yield* call("GET", `/v1/assistants/${assistantId}/products`, { token: key })
        expect(reply.status).toBe(200)
        const spans = exporter.getFinishedSpans()
        const server = yield* waitFor(() =>
          exporter.getFinishedSpans().find((s) => s.kind === 1 && s.attributes["http.route"] !== undefined)
        )
        expect(server.attributes).toMatchObject({
          "http.route": "/v1/assistants/:assistantCode/products",
          "http.request.method": "GET",
          "http.response.status_code": 200,
          "dastyar.assistant_id": assistantId
        })
        const trace = exporter.getFinishedSpans().filter((s) =>
          s.spanContext().traceId === server.spanContext().traceId
        )
        const names = new Set(trace.map((s) => s.name))
        for (
          const name of [
            "ApiKeyAuth",
            "Accounts.authenticate",
            "RateLimit.consume",
            "Assistants.requireOwnership",
            "Catalog.list"
          ]
        ) {
          expect(names).toContain(name)
        }
        expect(trace.some((s) => s.name.startsWith("sql."))).toBe(true)
        // Every span the server made for the request hangs under the server span
        // (the test client's own span, kind CLIENT, is the server span's parent).
        const ids = new Set(trace.map((s) => s.spanContext().spanId))
        for (const span of trace.filter((s) => s !== server && s.kind !== 2)) {
          expect(ids.has(span.parentSpanContext?.spanId ?? "")).toBe(true)
        }
        // Never a key (nor the Authorization header) in any attribute.
        expect(allAttributeValues(spans).join(" ")).not.toContain(key)
      }))

    it.effect("an API key not of the issued shape is refused without a database lookup", () =>
      Effect.gen(function*() {
        for (const token of ["not-a-key", `dsk_${"A".repeat(42)}`, `dsk_${"A".repeat(43)}!`]) {
          exporter.reset()
          const reply = yield* call("GET", "/v1/assistants", { token })
          expect(reply.status).toBe(401)
          const auth = yield* waitFor(() => exporter.getFinishedSpans().find((s) => s.name === "ApiKeyAuth"))
          const trace = exporter.getFinishedSpans().filter((s) =>
            s.spanContext().traceId === auth.spanContext().traceId
          )
          expect(trace.filter((s) => s.name.startsWith("sql.")).map((s) => s.name)).toEqual([])
        }
        // A well-formed unknown key is looked up.
        exporter.reset()
        expect((yield* call("GET", "/v1/assistants", { token: `dsk_${"B".repeat(43)}` })).status).toBe(401)
        yield* waitFor(() => exporter.getFinishedSpans().find((s) => s.name.startsWith("sql.")))
      }))

    it.effect("background work links back to the request that queued it", () =>
      Effect.gen(function*() {
        exporter.reset()
        yield* setupAccount()
        const lifecycle = yield* waitFor(() =>
          exporter.getFinishedSpans().find((s) => s.name === "Assistants.lifecycle")
        )
        const create = exporter.getFinishedSpans().find((s) => s.name === "Assistants.create")
        expect(create).toBeDefined()
        expect(lifecycle.links.map((l) => l.context.traceId)).toEqual([create?.spanContext().traceId])
        expect(lifecycle.attributes["task"]).toBe("Provision")
      }))
  })

  // A local OTLP/HTTP receiver: what the exporter sends is decoded as OTLP JSON.
  const received: Array<unknown> = []
  const receiver = http.createServer((request, response) => {
    let body = ""
    request.on("data", (chunk: Buffer) => (body += chunk.toString()))
    request.on("end", () => {
      if (request.url === "/v1/traces") received.push(JSON.parse(body))
      response.writeHead(200, { "content-type": "application/json" }).end("{}")
    })
  })
  const receiverPort = once(() =>
    new Promise<number>((resolve) => {
      receiver.listen(0, "127.0.0.1", () => {
        const address = receiver.address()
        resolve(typeof address === "object" && address !== null ? address.port : 0)
      })
    })
  )

  layer(
    Layer.unwrapEffect(Effect.map(Effect.promise(receiverPort), (port) =>
      TestApp({
        OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${port}`,
        OTEL_SERVICE_NAME: "dastyar-test",
        OTEL_BSP_SCHEDULE_DELAY: "100"
      }))),
    { excludeTestServices: true }
  )("OTLP/HTTP export", (it) => {
    it.effect("spans arrive at the configured endpoint as OTLP with the service name", () =>
      Effect.gen(function*() {
        const { key } = yield* setupAccount()
        yield* call("GET", "/v1/assistants", { token: key })
        yield* admin("GET", "/assistants/none")
        const spans = yield* waitFor(() => {
          const all = received.flatMap(otlpSpans)
          return all.some((s) => s.route === "/v1/assistants") ? all : undefined
        })
        expect(received.flatMap(otlpServiceNames)).toContain("dastyar-test")
        expect(spans.some((s) => s.name === "Assistants.list")).toBe(true)
        expect(JSON.stringify(received)).not.toContain(key)
        receiver.close()
      }))
  })
})

/** Starts the receiver on first use only (the layer is built in a hook). */
function once<A>(f: () => Promise<A>) {
  let started: Promise<A> | undefined
  return () => (started ??= f())
}

interface OtlpSpan {
  readonly name: string
  readonly route: string | undefined
}

const records = (value: unknown, key: string): ReadonlyArray<unknown> => {
  const field = typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined
  return Array.isArray(field) ? field : []
}
const text = (value: unknown, key: string): string | undefined => {
  const field = typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined
  return typeof field === "string" ? field : undefined
}
const attribute = (span: unknown, name: string): string | undefined => {
  const found = records(span, "attributes").find((a) => text(a, "key") === name)
  const value = typeof found === "object" && found !== null ? Reflect.get(found, "value") : undefined
  return text(value, "stringValue")
}

function otlpSpans(payload: unknown): ReadonlyArray<OtlpSpan> {
  return records(payload, "resourceSpans").flatMap((rs) =>
    records(rs, "scopeSpans").flatMap((ss) =>
      records(ss, "spans").map((span) => ({ name: text(span, "name") ?? "", route: attribute(span, "http.route") }))
    )
  )
}

function otlpServiceNames(payload: unknown): ReadonlyArray<string> {
  return records(payload, "resourceSpans").flatMap((rs) => {
    const resource = typeof rs === "object" && rs !== null ? Reflect.get(rs, "resource") : undefined
    const name = attribute(resource, "service.name")
    return name === undefined ? [] : [name]
  })
}
