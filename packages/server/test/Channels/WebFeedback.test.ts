/**
 * Feedback from the website widget: a visitor rates the answers of its own
 * conversation (one vote per answer, the last counts), the shop reads the vote
 * in its conversation log, and every other message is out of the visitor's reach.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { writeCatalog } from "../Chat/support/ChatSetup"
import { admin, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"

const shop = "https://shop.example"

const webConnection = Effect.gen(function*() {
  const account = yield* setupAccount()
  const created = yield* admin("POST", `/assistants/${account.assistantId}/connections`, {
    driver: "web",
    allowedOrigins: [shop]
  })
  expect(created.status).toBe(201)
  return { ...account, code: pickString(created.json, "data", "connectionCode") }
})

const browser = (
  method: "GET" | "POST",
  url: string,
  options: { readonly visitor?: string; readonly body?: unknown; readonly origin?: string } = {}
) =>
  call(method, `/v1/web${url}`, {
    headers: {
      origin: options.origin ?? shop,
      ...(options.visitor === undefined ? {} : { "x-dastyar-visitor": options.visitor }),
      "x-forwarded-for": "203.0.113.7"
    },
    ...(options.body === undefined ? {} : { body: options.body })
  })

const visitor = (code: string) =>
  Effect.map(
    browser("POST", `/${code}/session`, { body: {} }),
    (reply) => pickString(reply.json, "data", "visitorToken")
  )

/** Asks, and returns the answer's id as the widget receives it. */
const answerId = (code: string, token: string, message: string) =>
  Effect.gen(function*() {
    const reply = yield* browser("POST", `/${code}/messages`, { visitor: token, body: { message } })
    expect(reply.status).toBe(200)
    return pickString(reply.json, "data", "messageId")
  })

const rate = (code: string, token: string, messageId: string, body: unknown, origin?: string) =>
  browser("POST", `/${code}/messages/${messageId}/feedback`, {
    visitor: token,
    body,
    ...(origin === undefined ? {} : { origin })
  })

layer(
  TestApp({
    DASTYAR_PUBLIC_URL: "https://assist.example.com/",
    DASTYAR_SECRET_KEY: "ef".repeat(32),
    DASTYAR_TRUST_PROXY: "1",
    DASTYAR_CONFIG: writeCatalog("http://127.0.0.1:9")
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("feedback from the website widget", (it) => {
  it.effect("a visitor rates an answer; the last vote counts and the shop reads it in the log", () =>
    Effect.gen(function*() {
      const { assistantId, code, key } = yield* webConnection
      const token = yield* visitor(code)
      const messageId = yield* answerId(code, token, "Do you ship to Shiraz?")

      const down = yield* rate(code, token, messageId, { rating: "down", comment: "It did not say how long" })
      expect(down.status).toBe(200)
      expect(pick(down.json, "data")).toMatchObject({ rating: "down", comment: "It did not say how long" })

      const list = yield* call("GET", `/v1/assistants/${assistantId}/conversations?negativeFeedback=true`, {
        token: key
      })
      expect(pick(list.json, "data", "list", 0, "channel")).toBe("web")
      const conversationId = pickString(list.json, "data", "list", 0, "id")
      const thread = yield* call("GET", `/v1/assistants/${assistantId}/conversations/${conversationId}`, { token: key })
      expect(pick(thread.json, "data", "messages", 1)).toMatchObject({
        id: messageId,
        role: "assistant",
        feedback: { rating: "down", comment: "It did not say how long" }
      })

      expect((yield* rate(code, token, messageId, { rating: "up" })).status).toBe(200)
      const after = yield* call("GET", `/v1/assistants/${assistantId}/conversations/${conversationId}`, { token: key })
      expect(pick(after.json, "data", "messages", 1, "feedback")).toMatchObject({ rating: "up", comment: null })
      expect(pick(after.json, "data", "negativeFeedback")).toBe(false)
    }))

  it.effect("the transcript a reload shows carries each message's id", () =>
    Effect.gen(function*() {
      const { code } = yield* webConnection
      const token = yield* visitor(code)
      const messageId = yield* answerId(code, token, "What do you sell?")
      const transcript = yield* browser("GET", `/${code}/messages`, { visitor: token })
      expect(pick(transcript.json, "data", "messages", 1)).toMatchObject({ id: messageId, role: "assistant" })
    }))

  it.effect("another visitor's answer, a question or an unknown message is 404; no token is 401", () =>
    Effect.gen(function*() {
      const { code } = yield* webConnection
      const owner = yield* visitor(code)
      const messageId = yield* answerId(code, owner, "Is the green tea in stock?")
      const stranger = yield* visitor(code)
      yield* answerId(code, stranger, "Hello")

      const refused = yield* rate(code, stranger, messageId, { rating: "down" })
      expect(refused.status).toBe(404)
      expect(pick(refused.json, "response", "code")).toBe("conversations.message_not_found")
      const question = String(Number(messageId) - 1)
      expect((yield* rate(code, owner, question, { rating: "down" })).status).toBe(404)
      expect((yield* rate(code, owner, "999999999", { rating: "up" })).status).toBe(404)
      expect((yield* rate(code, owner, "not-a-number", { rating: "up" })).status).toBe(400)
      expect((yield* rate(code, owner, messageId, { rating: "sideways" })).status).toBe(400)
      expect((yield* browser("POST", `/${code}/messages/${messageId}/feedback`, { body: { rating: "up" } })).status)
        .toBe(401)
    }))

  it.effect("another connection's answer is 404, and a page not in the allowed origins is 403", () =>
    Effect.gen(function*() {
      const first = yield* webConnection
      const second = yield* webConnection
      const token = yield* visitor(first.code)
      const messageId = yield* answerId(first.code, token, "Do you sell gift cards?")
      const elsewhere = yield* visitor(second.code)
      yield* answerId(second.code, elsewhere, "Hello")
      expect((yield* rate(second.code, elsewhere, messageId, { rating: "down" })).status).toBe(404)
      expect((yield* rate(first.code, token, messageId, { rating: "down" }, "https://evil.example")).status).toBe(403)
    }))
})
