import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import { vi } from "vitest"
import { jsonLogger } from "../../src/Logging"

describe("JSON logs", () => {
  it.effect("carry the trace and span ids of the span they were written in", () =>
    Effect.gen(function*() {
      const lines: Array<string> = []
      const spy = vi.spyOn(console, "log").mockImplementation((line: string) => void lines.push(line))
      const span = yield* Effect.gen(function*() {
        yield* Effect.logInfo("inside").pipe(Effect.annotateLogs({ route: "GET /v1/assistants" }))
        return yield* Effect.currentSpan
      }).pipe(Effect.withSpan("Feature.operation"), Effect.provide(Logger.replace(Logger.defaultLogger, jsonLogger)))
      spy.mockRestore()
      expect(lines.map((line) => JSON.parse(line))).toEqual([
        expect.objectContaining({
          message: "inside",
          logLevel: "INFO",
          annotations: { route: "GET /v1/assistants" },
          traceId: span.traceId,
          spanId: span.spanId
        })
      ])
    }))
})
