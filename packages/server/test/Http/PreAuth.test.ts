/**
 * What a request costs before it is authenticated: its headers, not its body.
 * An unknown path is a 404 and a route refused by its authentication a 401,
 * both answered before the body has even arrived, and a hostile body sent whole
 * is never looked at. Bodies are read (and the character rule applied) only
 * for the caller the route accepts; multipart parts are counted as they arrive.
 */
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import { upload } from "../Documents/support"
import { adminToken, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"

const portOf = Effect.map(
  HttpServer.HttpServer,
  (server) => server.address._tag === "TcpAddress" ? server.address.port : 0
)

/** A NUL escape, which the character rule refuses wherever a body is read. */
const hostile = "{\"name\":\"a\\u0000b\",\"externalId\":\"x\",\"title\":\"t\",\"filename\":\"a.md\",\"content\":\"c\"}"

/**
 * A POST that announces `declaredBytes` of JSON but sends only `first` and then
 * waits: the status the server answers with while the body is still incomplete.
 */
const answeredBeforeBody = (
  port: number,
  path: string,
  declaredBytes: number,
  first: string,
  headers: Record<string, string> = {}
) =>
  Effect.async<number>((resume) => {
    const request = http.request({
      host: "127.0.0.1",
      port,
      path,
      method: "POST",
      headers: { "content-type": "application/json", "content-length": String(declaredBytes), ...headers }
    }, (response) => {
      response.resume()
      resume(Effect.succeed(response.statusCode ?? 0))
      request.destroy()
    })
    request.on("error", () => {})
    request.write(first)
    return Effect.sync(() => request.destroy())
  })

layer(TestApp(), { excludeTestServices: true })("before authentication", (it) => {
  it.effect("an unknown path is a 404 before its body has arrived", () =>
    Effect.gen(function*() {
      const port = yield* portOf
      const status = yield* answeredBeforeBody(port, "/v1/nowhere", 9 * 1024 * 1024, `[${"0,".repeat(30_000)}`)
      expect(status).toBe(404)
    }))

  it.effect("a keyed route without a key is a 401 before its 9 MB body has arrived", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const port = yield* portOf
      const path = `/v1/assistants/${assistantId}/documents/text`
      expect(yield* answeredBeforeBody(port, path, 9 * 1024 * 1024, "{\"content\":\"")).toBe(401)
      const wrongKey = { authorization: `Bearer dsk_${"A".repeat(43)}` }
      expect(yield* answeredBeforeBody(port, path, 9 * 1024 * 1024, "{\"content\":\"", wrongKey)).toBe(401)
    }))

  it.effect("an operator route without the operator token is a 401 before its body has arrived", () =>
    Effect.gen(function*() {
      const port = yield* portOf
      expect(yield* answeredBeforeBody(port, "/admin/v1/accounts", 9 * 1024 * 1024, "{\"name\":\"")).toBe(401)
    }))

  it.effect("a body with a NUL escape is not read without a valid credential: 401 or 404, not 400", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const raw = { contentType: "application/json", text: hostile }
      const keyed = [
        `/v1/assistants/${assistantId}/products`,
        `/v1/assistants/${assistantId}/documents/text`
      ]
      for (const path of keyed) {
        const reply = yield* call("POST", path, { rawBody: raw })
        expect(reply.status).toBe(401)
        expect(pick(reply.json, "response", "code")).toBe("api_key.invalid")
      }
      expect((yield* call("POST", "/admin/v1/accounts", { rawBody: raw })).status).toBe(401)
      expect((yield* call("POST", "/admin/v1/accounts", { rawBody: raw, token: key })).status).toBe(401)
      const unknown = yield* call("POST", "/v1/nowhere", { rawBody: raw, token: key })
      expect(unknown.status).toBe(404)
      expect(pick(unknown.json, "response", "code")).toBe("route.not_found")
      // The messenger hook checks its connection and secret before it reads.
      expect((yield* call("POST", "/hooks/webhook/nosuchconnection", { rawBody: raw })).status).toBe(404)
    }))

  it.effect("with a valid credential, the same body is read and refused, naming the field", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const raw = { contentType: "application/json", text: hostile }
      const products = yield* call("POST", `/v1/assistants/${assistantId}/products`, { rawBody: raw, token: key })
      expect(products.status).toBe(400)
      expect(pick(products.json, "fields", 0, "property")).toBe("name")
      const account = yield* call("POST", "/admin/v1/accounts", { rawBody: raw, token: adminToken })
      expect(account.status).toBe(400)
      expect(pick(account.json, "fields")).toEqual([{
        property: "name",
        constraints: ["must not contain NUL characters or unpaired UTF-16 surrogates"]
      }])
    }))

  it.effect("an upload of more parts than 10 files and the folder field allow is refused as too many parts", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const files = Array.from({ length: 30 }, (_, i) => ({ name: `f${i}.txt`, bytes: new TextEncoder().encode("x") }))
      const reply = yield* upload(key, assistantId, files)
      expect(reply.status).toBe(400)
      expect(pick(reply.json, "response", "code")).toBe("request.too_many_parts")
    }))

  it.effect("a file far past 25 MB is stopped while it arrives and named in the 413", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const big = new Uint8Array(40 * 1024 * 1024).fill(0x61)
      const reply = yield* upload(key, assistantId, [
        { name: "small.txt", bytes: new Uint8Array([0x61]) },
        { name: "huge.txt", bytes: big }
      ])
      expect(reply.status).toBe(413)
      expect(reply.json).toMatchObject({
        response: { code: "documents.file_too_large" },
        fields: [{ property: "files.1" }]
      })
      expect(pickString(reply.json, "fields", 0, "constraints", 0)).toContain("huge.txt")
    }))
})
