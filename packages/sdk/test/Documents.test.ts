import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { DastyarApiError } from "../src/DastyarApiError"
import { FileTooLargeError, maxFileBytes } from "../src/DocumentFiles"
import { JobWaitTimeoutError } from "../src/JobPolling"
import { createDastyarClient } from "../src/PromiseClient"
import type { DocumentIngestJob } from "../src/Schemas"
import { againstServer, rejectionOf, setupAccount, TestApp } from "./support/Server"
import { type CannedResponse, startWireServer, successBody } from "./support/WireServer"

const job = (status: DocumentIngestJob["status"], id = "job-1"): DocumentIngestJob => ({
  id,
  status,
  path: "notes.txt",
  kind: "create",
  resultFileId: status === "ready" ? "file-1" : null,
  resultNChunks: status === "ready" ? 1 : null,
  resultSizeBytes: status === "ready" ? 12 : null,
  errorMessage: null,
  createdAt: "2026-01-01T00:00:00.000Z",
  updatedAt: "2026-01-01T00:00:00.000Z"
})

const answer = (body: DocumentIngestJob): CannedResponse => ({ status: 200, body: successBody(body) })

/** Runs `body` against a canned-answer server, closing it afterwards. */
const withWire = (
  answers: readonly [CannedResponse, ...Array<CannedResponse>],
  body: (wire: Awaited<ReturnType<typeof startWireServer>>) => Promise<void>
) =>
  Effect.promise(async () => {
    const wire = await startWireServer(answers)
    try {
      await body(wire)
    } finally {
      await wire.close()
    }
  })

describe("SDK documents without a server", () => {
  it.live("a file over 25 MB is refused before anything is sent", () =>
    withWire([{ status: 500, body: "{}" }], async (wire) => {
      const client = createDastyarClient({ baseUrl: wire.url, apiKey: "k" })
      const error = await rejectionOf(client.documents.uploadFiles("a", [
        { name: "small.txt", data: new TextEncoder().encode("hello") },
        { name: "huge.pdf", data: new Uint8Array(maxFileBytes + 1) }
      ]))
      expect(error).toBeInstanceOf(FileTooLargeError)
      expect(error).toMatchObject({ fileName: "huge.pdf", size: maxFileBytes + 1, limit: 25 * 1024 * 1024 })
      expect(wire.received).toEqual([])
    }))

  it.live("waitForJob backs off exponentially up to the cap and returns the final state", () =>
    withWire([
      answer(job("queued")),
      answer(job("processing")),
      answer(job("processing")),
      answer(job("processing")),
      answer(job("ready"))
    ], async (wire) => {
      const client = createDastyarClient({ baseUrl: wire.url, apiKey: "k" })
      const pauses: Array<number> = []
      const seen: Array<string> = []
      const final = await client.documents.waitForJob("a", "job-1", {
        initialDelayMs: 100,
        maxDelayMs: 300,
        sleep: async (milliseconds) => void pauses.push(milliseconds),
        onUpdate: (state) => seen.push(state.status)
      })
      expect(final).toMatchObject({ status: "ready", resultFileId: "file-1" })
      expect(pauses).toEqual([100, 200, 300, 300])
      expect(seen).toEqual(["queued", "processing", "processing", "processing", "ready"])
      expect(wire.received.map((request) => request.url)).toEqual(
        Array(5).fill("/v1/assistants/a/documents/jobs/job-1")
      )
    }))

  it.live("a 429 while polling is waited out (Retry-After), not thrown", () =>
    withWire([
      answer(job("processing")),
      {
        status: 429,
        headers: { "retry-after": "2" },
        body: JSON.stringify({ data: null, response: { status: "bad_request", message: "Too many requests" } })
      },
      answer(job("ready"))
    ], async (wire) => {
      const client = createDastyarClient({ baseUrl: wire.url, apiKey: "k" })
      const pauses: Array<number> = []
      const final = await client.documents.waitForJob("a", "job-1", {
        initialDelayMs: 10,
        sleep: async (ms) => void pauses.push(ms)
      })
      expect(final.status).toBe("ready")
      expect(pauses).toEqual([10, 2000])
    }))

  it.live("the overall timeout ends the wait with the last states seen", () =>
    withWire([answer(job("processing"))], async (wire) => {
      const client = createDastyarClient({ baseUrl: wire.url, apiKey: "k" })
      const started = Date.now()
      const error = await rejectionOf(
        client.documents.waitForJobs("a", ["job-1"], { timeoutMs: 300, initialDelayMs: 50 })
      )
      expect(Date.now() - started).toBeLessThan(2000)
      expect(error).toBeInstanceOf(JobWaitTimeoutError)
      expect(error).toMatchObject({ timeoutMs: 300, jobs: [{ id: "job-1", status: "processing" }] })
    }))
})

layer(TestApp({ DASTYAR_RATE_LIMIT_PER_MINUTE: "100000" }), { excludeTestServices: true })("SDK documents", (it) => {
  it.effect(
    "uploadFiles takes paths, Buffers and Files in requests of 10; jobs reach ready; list and delete",
    () =>
      againstServer(async (baseUrl) => {
        const { key, assistant } = await setupAccount(baseUrl)
        const client = createDastyarClient({ baseUrl, apiKey: key.key })
        const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-sdk-docs-"))
        try {
          const paths = Array.from({ length: 10 }, (_, index) => {
            const file = path.join(dir, `note-${index}.txt`)
            fs.writeFileSync(file, `Note ${index}: our shop ships within ${index + 1} working days.`)
            return file
          })
          const requests: Array<number> = []
          const jobs = await client.documents.uploadFiles(assistant.id, [
            ...paths,
            { name: "buffer.md", data: Buffer.from("# Returns\nReturns are accepted within 14 days.") },
            new File(["Gift wrapping is free."], "gift.txt")
          ], { onBatch: (batch) => requests.push(batch.length) })
          expect(requests).toEqual([10, 2])
          expect(jobs.map((job) => job.path)).toEqual([
            ...paths.map((file) => path.basename(file)),
            "buffer.md",
            "gift.txt"
          ])
          expect(jobs.every((job) => job.status === "queued" && job.kind === "create")).toBe(true)

          const finals = await client.documents.waitForJobs(assistant.id, jobs.map((job) => job.id), {
            timeoutMs: 60_000
          })
          expect(finals.map((job) => job.status)).toEqual(Array(12).fill("ready"))
          expect(finals.map((job) => job.id)).toEqual(jobs.map((job) => job.id))

          const listed = await client.documents.list(assistant.id)
          expect(listed.count).toBe(12)
          expect(listed.list.map((document) => document.fileId).sort()).toEqual(
            finals.map((job) => job.resultFileId).sort()
          )

          const text = await client.documents.uploadText(assistant.id, {
            filename: "gift.txt",
            content: "Gift wrapping costs 1 euro."
          })
          expect(text).toMatchObject({ status: "queued", kind: "replace", path: "gift.txt" })
          expect(await client.documents.waitForJob(assistant.id, text.id, { timeoutMs: 60_000 })).toMatchObject({
            status: "ready"
          })

          const fileIds = (await client.documents.list(assistant.id)).list.map((document) => document.fileId)
          expect(await client.documents.delete(assistant.id, fileIds)).toBeNull()
          expect(await client.documents.list(assistant.id)).toEqual({ list: [], count: 0 })
        } finally {
          fs.rmSync(dir, { recursive: true, force: true })
        }
      }),
    120_000
  )

  it.effect("a refused kind is a DastyarApiError 415 for the whole request", () =>
    againstServer(async (baseUrl) => {
      const { key, assistant } = await setupAccount(baseUrl)
      const client = createDastyarClient({ baseUrl, apiKey: key.key })
      const elf = new Uint8Array([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0, ...Array(56).fill(0)])
      const error = await rejectionOf(client.documents.uploadFiles(assistant.id, [
        { name: "fine.txt", data: Buffer.from("plain text") },
        { name: "program.txt", data: elf }
      ]))
      expect(error).toBeInstanceOf(DastyarApiError)
      expect(error).toMatchObject({ httpStatus: 415, code: "documents.unsupported_file_type" })
      // The answer names the refused part by its position in the request.
      expect(error instanceof DastyarApiError ? error.fields.map((field) => field.property) : []).toEqual(["files.1"])
      expect((await client.documents.list(assistant.id)).count).toBe(0)
    }), 60_000)
})
