import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { admin, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"
import { eventually, gaps } from "./ChannelKit"
import { type BotCall, startFakeTelegram } from "./FakeTelegram"

const fake = await startFakeTelegram("What is the price of the blue teapot?")
afterAll(() => fake.close())

const publicUrl = "https://bot.example.com"
const secretKey = Buffer.alloc(32, 9).toString("base64")
let nextToken = 1000
const newToken = () => {
  const token = `${nextToken++}:AAHfake-token-${"x".repeat(24)}`
  fake.tokens.add(token)
  return token
}

const connect = (assistantId: string, token: string) =>
  Effect.gen(function*() {
    const created = yield* admin("POST", `/assistants/${assistantId}/connections`, {
      driver: "telegram",
      botToken: token
    })
    expect(created.status).toBe(201)
    const code = pickString(created.json, "data", "connectionCode")
    const hook = fake.calls.filter((c) => c.method === "setWebhook" && c.token === token).at(-1)
    const secret = String(hook?.params.secret_token)
    return { code, secret, created }
  })

let updateId = 1
const textUpdate = (chatId: number, text: string, id = updateId++) => ({
  update_id: id,
  message: {
    message_id: id,
    date: 0,
    chat: { id: chatId, type: "private" },
    from: { id: chatId, is_bot: false, first_name: "A", language_code: "en" },
    text
  }
})

const deliver = (code: string, secret: string | undefined, update: unknown) =>
  call("POST", `/hooks/telegram/${code}`, {
    body: update,
    ...(secret === undefined ? {} : { headers: { "x-telegram-bot-api-secret-token": secret } })
  })

const texts = (calls: ReadonlyArray<BotCall>) => calls.map((c) => String(c.params.text))

layer(
  TestApp({
    DASTYAR_TELEGRAM_API_BASE: fake.url,
    DASTYAR_PUBLIC_URL: publicUrl,
    DASTYAR_SECRET_KEY: secretKey,
    DASTYAR_TRANSCRIPTION_BASE_URL: `${fake.url}/v1`,
    DASTYAR_HOOK_RATE_LIMIT_PER_MINUTE: "20",
    DASTYAR_CHANNEL_RETRY_ATTEMPTS: "3",
    DASTYAR_CHANNEL_RETRY_DELAY: "100 millis"
  }),
  { excludeTestServices: true }
)("Telegram channel", (it) => {
  it.effect("creating a connection registers the webhook with a random secret; secrets are stored encrypted and never returned", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const token = newToken()
      const { code, created, secret } = yield* connect(assistantId, token)
      expect(pick(created.json, "data")).toMatchObject({
        connectionCode: code,
        assistantId,
        driver: "telegram",
        hookUrl: `${publicUrl}/hooks/telegram/${code}`,
        status: "active",
        botUsername: "shop_test_bot",
        callbackUrl: null
      })
      const registered = fake.calls.filter((c) => c.method === "setWebhook" && c.token === token)
      expect(registered).toHaveLength(1)
      expect(registered[0]?.params).toMatchObject({
        url: `${publicUrl}/hooks/telegram/${code}`,
        allowed_updates: ["message", "callback_query"]
      })
      expect(secret).toMatch(/^[A-Za-z0-9_-]{32,256}$/)
      const listed = yield* admin("GET", `/assistants/${assistantId}/connections`)
      for (const text of [created.text, listed.text]) {
        expect(text).not.toContain(token)
        expect(text).not.toContain(secret)
      }
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<
        { readonly secrets: Uint8Array }
      >`SELECT secrets FROM channel_connections WHERE code = ${code}`
      const stored = Buffer.from(rows[0]?.secrets ?? new Uint8Array()).toString("latin1")
      expect(stored.length).toBeGreaterThan(40)
      expect(stored).not.toContain(token)
      expect(stored).not.toContain(secret)

      // A malformed token is a validation error; one the Bot API refuses is 400 and nothing is stored.
      const malformed = yield* admin("POST", `/assistants/${assistantId}/connections`, {
        driver: "telegram",
        botToken: "nope"
      })
      expect(malformed.status).toBe(400)
      expect(pick(malformed.json, "fields", 0, "property")).toBe("botToken")
      const refused = yield* admin("POST", `/assistants/${assistantId}/connections`, {
        driver: "telegram",
        botToken: `999:AAunknown-${"y".repeat(24)}`
      })
      expect(refused.status).toBe(400)
      expect(pick(refused.json, "response", "code")).toBe("connections.telegram_rejected")
      expect(pick((yield* admin("GET", `/assistants/${assistantId}/connections`)).json, "data", "count")).toBe(1)
      expect(
        (yield* admin("POST", "/assistants/ast_missing/connections", { driver: "telegram", botToken: token })).status
      )
        .toBe(404)
    }))

  it.effect("a conversation through the hook: one answer per update, redeliveries ignored, 429 retried after retry_after", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const token = newToken()
      const { code, secret } = yield* connect(assistantId, token)
      const chatId = 4242

      // Wrong or missing secret, unknown connection: refused in the envelope, nothing processed.
      const wrong = yield* deliver(code, "not-the-secret", textUpdate(chatId, "hello"))
      expect(wrong.status).toBe(401)
      expect(wrong.json).toEqual({
        data: null,
        response: {
          status: "bad_request",
          message: "The hook request's secret or signature is missing or wrong",
          code: "hooks.unauthorized"
        }
      })
      expect((yield* deliver(code, undefined, textUpdate(chatId, "hello"))).status).toBe(401)
      const unknown = yield* deliver("con_unknown", secret, textUpdate(chatId, "hello"))
      expect(unknown.status).toBe(404)
      expect(pick(unknown.json, "response", "code")).toBe("hooks.not_found")

      // The first answer meets a 429 once and is sent after `retry_after`.
      fake.failNext({
        method: "sendMessage",
        status: 429,
        description: "Too Many Requests: retry after 1",
        retryAfter: 1
      })
      const first = textUpdate(chatId, "Hello there")
      const started = Date.now()
      const accepted = yield* deliver(code, secret, first)
      expect(accepted.status).toBe(200)
      expect(accepted.json).toEqual({ data: null, response: { status: "success", message: "Success" } })
      expect(Date.now() - started).toBeLessThan(1000)
      const answered = yield* eventually(
        () => fake.callsOf("sendMessage", chatId).filter((c) => c.token === token),
        (list) => list.length >= 2,
        "the first answer"
      )
      // The 429'd attempt and its retry carry the same text.
      expect(answered[0]?.params.text).toBe(answered[1]?.params.text)
      expect(answered[1]?.params.parse_mode).toBe("HTML")
      expect(fake.callsOf("sendChatAction", chatId).length).toBeGreaterThanOrEqual(1)

      // Telegram delivers the same update again: acknowledged, not answered twice.
      expect((yield* deliver(code, secret, first)).status).toBe(200)
      const second = textUpdate(chatId, "And one more question")
      expect((yield* deliver(code, secret, second)).status).toBe(200)
      yield* eventually(
        () => fake.callsOf("sendMessage", chatId).filter((c) => c.token === token),
        (l) => l.length >= 3,
        "the second answer"
      )
      yield* Effect.sleep("500 millis")
      expect(fake.callsOf("sendMessage", chatId).filter((c) => c.token === token)).toHaveLength(3)

      // One conversation per chat.
      const sql = yield* SqlClient.SqlClient
      const conversations = yield* sql<{ readonly chatKey: string }>`
        SELECT chat_key FROM channel_conversations WHERE connection_code = ${code}`
      expect(conversations.map((row) => row.chatKey)).toEqual([`telegram:${chatId}`])

      // Updates of other kinds are acknowledged and ignored; bodies over 1 MB are refused.
      expect((yield* deliver(code, secret, { update_id: updateId++, edited_message: { chat: { id: chatId } } })).status)
        .toBe(200)
      const huge = yield* deliver(code, secret, textUpdate(chatId, "x".repeat(1024 * 1024 + 10)))
      expect(huge.status).toBe(413)
      expect(pick(huge.json, "response", "code")).toBe("request.payload_too_large")
    }))

  it.effect("voice notes: refused politely in the sender's language when the assistant takes no voice, else transcribed", () =>
    Effect.gen(function*() {
      const voice = (chatId: number, languageCode: string) => ({
        update_id: updateId++,
        message: {
          message_id: 1,
          date: 0,
          chat: { id: chatId, type: "private" },
          from: { id: chatId, is_bot: false, first_name: "A", language_code: languageCode },
          voice: {
            file_id: `voice-${chatId}`,
            file_unique_id: "v",
            duration: 2,
            mime_type: "audio/ogg",
            file_size: 240
          }
        }
      })
      const deaf = yield* setupAccount()
      const deafBot = yield* connect(deaf.assistantId, newToken())
      expect((yield* deliver(deafBot.code, deafBot.secret, voice(501, "fa"))).status).toBe(200)
      const refusal = yield* eventually(() => fake.callsOf("sendMessage", 501), (l) => l.length >= 1, "the refusal")
      expect(texts(refusal)).toEqual(["متأسفم، فقط پیام‌های متنی را می‌توانم بخوانم. لطفاً پرسش خود را بنویسید."])
      expect(fake.callsOf("getFile").filter((c) => c.params.file_id === "voice-501")).toHaveLength(0)

      const listening = yield* setupAccount({ assistant: { acceptVoice: true } })
      const bot = yield* connect(listening.assistantId, newToken())
      const transcribedBefore = fake.transcriptions.length
      expect((yield* deliver(bot.code, bot.secret, voice(502, "en"))).status).toBe(200)
      const answer = yield* eventually(
        () => fake.callsOf("sendMessage", 502),
        (l) => l.length >= 1,
        "the answer to the voice note"
      )
      // Answered from the transcript, not the "please type" fallback.
      expect(texts(answer)).not.toContain("Please send your question as a text message.")
      expect(fake.callsOf("getFile").filter((c) => c.params.file_id === "voice-502")).toHaveLength(1)
      expect(fake.transcriptions.length).toBe(transcribedBefore + 1)
    }))

  it.effect("a product answer arrives as a photo with title, price and link in the caption", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const product = yield* call("POST", `/v1/assistants/${assistantId}/products`, {
        token: key,
        body: {
          externalId: "teapot-1",
          title: "Blue ceramic teapot <1 l>",
          category: "Kitchen",
          price: 890000,
          currency: "IRR",
          imageUrl: "https://shop.example.com/img/teapot.jpg",
          url: "https://shop.example.com/p/teapot?a=1&b=2"
        }
      })
      expect(product.status).toBe(201)
      for (let attempt = 0; attempt < 100; attempt++) {
        const state = yield* call("GET", `/v1/assistants/${assistantId}/products/teapot-1`, { token: key })
        if (pick(state.json, "data", "indexState") === "synced") break
        yield* Effect.sleep("100 millis")
      }
      const bot = yield* connect(assistantId, newToken())
      expect((yield* deliver(bot.code, bot.secret, textUpdate(601, "Do you sell a blue teapot?"))).status).toBe(200)
      const photos = yield* eventually(() => fake.callsOf("sendPhoto", 601), (l) => l.length >= 1, "the product photo")
      expect(photos[0]?.params).toMatchObject({
        photo: "https://shop.example.com/img/teapot.jpg",
        parse_mode: "HTML",
        caption:
          "<b>Blue ceramic teapot &lt;1 l&gt;</b>\n890,000 IRR\n<a href=\"https://shop.example.com/p/teapot?a=1&amp;b=2\">View product</a>"
      })
    }))

  it.effect("a revoked bot token marks the connection dead; disable, enable and delete; the per-connection limit", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const token = newToken()
      const { code, secret } = yield* connect(assistantId, token)

      // The per-connection limit (20 here): updates past it get 429; another connection is not affected.
      const ignored = () => ({ update_id: updateId++ })
      const statuses: Array<number> = []
      for (let i = 0; i < 21; i++) statuses.push((yield* deliver(code, secret, ignored())).status)
      expect(statuses.slice(0, 20).every((status) => status === 200)).toBe(true)
      expect(statuses[20]).toBe(429)
      const otherToken = newToken()
      const other = yield* connect(assistantId, otherToken)
      expect((yield* deliver(other.code, other.secret, ignored())).status).toBe(200)

      // Disabled: the webhook is removed and the hook answers 404; enabled: a new secret is registered.
      const disabled = yield* admin("POST", `/assistants/${assistantId}/connections/${other.code}/disable`)
      expect(pick(disabled.json, "data", "status")).toBe("disabled")
      expect(fake.calls.filter((c) => c.method === "deleteWebhook" && c.token === otherToken)).toHaveLength(1)
      expect((yield* deliver(other.code, other.secret, ignored())).status).toBe(404)
      const enabled = yield* admin("POST", `/assistants/${assistantId}/connections/${other.code}/enable`)
      expect(pick(enabled.json, "data", "status")).toBe("active")
      const renewed = fake.calls.filter((c) => c.method === "setWebhook").at(-1)?.params.secret_token
      expect(renewed).not.toBe(other.secret)
      expect((yield* deliver(other.code, other.secret, ignored())).status).toBe(401)
      expect((yield* deliver(other.code, String(renewed), ignored())).status).toBe(200)
      expect((yield* admin("DELETE", `/assistants/${assistantId}/connections/${other.code}`)).status).toBe(200)
      expect((yield* admin("DELETE", `/assistants/${assistantId}/connections/${other.code}`)).status).toBe(404)

      // The bot's token is revoked: the first answer meets 401, the connection is dead, not retried forever.
      const deadToken = newToken()
      const doomed = yield* connect(assistantId, deadToken)
      fake.tokens.delete(deadToken)
      expect((yield* deliver(doomed.code, doomed.secret, textUpdate(701, "hello?"))).status).toBe(200)
      const dead = yield* eventually(
        () => fake.calls.filter((c) => c.token === deadToken && c.method === "sendMessage").length,
        (n) => n >= 1,
        "the refused answer"
      )
      expect(dead).toBe(1)
      for (let attempt = 0; attempt < 50; attempt++) {
        const listed = yield* admin("GET", `/assistants/${assistantId}/connections`)
        const list = pick(listed.json, "data", "list")
        const entry = Array.isArray(list)
          ? list.find((item) => pick(item, "connectionCode") === doomed.code)
          : undefined
        if (pick(entry, "status") === "dead") break
        yield* Effect.sleep("100 millis")
      }
      const listed = yield* admin("GET", `/assistants/${assistantId}/connections`)
      const list = pick(listed.json, "data", "list")
      const entry = Array.isArray(list) ? list.find((item) => pick(item, "connectionCode") === doomed.code) : undefined
      expect(pick(entry, "status")).toBe("dead")
      expect(String(pick(entry, "statusReason"))).toContain("Unauthorized")
      expect((yield* deliver(doomed.code, doomed.secret, textUpdate(701, "again"))).status).toBe(404)
      yield* Effect.sleep("300 millis")
      expect(fake.calls.filter((c) => c.token === deadToken && c.method === "sendMessage")).toHaveLength(1)
    }))

  it.effect("an outage is retried with growing waits and given up after the bound, the connection left active", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const token = newToken()
      const { code, secret } = yield* connect(assistantId, token)
      const sentTo = (chatId: number) => fake.callsOf("sendMessage", chatId).filter((c) => c.token === token)
      for (let i = 0; i < 3; i++) fake.failNext({ method: "sendMessage", status: 502, description: "Bad Gateway" })
      expect((yield* deliver(code, secret, textUpdate(801, "hello"))).status).toBe(200)
      const attempts = yield* eventually(() => sentTo(801), (l) => l.length >= 3, "three attempts")
      const waits = gaps(attempts.map((c) => c.at))
      expect(waits[0]).toBeGreaterThanOrEqual(90)
      expect(waits[1]).toBeGreaterThanOrEqual(190)
      // The bound reached, the answer is dropped; the next message is answered at once.
      expect((yield* deliver(code, secret, textUpdate(801, "still there?"))).status).toBe(200)
      yield* eventually(() => sentTo(801), (l) => l.length >= 4, "the next answer")
      expect(sentTo(801)).toHaveLength(4)
      const listed = yield* admin("GET", `/assistants/${assistantId}/connections`)
      expect(pick(listed.json, "data", "list", 0, "status")).toBe("active")
    }))
})
