/**
 * What a client writing bytes on a socket can do that an HTTP client library
 * never does: bodies cut off inside a part, headers over Node's size cap.
 * Each must be answered promptly in the envelope, never left to the request
 * timeout and never answered outside the envelope.
 */
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as net from "node:net"
import { setupAccount } from "../support/TestApp"
import { scopedServer, storage } from "./ChildServer"
import { portOf, ReliabilityApp } from "./Fixture"

interface RawReply {
  readonly status: number
  readonly head: string
  readonly body: string
  readonly ms: number
}

/** Writes `bytes`, optionally half-closes, and reads until the server closes or `timeoutMs` passes. */
const exchange = (
  port: number,
  bytes: Buffer,
  options: { readonly halfClose?: boolean; readonly timeoutMs?: number }
) =>
  Effect.async<RawReply | { readonly error: string; readonly ms: number }>((resume) => {
    const started = Date.now()
    const socket = net.connect(port, "127.0.0.1")
    const chunks: Array<Buffer> = []
    let done = false
    const finish = (error?: string) => {
      if (done) return
      done = true
      clearTimeout(timer)
      socket.destroy()
      const ms = Date.now() - started
      const text = Buffer.concat(chunks).toString("utf8")
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text)
      if (match === null) return resume(Effect.succeed({ error: error ?? `no answer: ${text.slice(0, 80)}`, ms }))
      const split = text.indexOf("\r\n\r\n")
      resume(Effect.succeed({ status: Number(match[1]), head: text.slice(0, split), body: text.slice(split + 4), ms }))
    }
    const timer = setTimeout(() => finish("timed out"), options.timeoutMs ?? 10_000)
    socket.on("data", (chunk) => {
      chunks.push(chunk)
      // One answer is enough: stop at the end of a Content-Length body.
      const text = Buffer.concat(chunks).toString("utf8")
      const split = text.indexOf("\r\n\r\n")
      const length = /\r\ncontent-length: (\d+)/i.exec(text)
      if (split >= 0 && length !== null && Buffer.byteLength(text.slice(split + 4)) >= Number(length[1])) finish()
    })
    socket.on("end", () => finish())
    socket.on("error", (error) => finish(error.message))
    socket.write(bytes, () => {
      if (options.halfClose === true) socket.end()
    })
    return Effect.sync(() => finish("interrupted"))
  })

const envelopeError = (body: string) => {
  const parsed: unknown = JSON.parse(body)
  expect(parsed).toMatchObject({ data: null, response: { status: expect.any(String), message: expect.any(String) } })
}

layer(ReliabilityApp(), { excludeTestServices: true, timeout: 120_000 })("reliability: raw sockets", (it) => {
  it.effect("a multipart body that ends inside a file part is a prompt 400 in the envelope", () =>
    Effect.gen(function*() {
      const port = yield* portOf
      const { assistantId, key } = yield* setupAccount()
      const prefix = "--b\r\nContent-Disposition: form-data; name=\"files\"; filename=\"a.md\"\r\n" +
        "Content-Type: text/markdown\r\n\r\n# Title\nSome text that stops in the middle"
      const cases = [
        { name: "content-length", framing: "length", cut: prefix },
        { name: "content-length, cut after the part's CRLF", framing: "length", cut: `${prefix}\r\n` },
        { name: "content-length, cut inside the part headers", framing: "length", cut: prefix.slice(0, 40) },
        { name: "content-length, 300 KB into the file", framing: "length", cut: `${prefix}${"x".repeat(300_000)}` },
        {
          name: "content-length, one whole file then cut inside the next",
          framing: "length",
          cut: `${prefix}\r\n${prefix.replace("a.md", "b.md")}`
        },
        { name: "chunked", framing: "chunked", cut: prefix }
      ] as const
      for (const { cut, framing, name } of cases) {
        const body = Buffer.from(cut)
        const head = `POST /v1/assistants/${assistantId}/documents HTTP/1.1\r\nHost: x\r\n` +
          `Authorization: Bearer ${key}\r\nContent-Type: multipart/form-data; boundary=b\r\nConnection: close\r\n` +
          (framing === "length" ? `Content-Length: ${body.length}\r\n\r\n` : "Transfer-Encoding: chunked\r\n\r\n")
        const bytes = framing === "length"
          ? Buffer.concat([Buffer.from(head), body])
          : Buffer.concat([Buffer.from(`${head}${body.length.toString(16)}\r\n`), body, Buffer.from("\r\n0\r\n\r\n")])
        const reply = yield* exchange(port, bytes, {})
        expect({ name, reply: "error" in reply ? reply.error : reply.status }).toEqual({ name, reply: 400 })
        if (!("error" in reply)) {
          envelopeError(reply.body)
          expect(reply.ms).toBeLessThan(5_000)
        }
      }
    }))
})

// Node's socket handling is the compiled server's (`Http/Serving.ts`), not the in-process test server's.
describe("reliability: raw sockets, compiled server", () => {
  it.live(
    "headers over Node's cap and bytes that are not HTTP are answered in the envelope",
    () =>
      Effect.gen(function*() {
        const { port } = yield* scopedServer(yield* storage)
        const cases = [
          {
            name: "a 20 KB header",
            status: 431,
            head: `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${"a".repeat(20_000)}\r\n\r\n`
          },
          {
            name: "a 20 KB URL",
            status: 431,
            head: `GET /v1/assistants?q=${"a".repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`
          },
          { name: "not HTTP", status: 400, head: "HELLO THERE\r\n\r\n" },
          { name: "a header name with a space", status: 400, head: "GET /health HTTP/1.1\r\nBad Name: x\r\n\r\n" }
        ] as const
        for (const { head, name, status } of cases) {
          const reply = yield* exchange(port, Buffer.from(head), {})
          expect({ name, reply: "error" in reply ? reply.error : reply.status }).toEqual({ name, reply: status })
          if (!("error" in reply)) {
            envelopeError(reply.body)
            expect(reply.head).toMatch(/content-type: application\/json/i)
          }
        }
        // The server still answers afterwards.
        const health = yield* exchange(
          port,
          Buffer.from("GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"),
          {}
        )
        expect("error" in health ? health.error : health.status).toBe(200)
      }).pipe(Effect.scoped),
    180_000
  )
})
