import { afterAll, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import { sign, verify } from "../../src/Channels/Webhook/Signature"
import { admin, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"

/** The sorted `property` of each element of a validation error's `fields`. */
const invalidProperties = (json: unknown) => {
  const fields = pick(json, "fields")
  return Array.isArray(fields) ? fields.map((field) => String(pick(field, "property"))).sort() : []
}

interface Received {
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

/** The integration's callback: records every delivery; answers the statuses queued in `answers`, then 200. */
const received: Array<Received> = []
const answers: Array<number> = []
const callback = http.createServer((request, response) => {
  const chunks: Array<Buffer> = []
  request.on("data", (chunk: Buffer) => chunks.push(chunk))
  request.on("end", () => {
    received.push({ headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
    response.writeHead(answers.shift() ?? 200)
    response.end()
  })
})
const callbackUrl = await new Promise<string>((resolve) =>
  callback.listen(0, "127.0.0.1", () => {
    const address = callback.address()
    resolve(`http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/dastyar`)
  })
)
afterAll(() => new Promise<void>((done) => callback.close(() => done())))

const secret = "s3cret-shared-with-the-integration-0123456789"

const signedCall = (
  code: string,
  body: string,
  options: { readonly timestamp?: number; readonly key?: string } = {}
) => {
  const timestamp = options.timestamp ?? Math.floor(Date.now() / 1000)
  return call("POST", `/hooks/webhook/${code}`, {
    rawBody: { contentType: "application/json", text: body },
    headers: {
      "x-dastyar-timestamp": String(timestamp),
      "x-dastyar-signature": sign(options.key ?? secret, timestamp, body)
    }
  })
}

const waitForDeliveries = (count: number) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 150 && received.length < count; attempt++) yield* Effect.sleep("100 millis")
    return received.length
  })

// The integration's callback listens on loopback, which webhooks reach only with DASTYAR_WEBHOOK_ALLOW_PRIVATE.
layer(
  TestApp({
    DASTYAR_PUBLIC_URL: "https://bot.example.com/",
    DASTYAR_SECRET_KEY: "ab".repeat(32),
    DASTYAR_WEBHOOK_ALLOW_PRIVATE: "true"
  }),
  { excludeTestServices: true }
)("webhook channel", (it) => {
  it.effect("signed messages are answered at the callback URL, signed the same way, retried after a 500", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const created = yield* admin("POST", `/assistants/${assistantId}/connections`, {
        driver: "webhook",
        callbackUrl,
        secret
      })
      expect(created.status).toBe(201)
      const code = pickString(created.json, "data", "connectionCode")
      expect(pick(created.json, "data", "hookUrl")).toBe(`https://bot.example.com/hooks/webhook/${code}`)
      expect(created.text).not.toContain(secret)

      answers.push(500)
      const before = received.length
      const body = JSON.stringify({ principal: "user-7", message: "Hello, what do you sell?", messageId: "m-1" })
      const accepted = yield* signedCall(code, body)
      expect(accepted.status).toBe(200)
      expect(yield* waitForDeliveries(before + 2)).toBe(before + 2)
      const [failed, delivered] = received.slice(before)
      expect(failed?.body).toBe(delivered?.body)
      const delivery = JSON.parse(delivered?.body ?? "{}")
      expect(delivery).toMatchObject({
        connectionCode: code,
        principal: "user-7",
        messageId: "m-1",
        error: null,
        products: []
      })
      expect(typeof delivery.text).toBe("string")
      expect(typeof delivery.conversationId).toBe("string")
      const timestamp = String(delivered?.headers["x-dastyar-timestamp"])
      const signature = String(delivered?.headers["x-dastyar-signature"])
      expect(verify(secret, { timestamp, signature }, Buffer.from(delivered?.body ?? ""), new Date())).toBe(true)
      expect(
        verify(
          "another-secret-of-sufficient-length!!",
          { timestamp, signature },
          Buffer.from(delivered?.body ?? ""),
          new Date()
        )
      )
        .toBe(false)

      // The same message id again (a retry by the integration) is acknowledged and not answered twice.
      expect((yield* signedCall(code, body)).status).toBe(200)
      // The next message continues the principal's conversation.
      expect((yield* signedCall(code, JSON.stringify({ principal: "user-7", message: "And shipping?" }))).status).toBe(
        200
      )
      yield* waitForDeliveries(before + 3)
      yield* Effect.sleep("300 millis")
      expect(received.length).toBe(before + 3)
      expect(JSON.parse(received[before + 2]?.body ?? "{}").conversationId).toBe(delivery.conversationId)
    }))

  it.effect("bad signatures, stale timestamps and exact replays are refused or ignored; bad bodies are validation errors", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const created = yield* admin("POST", `/assistants/${assistantId}/connections`, {
        driver: "webhook",
        callbackUrl,
        secret
      })
      const code = pickString(created.json, "data", "connectionCode")
      const body = JSON.stringify({ principal: "p", message: "hi" })
      const before = received.length

      const wrongKey = yield* signedCall(code, body, { key: "not-the-secret-but-long-enough-0123456789" })
      expect(wrongKey.status).toBe(401)
      expect(pick(wrongKey.json, "response", "code")).toBe("hooks.unauthorized")
      const stale = yield* signedCall(code, body, { timestamp: Math.floor(Date.now() / 1000) - 6 * 60 })
      expect(stale.status).toBe(401)
      const future = yield* signedCall(code, body, { timestamp: Math.floor(Date.now() / 1000) + 6 * 60 })
      expect(future.status).toBe(401)
      const unsigned = yield* call("POST", `/hooks/webhook/${code}`, {
        rawBody: { contentType: "application/json", text: body }
      })
      expect(unsigned.status).toBe(401)
      // The body is what is signed: one changed byte and the signature fails.
      const timestamp = Math.floor(Date.now() / 1000)
      const tampered = yield* call("POST", `/hooks/webhook/${code}`, {
        rawBody: { contentType: "application/json", text: body.replace("hi", "ho") },
        headers: { "x-dastyar-timestamp": String(timestamp), "x-dastyar-signature": sign(secret, timestamp, body) }
      })
      expect(tampered.status).toBe(401)
      // A Telegram hook for a webhook connection's code does not exist.
      expect((yield* call("POST", `/hooks/telegram/${code}`, { body: { update_id: 1 } })).status).toBe(404)

      const invalid = yield* signedCall(code, JSON.stringify({ message: "" }))
      expect(invalid.status).toBe(400)
      expect(invalidProperties(invalid.json)).toEqual(["message", "principal"])

      // A captured request replayed within the window is acknowledged but processed once.
      const replayAt = Math.floor(Date.now() / 1000)
      expect((yield* signedCall(code, body, { timestamp: replayAt })).status).toBe(200)
      expect((yield* signedCall(code, body, { timestamp: replayAt })).status).toBe(200)
      // The same signature with its hex digits in upper case is the same delivery too.
      const upper = `sha256=${sign(secret, replayAt, body).slice(7).toUpperCase()}`
      const replayedUpper = yield* call("POST", `/hooks/webhook/${code}`, {
        rawBody: { contentType: "application/json", text: body },
        headers: { "x-dastyar-timestamp": String(replayAt), "x-dastyar-signature": upper }
      })
      expect(replayedUpper.status).toBe(200)
      yield* waitForDeliveries(before + 1)
      yield* Effect.sleep("500 millis")
      expect(received.length).toBe(before + 1)
    }))
})
