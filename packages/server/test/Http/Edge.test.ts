/**
 * The edge's rules for what no route accepts: characters no string may hold,
 * long path parameters, exact content types, unreadable multipart bodies and
 * chunked bodies over the limit.
 */
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import { adminToken, call, pick, setupAccount, TestApp } from "../support/TestApp"

const characterRule = "must not contain NUL characters or unpaired UTF-16 surrogates"

/** A chunked POST over a raw socket: the status and body the client read, or the socket error. */
const chunkedPost = (port: number, path: string, token: string, chunks: ReadonlyArray<string>) =>
  Effect.async<{ readonly status: number; readonly body: string } | { readonly error: string }>((resume) => {
    const request = http.request({
      host: "127.0.0.1",
      port,
      path,
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}`, "transfer-encoding": "chunked" }
    }, (response) => {
      let body = ""
      response.setEncoding("utf8")
      response.on("data", (chunk: string) => (body += chunk))
      response.on("end", () => resume(Effect.succeed({ status: response.statusCode ?? 0, body })))
    })
    request.on("error", (error) => resume(Effect.succeed({ error: error.message })))
    const write = (index: number) => {
      if (index === chunks.length) return void request.end()
      request.write(chunks[index], () => setImmediate(() => write(index + 1)))
    }
    write(0)
  })

layer(TestApp(), { excludeTestServices: true })("edge", (it) => {
  it.effect("NUL and lone surrogates are a 400 with fields, in body, query and path alike", () =>
    Effect.gen(function*() {
      const { key, assistantId } = yield* setupAccount()
      const products = `/v1/assistants/${assistantId}/products`
      const title = yield* call("POST", products, { token: key, body: { externalId: "a", title: "x\u0000y" } })
      expect(title.status).toBe(400)
      expect(pick(title.json, "fields")).toEqual([{ property: "title", constraints: [characterRule] }])
      const attribute = yield* call("POST", products, {
        token: key,
        rawBody: {
          contentType: "application/json",
          text: "{\"externalId\":\"b\",\"title\":\"t\",\"attributes\":{\"c\":\"\\udfff\"}}"
        }
      })
      expect(attribute.status).toBe(400)
      expect(pick(attribute.json, "fields")).toEqual([{ property: "attributes.c", constraints: [characterRule] }])
      const query = yield* call("GET", `${products}?q=a%00b`, { token: key })
      expect(query.status).toBe(400)
      expect(pick(query.json, "fields")).toEqual([{ property: "q", constraints: [characterRule] }])
      const path = yield* call("GET", `${products}/a%00b`, { token: key })
      expect(path.status).toBe(400)
      expect(pick(path.json, "fields")).toEqual([{ property: "externalId", constraints: [characterRule] }])
      const list = yield* call("GET", products, { token: key })
      expect(pick(list.json, "data", "list")).toEqual([])
    }))

  it.effect("an externalId of up to 191 characters, Persian ones percent-encoded included, is addressable", () =>
    Effect.gen(function*() {
      const { key, assistantId } = yield* setupAccount()
      const products = `/v1/assistants/${assistantId}/products`
      for (const externalId of ["s".repeat(191), "ک".repeat(191), "x".repeat(150)]) {
        const created = yield* call("POST", products, { token: key, body: { externalId, title: "t" } })
        expect(created.status).toBe(201)
        const at = `${products}/${encodeURIComponent(externalId)}`
        expect((yield* call("GET", at, { token: key })).status).toBe(200)
        expect((yield* call("PATCH", at, { token: key, body: { title: "u" } })).status).toBe(200)
        expect((yield* call("PUT", at, { token: key, body: { title: "v" } })).status).toBe(200)
        expect((yield* call("DELETE", at, { token: key })).status).toBe(200)
      }
    }))

  it.effect("an unreadable multipart body is a 400 request.malformed_multipart, never a hang", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const bodies = [
        { contentType: "multipart/form-data; boundary=b", text: "--b\r\n" },
        { contentType: "multipart/form-data; boundary=b", text: "garbage" },
        { contentType: "multipart/form-data", text: "--b\r\n\r\n--b--\r\n" }
      ]
      for (const rawBody of bodies) {
        const reply = yield* call("POST", `/v1/assistants/${assistantId}/documents`, { token: key, rawBody }).pipe(
          Effect.timeout("20 seconds")
        )
        expect(reply.status).toBe(400)
        expect(pick(reply.json, "data")).toBeNull()
        expect(pick(reply.json, "response", "code")).toBe("request.malformed_multipart")
      }
    }))

  it.effect("Content-Type is matched exactly, and a body without one is refused", () =>
    Effect.gen(function*() {
      const jsonx = yield* call("POST", "/admin/v1/accounts", {
        token: adminToken,
        rawBody: { contentType: "application/jsonx", text: "{\"name\":\"x\"}" }
      })
      expect(jsonx.status).toBe(400)
      expect(pick(jsonx.json, "response", "code")).toBe("request.unsupported_content_type")
      const charset = yield* call("POST", "/admin/v1/accounts", {
        token: adminToken,
        rawBody: { contentType: "Application/JSON; charset=utf-8", text: "{\"name\":\"x\"}" }
      })
      expect(charset.status).toBe(201)
      const port = yield* portOf
      const missing = yield* Effect.promise(() =>
        fetch(`http://127.0.0.1:${port}/admin/v1/accounts`, {
          method: "POST",
          headers: { authorization: `Bearer ${adminToken}` },
          body: new Uint8Array(Buffer.from("{\"name\":\"x\"}"))
        }).then(async (response) => ({ status: response.status, json: await response.json() }))
      )
      expect(missing.status).toBe(400)
      expect(pick(missing.json, "response", "code")).toBe("request.unsupported_content_type")
    }))

  it.effect("a chunked body over the limit is a 413 in the envelope, not a reset; under it, it is read", () =>
    Effect.gen(function*() {
      const { key, assistantId } = yield* setupAccount()
      const port = yield* portOf
      const path = `/v1/assistants/${assistantId}/products`
      const megabyte = "x".repeat(1024 * 1024)
      const over = yield* chunkedPost(port, path, key, [
        "{\"externalId\":\"a\",\"title\":\"",
        ...Array(12).fill(megabyte),
        "\"}"
      ])
      expect(over).toMatchObject({ status: 413 })
      expect("body" in over ? JSON.parse(over.body) : undefined).toMatchObject({
        data: null,
        response: { code: "request.payload_too_large" }
      })
      const under = yield* chunkedPost(port, path, key, ["{\"externalId\":\"b\",", "\"title\":\"t\"}"])
      expect(under).toMatchObject({ status: 201 })
    }))
})

const portOf = Effect.map(
  HttpServer.HttpServer,
  (server) => server.address._tag === "TcpAddress" ? server.address.port : 0
)
