import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import * as zlib from "node:zlib"
import { TestApp } from "../support/TestApp"

interface RawReply {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer
}

/** node:http, which (unlike fetch) shows the body as sent, compressed or not. */
const rawGet = (path: string, headers: Record<string, string> = {}) =>
  Effect.gen(function*() {
    const server = yield* HttpServer.HttpServer
    const port = server.address._tag === "TcpAddress" ? server.address.port : 0
    return yield* Effect.async<RawReply>((resume) => {
      http.get({ host: "127.0.0.1", port, path, headers }, (response) => {
        const parts: Array<Buffer> = []
        response.on("data", (part: Buffer) => parts.push(part))
        response.on("end", () =>
          resume(
            Effect.succeed({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(parts) })
          ))
      })
    })
  })

layer(TestApp(), { excludeTestServices: true })("compression and the root path", (it) => {
  it.effect("GET / redirects to the API reference", () =>
    Effect.gen(function*() {
      const reply = yield* rawGet("/")
      expect(reply.status).toBe(302)
      expect(reply.headers.location).toBe("/docs")
    }))

  it.effect("large JSON and HTML are sent with gzip or brotli when accepted, plain otherwise", () =>
    Effect.gen(function*() {
      const plain = yield* rawGet("/docs")
      expect(plain.headers["content-encoding"]).toBeUndefined()
      const gzip = yield* rawGet("/docs", { "accept-encoding": "gzip" })
      expect(gzip.headers["content-encoding"]).toBe("gzip")
      expect(gzip.body.length).toBeLessThan(plain.body.length / 2)
      expect(zlib.gunzipSync(gzip.body).equals(plain.body)).toBe(true)
      const br = yield* rawGet("/v1/openapi.json", { "accept-encoding": "gzip, deflate, br" })
      expect(br.headers["content-encoding"]).toBe("br")
      expect(JSON.parse(zlib.brotliDecompressSync(br.body).toString("utf8"))).toHaveProperty("openapi")
      // Small bodies are not worth it.
      const small = yield* rawGet("/health", { "accept-encoding": "gzip" })
      expect(small.headers["content-encoding"]).toBeUndefined()
    }))
})
