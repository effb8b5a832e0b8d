import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { writeCatalog } from "../Chat/support/ChatSetup"
import { startFakeOpenAi } from "../Chat/support/FakeOpenAi"
import { admin, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"
import { connectionOf, connectionUntil, eventually, gaps } from "./ChannelKit"
import { hubSignature, startFakeWhatsApp, statusNotification, textNotification } from "./FakeWhatsApp"

const whatsapp = await startFakeWhatsApp()
const model = await startFakeOpenAi()
afterAll(() => Promise.all([whatsapp.close(), model.close()]))

const publicUrl = "https://bot.example.com"
const appSecret = "f3a1c9e07b2d4c58a6e1d0b9c8f7e6d5"
const verifyToken = "my-verify-token-42"
let nextNumber = 100200300400500
let nextMessage = 1
let nextCustomer = 989120000001

const newConnection = (assistantId: string) =>
  Effect.gen(function*() {
    const accessToken = `EAAG${"x".repeat(30)}${nextNumber}`
    whatsapp.tokens.add(accessToken)
    const phoneNumberId = String(nextNumber++)
    const created = yield* admin("POST", `/assistants/${assistantId}/connections`, {
      driver: "whatsapp",
      phoneNumberId,
      accessToken,
      appSecret,
      verifyToken
    })
    expect(created.status).toBe(201)
    return { code: pickString(created.json, "data", "connectionCode"), phoneNumberId, accessToken, created }
  })

/** Posts a notification to the hook as WhatsApp does: the raw JSON, signed with the app secret. */
const notify = (code: string, notification: unknown, secret: string | null = appSecret) => {
  const body = JSON.stringify(notification)
  return call("POST", `/hooks/whatsapp/${code}`, {
    rawBody: { contentType: "application/json", text: body },
    headers: secret === null ? {} : { "x-hub-signature-256": hubSignature(secret, body) }
  })
}

const customer = () => String(nextCustomer++)
const message = (phoneNumberId: string, from: string, text: string, sentAt?: Date) =>
  textNotification(phoneNumberId, { id: `wamid.in${nextMessage++}`, from, text, ...(sentAt ? { sentAt } : {}) })

const assistantWithModel = () => setupAccount({ assistant: { model: "acme-chat", productSearch: false } })

layer(
  TestApp({
    DASTYAR_WHATSAPP_API_BASE: whatsapp.url,
    DASTYAR_PUBLIC_URL: publicUrl,
    DASTYAR_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
    DASTYAR_CONFIG: writeCatalog(model.baseUrl),
    FAKE_PROVIDER_KEY: "sk-fake",
    DASTYAR_CHANNEL_RETRY_ATTEMPTS: "3",
    DASTYAR_CHANNEL_RETRY_DELAY: "100 millis"
  }),
  { excludeTestServices: true }
)("WhatsApp channel", (it) => {
  it.effect("connecting checks the number with the access token; secrets are sealed and never returned", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const { code, phoneNumberId, accessToken, created } = yield* newConnection(assistantId)
      expect(pick(created.json, "data")).toMatchObject({
        driver: "whatsapp",
        hookUrl: `${publicUrl}/hooks/whatsapp/${code}`,
        status: "active",
        statusReason: null,
        phoneNumberId
      })
      expect(whatsapp.requests).toContain(`GET /v24.0/${phoneNumberId}`)
      const listed = yield* admin("GET", `/assistants/${assistantId}/connections`)
      for (const text of [created.text, listed.text]) {
        for (const secret of [accessToken, appSecret, verifyToken]) expect(text).not.toContain(secret)
      }
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly secrets: Uint8Array }>`
        SELECT secrets FROM channel_connections WHERE code = ${code}`
      const stored = Buffer.from(rows[0]?.secrets ?? new Uint8Array()).toString("latin1")
      for (const secret of [accessToken, appSecret, verifyToken]) expect(stored).not.toContain(secret)

      const refused = yield* admin("POST", `/assistants/${assistantId}/connections`, {
        driver: "whatsapp",
        phoneNumberId: "123456789",
        accessToken: `EAAG${"n".repeat(40)}`,
        appSecret,
        verifyToken
      })
      expect(refused.status).toBe(400)
      expect(pick(refused.json, "response", "code")).toBe("connections.platform_rejected")
      const malformed = yield* admin("POST", `/assistants/${assistantId}/connections`, {
        driver: "whatsapp",
        phoneNumberId: "+1 555",
        accessToken,
        appSecret,
        verifyToken
      })
      expect(malformed.status).toBe(400)
      expect(pick(malformed.json, "fields", 0, "property")).toBe("phoneNumberId")
    }))

  it.effect("the verification handshake answers the challenge only for the right verify token", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const { code } = yield* newConnection(assistantId)
      const verify = (query: string) => call("GET", `/hooks/whatsapp/${code}?${query}`)
      const good = yield* verify(`hub.mode=subscribe&hub.verify_token=${verifyToken}&hub.challenge=1158201444`)
      expect(good.status).toBe(200)
      expect(good.text).toBe("1158201444")
      expect(good.headers["content-type"]).toContain("text/plain")
      const wrong = yield* verify("hub.mode=subscribe&hub.verify_token=guess&hub.challenge=1158201444")
      expect(wrong.status).toBe(403)
      expect(wrong.text).not.toContain("1158201444")
      expect(pick(wrong.json, "response", "code")).toBe("hooks.forbidden")
      expect((yield* verify(`hub.mode=unsubscribe&hub.verify_token=${verifyToken}&hub.challenge=1`)).status).toBe(403)
      expect((yield* verify("hub.challenge=1")).status).toBe(403)
      expect((yield* call("GET", `/hooks/whatsapp/con_unknown?hub.mode=subscribe&hub.challenge=1`)).status).toBe(404)
      expect((yield* call("GET", `/hooks/telegram/${code}?hub.mode=subscribe&hub.challenge=1`)).status).toBe(404)
    }))

  it.effect("a message is answered once; a wrong or missing signature gets 401 and no turn; statuses are ignored", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* assistantWithModel()
      const { code, phoneNumberId, accessToken } = yield* newConnection(assistantId)
      const from = customer()
      const turnsBefore = model.requests.length
      const first = message(phoneNumberId, from, "Do you ship to Isfahan?")

      const forged = yield* notify(code, first, "not-the-app-secret")
      expect(forged.status).toBe(401)
      expect(pick(forged.json, "response", "code")).toBe("hooks.unauthorized")
      expect((yield* notify(code, first, null)).status).toBe(401)

      expect((yield* notify(code, first)).status).toBe(200)
      const answered = yield* eventually(() => whatsapp.sentTo(from), (list) => list.length >= 1, "the answer")
      expect(answered[0]).toMatchObject({ token: accessToken, phoneNumberId, body: "Answer from the provider." })
      expect(answered[0]?.payload).toMatchObject({ messaging_product: "whatsapp", to: from, type: "text" })
      expect(model.requests.length).toBe(turnsBefore + 1)

      // WhatsApp redelivers the same message id, and reports the reply's status: neither is answered.
      expect((yield* notify(code, first)).status).toBe(200)
      expect((yield* notify(code, statusNotification(phoneNumberId, from))).status).toBe(200)
      // Another number of the same Meta app: its connection's business, not this one's.
      expect((yield* notify(code, message("999000111", from, "wrong number"))).status).toBe(200)
      expect((yield* notify(code, message(phoneNumberId, from, "And to Yazd?"))).status).toBe(200)
      yield* eventually(() => whatsapp.sentTo(from), (list) => list.length >= 2, "the second answer")
      expect(model.requests.length).toBe(turnsBefore + 2)
      expect(whatsapp.sentTo(from)).toHaveLength(2)
    }))

  it.effect("a long answer is split at WhatsApp's 4,096 characters", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* assistantWithModel()
      const { code, phoneNumberId } = yield* newConnection(assistantId)
      const from = customer()
      const long = Array.from({ length: 5 }, (_, n) => `Part ${n}. ${"Saffron & tea. ".repeat(150).trim()}`)
        .join("\n\n")
      expect(long.length).toBeGreaterThan(8192)
      model.queue({ kind: "text", text: long })
      expect((yield* notify(code, message(phoneNumberId, from, "Tell me everything"))).status).toBe(200)
      const parts = yield* eventually(
        () => whatsapp.sentTo(from),
        (list) => list.map((part) => part.body).join("\n\n") === long,
        "every part"
      )
      expect(parts.length).toBeGreaterThanOrEqual(3)
      expect(parts.every((part) => part.body.length <= 4096)).toBe(true)
    }))

  it.effect("a message outside the 24-hour window is recorded unanswered, and the connection says why", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* assistantWithModel()
      const { code, phoneNumberId } = yield* newConnection(assistantId)
      const from = customer()
      const turnsBefore = model.requests.length
      const dayAndHourAgo = new Date(Date.now() - 25 * 60 * 60 * 1000)
      const late = message(phoneNumberId, from, "Is it in stock?", dayAndHourAgo)
      expect((yield* notify(code, late)).status).toBe(200)
      const said = yield* connectionUntil(assistantId, code, (c) => pick(c, "statusReason") !== null)
      expect(pick(said, "status")).toBe("active")
      expect(String(pick(said, "statusReason"))).toContain("within 24 hours")
      const sql = yield* SqlClient.SqlClient
      const recorded = yield* sql<{ readonly chatKey: string; readonly text: string }>`
        SELECT chat_key, text FROM channel_unanswered WHERE connection_code = ${code}`
      expect(recorded).toEqual([{ chatKey: `whatsapp:${from}`, text: "Is it in stock?" }])
      expect(whatsapp.sentTo(from)).toHaveLength(0)
      expect(model.requests.length).toBe(turnsBefore)

      // WhatsApp itself refuses the reply (re-engagement, 131047): recorded too, and not retried.
      const other = customer()
      whatsapp.failNext({ status: 400, code: 131047, message: "Re-engagement message" })
      expect((yield* notify(code, message(phoneNumberId, other, "Hello?"))).status).toBe(200)
      const refused = yield* connectionUntil(
        assistantId,
        code,
        (c) => String(pick(c, "statusReason")).includes("131047")
      )
      expect(pick(refused, "status")).toBe("active")
      expect(whatsapp.sentTo(other)).toHaveLength(1)

      // Or it accepts the reply and reports it failed later, in a status event.
      const third = customer()
      expect((yield* notify(code, statusNotification(phoneNumberId, third, 131047))).status).toBe(200)
      const all = yield* sql<{ readonly chatKey: string }>`
        SELECT chat_key FROM channel_unanswered WHERE connection_code = ${code} ORDER BY recorded_at`
      expect(all.map((row) => row.chatKey)).toEqual([`whatsapp:${from}`, `whatsapp:${other}`, `whatsapp:${third}`])
      expect(String(pick(yield* connectionOf(assistantId, code), "statusReason"))).toContain("Re-engagement message")
      expect(model.requests.length).toBe(turnsBefore + 1)
    }))

  it.effect("an outage is retried with growing waits and given up after the bound", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* assistantWithModel()
      const { code, phoneNumberId } = yield* newConnection(assistantId)
      const from = customer()
      whatsapp.failNext({ status: 500, code: 131000, message: "Something went wrong" })
      whatsapp.failNext({ status: 503, code: 131016, message: "Service unavailable" })
      expect((yield* notify(code, message(phoneNumberId, from, "first"))).status).toBe(200)
      const recovered = yield* eventually(() => whatsapp.sentTo(from), (list) => list.length >= 3, "the retried answer")
      const waits = gaps(recovered.map((sent) => sent.at))
      expect(waits[0]).toBeGreaterThanOrEqual(90)
      expect(waits[1]).toBeGreaterThanOrEqual(190)

      const next = customer()
      for (let i = 0; i < 3; i++) whatsapp.failNext({ status: 502, code: 131000, message: "Bad gateway" })
      expect((yield* notify(code, message(phoneNumberId, next, "second"))).status).toBe(200)
      yield* eventually(() => whatsapp.sentTo(next), (list) => list.length >= 3, "three attempts")
      expect((yield* notify(code, message(phoneNumberId, next, "third"))).status).toBe(200)
      yield* eventually(() => whatsapp.sentTo(next), (list) => list.length >= 4, "the next answer")
      expect(whatsapp.sentTo(next)).toHaveLength(4)
      expect(pick(yield* connectionOf(assistantId, code), "status")).toBe("active")
    }))

  it.effect("a refused access token (190) marks the connection dead; the hook then answers 404", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* assistantWithModel()
      const { code, phoneNumberId, accessToken } = yield* newConnection(assistantId)
      const from = customer()
      whatsapp.tokens.delete(accessToken)
      expect((yield* notify(code, message(phoneNumberId, from, "hello?"))).status).toBe(200)
      const dead = yield* connectionUntil(assistantId, code, (c) => pick(c, "status") === "dead")
      expect(String(pick(dead, "statusReason"))).toContain("WhatsApp refused the access token")
      // One refused attempt, no retry.
      expect(whatsapp.requests.filter((r) => r === `POST /v24.0/${phoneNumberId}/messages`)).toHaveLength(1)
      expect((yield* notify(code, message(phoneNumberId, from, "again"))).status).toBe(404)
      // Enabling checks the token again: still refused, still dead.
      const enable = yield* admin("POST", `/assistants/${assistantId}/connections/${code}/enable`)
      expect(enable.status).toBe(400)
      expect(pick(yield* connectionOf(assistantId, code), "status")).toBe("dead")
    }))
})
