/**
 * Files made to exhaust the reader: each fails its own job with `too_large`
 * in bounded time, and the server keeps answering everyone else meanwhile.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import { call, pickString, setupAccount, TestApp } from "../support/TestApp"
import { makeDocx, makeDocxBomb, makePdf, makePngHeader, upload, waitForJob } from "./support"

const docxType = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"

/**
 * Calls `/health` back to back until `done` is set; every call must be answered. The bound is loose on
 * purpose (a blocked event loop stalls for the whole parse, tens of seconds); the 500 ms figure is measured
 * by the reliability suite, not asserted on a shared machine.
 */
const probeHealth = (done: { value: boolean }) =>
  Effect.gen(function*() {
    let probes = 0
    while (!done.value) {
      const reply = yield* call("GET", "/health").pipe(Effect.timeout("5 seconds"))
      expect(reply.status).toBe(200)
      probes++
      yield* Effect.sleep("20 millis")
    }
    return probes
  })

const uploadAndWatch = (file: { readonly name: string; readonly bytes: Uint8Array; readonly type: string }) =>
  Effect.gen(function*() {
    const { assistantId, key } = yield* setupAccount()
    const reply = yield* upload(key, assistantId, [file])
    expect(reply.status).toBe(202)
    const jobId = pickString(reply.json, "data", "list", 0, "id")
    const done = { value: false }
    const probe = yield* Effect.fork(probeHealth(done))
    const job = yield* waitForJob(key, assistantId, jobId, 120_000).pipe(
      Effect.ensuring(Effect.sync(() => (done.value = true)))
    )
    return { job, healthProbes: yield* Fiber.join(probe), key, assistantId }
  })

layer(TestApp({ DASTYAR_RATE_LIMIT_PER_MINUTE: "100000" }), { excludeTestServices: true, timeout: 180_000 })(
  "hostile files, default budgets",
  (it) => {
    it.effect(
      "a DOCX under 1 MB that inflates to 260 MB fails as too_large while /health keeps answering",
      () =>
        Effect.gen(function*() {
          const bomb = makeDocxBomb(260 * 1024 * 1024)
          expect(bomb.length).toBeLessThan(1024 * 1024)
          const { job, healthProbes } = yield* uploadAndWatch({ name: "bomb.docx", bytes: bomb, type: docxType })
          expect(job).toMatchObject({ status: "failed", errorMessage: "too_large" })
          expect(healthProbes).toBeGreaterThan(0)
        }),
      180_000
    )

    it.effect("an image whose header claims 100,000 × 100,000 pixels fails as too_large", () =>
      Effect.gen(function*() {
        const { job } = yield* uploadAndWatch({
          name: "huge.png",
          bytes: makePngHeader(100_000, 100_000),
          type: "image/png"
        })
        expect(job).toMatchObject({ status: "failed", errorMessage: "too_large" })
      }), 180_000)

    it.effect("after a failed bomb the same server still reads an ordinary DOCX", () =>
      Effect.gen(function*() {
        const docx = yield* makeDocx([{ heading: "Returns", body: "Returns are accepted within fourteen days." }])
        const { job } = yield* uploadAndWatch({ name: "returns.docx", bytes: docx, type: docxType })
        expect(job).toMatchObject({ status: "ready" })
      }), 180_000)
  }
)

layer(
  TestApp({
    DASTYAR_RATE_LIMIT_PER_MINUTE: "100000",
    // Budgets that let the file through, so the thread's own heap limit is what stops it.
    DASTYAR_EXTRACTION_MAX_INFLATED_MB: "100000",
    DASTYAR_EXTRACTION_MEMORY_MB: "64",
    DASTYAR_EXTRACTION_MAX_PAGES: "3"
  }),
  { excludeTestServices: true, timeout: 180_000 }
)("hostile files, tight limits", (it) => {
  it.effect(
    "a DOCX that passes the inflate budget is stopped by the reading process's heap limit",
    () =>
      Effect.gen(function*() {
        const { job, healthProbes } = yield* uploadAndWatch({
          name: "heavy.docx",
          bytes: makeDocxBomb(80 * 1024 * 1024),
          type: docxType
        })
        expect(job).toMatchObject({ status: "failed", errorMessage: "too_large" })
        expect(healthProbes).toBeGreaterThan(0)
      }),
    180_000
  )

  it.effect("a PDF with more pages than the budget fails as too_large", () =>
    Effect.gen(function*() {
      const pdf = yield* makePdf(["one", "two", "three", "four", "five"])
      const { job } = yield* uploadAndWatch({ name: "long.pdf", bytes: pdf, type: "application/pdf" })
      expect(job).toMatchObject({ status: "failed", errorMessage: "too_large" })
    }), 180_000)
})
