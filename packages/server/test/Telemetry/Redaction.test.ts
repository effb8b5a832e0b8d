/**
 * No secret in any span: exported to a local OTLP/HTTP receiver while a
 * Telegram connection is made and answers through the Bot API (bot token in
 * every URL), a hook is delivered with its secret header, and requests carry
 * every kind of credential header, the spans hold none of their values.
 */
import { HttpServer } from "@effect/platform"
import { afterAll, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as http from "node:http"
import { redactUrl } from "../../src/Platform/Redaction"
import { startFakeTelegram } from "../Channels/FakeTelegram"
import { admin, adminToken, pickString, setupAccount, TestApp } from "../support/TestApp"

const fake = await startFakeTelegram("unused")
afterAll(() => fake.close())

// A local OTLP/HTTP receiver: every export request's body, as sent.
const received: Array<string> = []
const receiver = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString()))
  request.on("end", () => {
    if (request.url === "/v1/traces") received.push(body)
    response.writeHead(200, { "content-type": "application/json" }).end("{}")
  })
})
const receiverPort = await new Promise<number>((resolve) => {
  receiver.listen(0, "127.0.0.1", () => {
    const address = receiver.address()
    resolve(typeof address === "object" && address !== null ? address.port : 0)
  })
})
afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())))

const waitFor = (done: () => boolean, what: string) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 150; attempt++) {
      if (done()) return
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.die(new Error(`timed out waiting for ${what}`))
  })

/** A request sent with `fetch`: the test's own Effect client would make spans of its own with these headers. */
const send = (port: number, path: string, headers: Record<string, string>, body?: unknown) =>
  Effect.promise(() =>
    fetch(`http://127.0.0.1:${port}${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { ...headers, ...(body === undefined ? {} : { "content-type": "application/json" }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    }).then((response) => response.status)
  )

layer(
  Layer.unwrapEffect(Effect.sync(() =>
    TestApp({
      OTEL_EXPORTER_OTLP_ENDPOINT: `http://127.0.0.1:${receiverPort}`,
      OTEL_BSP_SCHEDULE_DELAY: "100",
      DASTYAR_TELEGRAM_API_BASE: fake.url,
      DASTYAR_PUBLIC_URL: "https://bot.example.com",
      DASTYAR_SECRET_KEY: Buffer.alloc(32, 7).toString("base64")
    })
  )),
  { excludeTestServices: true }
)("secrets in traces", (it) => {
  it("the Bot API's token is redacted from URLs, and only it", () => {
    expect(redactUrl("https://api.telegram.org/bot123:AAH-x_y/sendMessage")).toBe(
      "https://api.telegram.org/bot<redacted>/sendMessage"
    )
    expect(redactUrl("https://api.telegram.org/file/bot123:AA/voice/f.oga")).toBe(
      "https://api.telegram.org/file/bot<redacted>/voice/f.oga"
    )
    expect(redactUrl("https://h/x?api_key=k1&q=robot")).toBe("https://h/x?api_key=%3Credacted%3E&q=robot")
    expect(redactUrl("https://h/v1/bottles?q=bot1")).toBe("https://h/v1/bottles?q=bot1")
  })

  it.effect("no header credential, bot token or hook secret appears in any exported span", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const botToken = `4242:AAHtrace-token-${"z".repeat(24)}`
      fake.tokens.add(botToken)
      const created = yield* admin("POST", `/assistants/${assistantId}/connections`, {
        driver: "telegram",
        botToken
      })
      expect(created.status).toBe(201)
      const code = pickString(created.json, "data", "connectionCode")
      const hookSecret = String(fake.calls.find((c) => c.method === "setWebhook")?.params.secret_token)
      const port = yield* serverPort

      // A delivery with the hook's secret header; the answer goes out through the Bot API.
      const update = {
        update_id: 1,
        message: { message_id: 1, date: 0, chat: { id: 7, type: "private" }, from: { id: 7 }, text: "hello" }
      }
      expect(yield* send(port, `/hooks/telegram/${code}`, { "x-telegram-bot-api-secret-token": hookSecret }, update))
        .toBe(200)
      yield* waitFor(() => fake.callsOf("sendMessage").length > 0, "the answer through the Bot API")

      // Every other kind of credential header, on a keyed route and on the operator API.
      const secrets = {
        "x-dastyar-signature": "sha256=0f1e2d3c4b5a69788796a5b4c3d2e1f0aaaabbbbccccddddeeeeffff00001111",
        "x-hub-signature-256": "sha256=fedcba98765432100123456789abcdeffedcba98765432100123456789abcdef",
        "x-vendor-token": "vendor-token-value-7c1f",
        "x-client-secret": "client-secret-value-9d2e",
        "proxy-authorization": "Basic cHJveHktcGFzc3dvcmQtdmFsdWU=",
        "cookie": "session=cookie-session-value-3b4a"
      }
      expect(yield* send(port, "/v1/assistants", { ...secrets, authorization: `Bearer ${key}` })).toBe(200)
      // Last, and marked by its query: once its server span has arrived, the others have too.
      expect(yield* send(port, "/admin/v1/accounts?limit=7", { ...secrets, authorization: `Bearer ${adminToken}` }))
        .toBe(200)

      const exported = () => received.join("\n")
      yield* waitFor(
        () => exported().includes("limit=7") && exported().includes("/sendMessage"),
        "the spans of every request"
      )
      const all = exported()
      for (
        const secret of [botToken, botToken.split(":")[1] ?? "", hookSecret, key, adminToken, ...Object.values(secrets)]
      ) {
        expect(all).not.toContain(secret)
      }
      // The Bot API calls are still traced, with the token redacted.
      expect(all).toContain("/bot<redacted>/sendMessage")
      expect(all).toContain("http.request.header.x-dastyar-signature")
    }))
})

const serverPort = Effect.map(
  HttpServer.HttpServer,
  (server) => server.address._tag === "TcpAddress" ? server.address.port : 0
)
