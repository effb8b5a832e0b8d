import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { writeCatalog } from "../Chat/support/ChatSetup"
import { startFakeOpenAi } from "../Chat/support/FakeOpenAi"
import { admin, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"
import { connectionUntil, eventually, gaps } from "./ChannelKit"
import { startFakeBale } from "./FakeBale"
import type { BotCall } from "./FakeTelegram"

const bale = await startFakeBale("unused")
const model = await startFakeOpenAi()
afterAll(() => Promise.all([bale.close(), model.close()]))

const publicUrl = "https://bot.example.com"
let nextToken = 5000
/** Bale tokens look like Telegram's. */
const newToken = () => {
  const token = `${nextToken++}:baleToken${"z".repeat(30)}`
  bale.tokens.add(token)
  return token
}

const connect = (assistantId: string, token: string) =>
  Effect.gen(function*() {
    const created = yield* admin("POST", `/assistants/${assistantId}/connections`, { driver: "bale", botToken: token })
    expect(created.status).toBe(201)
    const code = pickString(created.json, "data", "connectionCode")
    const registered = bale.calls.filter((c) => c.method === "setWebhook" && c.token === token).at(-1)
    const url = String(registered?.params.url)
    return { code, created, registered, url, secret: url.slice(url.lastIndexOf("/") + 1) }
  })

let updateId = 1
const textUpdate = (chatId: number, text: string, id = updateId++) => ({
  update_id: id,
  message: { message_id: id, date: 0, chat: { id: chatId, type: "private" }, from: { id: chatId }, text }
})

/** Posts an update to the URL Bale was given (or to another path, for the refusals). */
const deliver = (url: string, update: unknown) => call("POST", url.replace(publicUrl, ""), { body: update })

const sent = (token: string, chatId: number) =>
  bale.callsOf("sendMessage", chatId).filter((c: BotCall) => c.token === token)

layer(
  TestApp({
    DASTYAR_BALE_API_BASE: bale.url,
    DASTYAR_PUBLIC_URL: publicUrl,
    DASTYAR_SECRET_KEY: Buffer.alloc(32, 5).toString("base64"),
    DASTYAR_CONFIG: writeCatalog(model.baseUrl),
    FAKE_PROVIDER_KEY: "sk-fake",
    DASTYAR_CHANNEL_RETRY_ATTEMPTS: "3",
    DASTYAR_CHANNEL_RETRY_DELAY: "100 millis"
  }),
  { excludeTestServices: true }
)("Bale channel", (it) => {
  it.effect("connecting registers a webhook URL whose last segment is a secret; Bale gets no secret_token", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount()
      const token = newToken()
      const { code, created, registered, secret } = yield* connect(assistantId, token)
      expect(pick(created.json, "data")).toMatchObject({
        driver: "bale",
        hookUrl: `${publicUrl}/hooks/bale/${code}`,
        status: "active",
        botUsername: "shop_bale_bot"
      })
      expect(registered?.params).toEqual({ url: `${publicUrl}/hooks/bale/${code}/${secret}` })
      expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const listed = yield* admin("GET", `/assistants/${assistantId}/connections`)
      for (const text of [created.text, listed.text]) {
        expect(text).not.toContain(token)
        expect(text).not.toContain(secret)
      }
      const refused = yield* admin("POST", `/assistants/${assistantId}/connections`, {
        driver: "bale",
        botToken: `1:unknown${"q".repeat(30)}`
      })
      expect(refused.status).toBe(400)
      expect(pick(refused.json, "response", "code")).toBe("connections.platform_rejected")
    }))

  it.effect("a good update is answered once in plain text; a wrong or missing secret gets 401 and no turn", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount({ assistant: { model: "acme-chat", productSearch: false } })
      const token = newToken()
      const { code, url } = yield* connect(assistantId, token)
      const turnsBefore = model.requests.length

      const wrong = yield* deliver(`/hooks/bale/${code}/not-the-secret`, textUpdate(11, "hello"))
      expect(wrong.status).toBe(401)
      expect(pick(wrong.json, "response", "code")).toBe("hooks.unauthorized")
      expect((yield* deliver(`/hooks/bale/${code}`, textUpdate(11, "hello"))).status).toBe(401)
      expect((yield* deliver(`/hooks/telegram/${code}`, textUpdate(11, "hello"))).status).toBe(404)

      const update = textUpdate(11, "Do you ship to Tabriz?")
      expect((yield* deliver(url, update)).status).toBe(200)
      const answered = yield* eventually(() => sent(token, 11), (list) => list.length >= 1, "the answer")
      // Plain text (no parse mode), with the 👍/👎 buttons under it.
      expect(answered[0]?.params).toEqual({
        chat_id: 11,
        text: "Answer from the provider.",
        reply_markup: {
          inline_keyboard: [[expect.objectContaining({ text: "👍" }), expect.objectContaining({ text: "👎" })]]
        }
      })
      expect(model.requests.length).toBe(turnsBefore + 1)

      // Bale delivers the same update again: acknowledged, answered once.
      expect((yield* deliver(url, update)).status).toBe(200)
      expect((yield* deliver(url, textUpdate(11, "And to Rasht?"))).status).toBe(200)
      yield* eventually(() => sent(token, 11), (list) => list.length >= 2, "the second answer")
      expect(model.requests.length).toBe(turnsBefore + 2)
      expect(sent(token, 11)).toHaveLength(2)

      const sql = yield* SqlClient.SqlClient
      const chats = yield* sql<{ readonly chatKey: string }>`
        SELECT chat_key FROM channel_conversations WHERE connection_code = ${code}`
      expect(chats.map((row) => row.chatKey)).toEqual(["bale:11"])
    }))

  it.effect("a long answer is split under Bale's 4,000 characters at paragraph boundaries", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount({ assistant: { model: "acme-chat", productSearch: false } })
      const token = newToken()
      const { url } = yield* connect(assistantId, token)
      const paragraph = (n: number) => `Paragraph ${n}: ${"tea & <cups> ".repeat(120).trim()}`
      const long = Array.from({ length: 6 }, (_, n) => paragraph(n)).join("\n\n")
      expect(long.length).toBeGreaterThan(8000)
      model.queue({ kind: "text", text: long })
      expect((yield* deliver(url, textUpdate(12, "Tell me everything"))).status).toBe(200)
      // Plain text: nothing escaped, and the parts put back together are the answer.
      const textsOf = (calls: ReadonlyArray<BotCall>) => calls.map((part) => String(part.params.text))
      const parts = yield* eventually(
        () => sent(token, 12),
        (list) => textsOf(list).join("\n\n") === long,
        "every part"
      )
      expect(parts.length).toBeGreaterThanOrEqual(3)
      expect(textsOf(parts).every((text) => text.length <= 4000)).toBe(true)
      expect(parts.every((part) => part.params.parse_mode === undefined)).toBe(true)
    }))

  it.effect("an outage is retried with growing waits and given up after the bound; the connection stays active", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount({ assistant: { model: "acme-chat", productSearch: false } })
      const token = newToken()
      const { code, url } = yield* connect(assistantId, token)

      // Two failures, then success: the answer arrives on the third attempt.
      bale.failNext({ method: "sendMessage", status: 502, description: "Bad Gateway" })
      bale.failNext({ method: "sendMessage", status: 503, description: "Service Unavailable" })
      expect((yield* deliver(url, textUpdate(13, "first"))).status).toBe(200)
      const recovered = yield* eventually(() => sent(token, 13), (list) => list.length >= 3, "the retried answer")
      const waits = gaps(recovered.map((c) => c.at))
      expect(waits[0]).toBeGreaterThanOrEqual(90)
      expect(waits[1]).toBeGreaterThanOrEqual(190)

      // A longer outage: three attempts (the bound), then the answer is dropped.
      for (let i = 0; i < 3; i++) bale.failNext({ method: "sendMessage", status: 500, description: "Internal" })
      expect((yield* deliver(url, textUpdate(14, "second"))).status).toBe(200)
      yield* eventually(() => sent(token, 14), (list) => list.length >= 3, "three attempts")
      expect((yield* deliver(url, textUpdate(14, "third"))).status).toBe(200)
      yield* eventually(() => sent(token, 14), (list) => list.length >= 4, "the next answer")
      expect(sent(token, 14)).toHaveLength(4)
      const connection = yield* connectionUntil(assistantId, code, () => true)
      expect(pick(connection, "status")).toBe("active")
    }))

  it.effect("a revoked token marks the connection dead, without retries; the hook then answers 404", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount({ assistant: { model: "acme-chat", productSearch: false } })
      const token = newToken()
      const { code, url } = yield* connect(assistantId, token)
      bale.tokens.delete(token)
      expect((yield* deliver(url, textUpdate(15, "hello?"))).status).toBe(200)
      const dead = yield* connectionUntil(assistantId, code, (c) => pick(c, "status") === "dead")
      expect(String(pick(dead, "statusReason"))).toContain("Bale Bot API refused the token")
      expect(sent(token, 15)).toHaveLength(1)
      expect((yield* deliver(url, textUpdate(15, "again"))).status).toBe(404)

      // Disabled: Bale's webhook is removed; enabled with a working token: a new secret URL is registered.
      bale.tokens.add(token)
      const enabled = yield* admin("POST", `/assistants/${assistantId}/connections/${code}/enable`)
      expect(pick(enabled.json, "data", "status")).toBe("active")
      const renewed = String(
        bale.calls.filter((c) => c.method === "setWebhook" && c.token === token).at(-1)?.params.url
      )
      expect(renewed).not.toBe(url)
      expect((yield* deliver(url, textUpdate(15, "old secret"))).status).toBe(401)
      yield* admin("POST", `/assistants/${assistantId}/connections/${code}/disable`)
      expect(bale.calls.filter((c) => c.method === "deleteWebhook" && c.token === token)).toHaveLength(1)
    }))
})
