/**
 * A webhook's callback URL may not reach the server's own network: loopback,
 * link-local, private, unspecified and multicast addresses are refused when
 * the connection is made and again when an answer is sent, after DNS
 * resolution. `DASTYAR_WEBHOOK_ALLOW_PRIVATE` opens private networks and
 * loopback, never link-local, unspecified or multicast.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as http from "node:http"
import { allowedAddress, clientLayer } from "../../src/Channels/Webhook/CallbackAddress"
import { AppConfig } from "../../src/Config"
import { admin, pick, setupAccount, TestApp } from "../support/TestApp"

const secret = "s3cret-shared-with-the-integration-0123456789"

const create = (assistantId: string, callbackUrl: string) =>
  admin("POST", `/assistants/${assistantId}/connections`, { driver: "webhook", callbackUrl, secret })

describe("addresses a callback may reach", () => {
  it("public addresses only, by default", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700::1111", "::ffff:93.184.216.34"]) {
      expect(allowedAddress(address, false)).toBe(true)
    }
    const refused = [
      "127.0.0.1",
      "127.8.9.10",
      "::1",
      "10.1.2.3",
      "172.16.0.1",
      "172.31.255.255",
      "192.168.1.1",
      "100.64.0.1",
      "fc00::1",
      "fd12:3456::1",
      "169.254.169.254",
      "fe80::1",
      "0.0.0.0",
      "::",
      "224.0.0.1",
      "ff02::1",
      "255.255.255.255",
      "::ffff:127.0.0.1",
      "::ffff:169.254.169.254"
    ]
    for (const address of refused) {
      expect({ address, allowed: allowedAddress(address, false) }).toEqual({ address, allowed: false })
    }
  })

  it("with private networks allowed: loopback and private, never link-local, unspecified or multicast", () => {
    for (const address of ["127.0.0.1", "::1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "fd00::1"]) {
      expect(allowedAddress(address, true)).toBe(true)
    }
    for (
      const address of ["169.254.169.254", "fe80::1", "0.0.0.0", "::", "224.0.0.1", "ff02::1", "::ffff:169.254.1.1"]
    ) {
      expect(allowedAddress(address, true)).toBe(false)
    }
  })
})

layer(TestApp({ DASTYAR_SECRET_KEY: "ab".repeat(32) }), { excludeTestServices: true })("webhook callbacks", (it) => {
  it.effect("a callback URL on a refused address or a name resolving to one is 400 connections.callback_refused", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const urls = [
        "http://127.0.0.1:8080/hook",
        "http://localhost/hook",
        "http://169.254.169.254/latest/meta-data",
        "http://10.0.0.5/hook",
        "http://192.168.1.10/hook",
        "http://[::1]/hook",
        "http://[fe80::1]/hook",
        "http://[::ffff:127.0.0.1]/hook",
        "http://0.0.0.0/hook",
        "http://224.0.0.1/hook",
        "http://name-that-does-not-resolve.invalid/hook"
      ]
      for (const url of urls) {
        const reply = yield* create(assistantId, url)
        expect({ url, status: reply.status, code: pick(reply.json, "response", "code") }).toEqual({
          url,
          status: 400,
          code: "connections.callback_refused"
        })
      }
      expect((yield* create(assistantId, "https://93.184.216.34/hook")).status).toBe(201)
    }))
})

layer(TestApp({ DASTYAR_SECRET_KEY: "ab".repeat(32), DASTYAR_WEBHOOK_ALLOW_PRIVATE: "true" }), {
  excludeTestServices: true
})("webhook callbacks with private networks allowed", (it) => {
  it.effect("loopback is accepted; link-local is still refused", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      expect((yield* create(assistantId, "http://127.0.0.1:8080/hook")).status).toBe(201)
      expect((yield* create(assistantId, "http://169.254.169.254/latest")).status).toBe(400)
    }))
})

/** The delivery client with `allowPrivate`: a name is resolved and checked by the socket's own lookup. */
const deliveryClient = (allowPrivate: boolean) =>
  clientLayer.pipe(
    Layer.provide(AppConfig.Default),
    Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(
      new Map([["DASTYAR_WEBHOOK_ALLOW_PRIVATE", String(allowPrivate)]])
    )))
  )

it.scopedLive("at send time a name resolving to loopback is refused before any byte is sent", () =>
  Effect.gen(function*() {
    let requests = 0
    const server = http.createServer((_, response) => (requests++, response.end("ok")))
    const port = yield* Effect.async<number>((resume) => {
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        resume(Effect.succeed(typeof address === "object" && address !== null ? address.port : 0))
      })
    })
    yield* Effect.addFinalizer(() => Effect.sync(() => server.close()))
    const post = HttpClient.HttpClient.pipe(
      Effect.flatMap((client) => client.execute(HttpClientRequest.post(`http://localhost:${port}/hook`))),
      Effect.map((response) => response.status),
      Effect.scoped
    )
    const refused = yield* post.pipe(Effect.provide(deliveryClient(false)), Effect.either)
    expect(refused._tag).toBe("Left")
    expect(requests).toBe(0)
    expect(yield* post.pipe(Effect.provide(deliveryClient(true)))).toBe(200)
    expect(requests).toBe(1)
  }))
