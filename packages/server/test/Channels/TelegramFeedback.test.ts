/**
 * Feedback from Telegram and Bale: 👍/👎 inline buttons under each answer; a
 * press (`callback_query`) records the vote in the conversation log (the last
 * one counts) and is answered with `answerCallbackQuery`. A press naming an
 * answer of another chat records nothing.
 */
import { afterAll, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { admin, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"
import { eventually } from "./ChannelKit"
import { startFakeBale } from "./FakeBale"
import { type BotCall, startFakeTelegram } from "./FakeTelegram"

const telegram = await startFakeTelegram("unused")
const bale = await startFakeBale("unused")
afterAll(() => Promise.all([telegram.close(), bale.close()]))

let nextToken = 5000
let updateId = 1

type Fake = typeof telegram

const connect = (fake: Fake, driver: "telegram" | "bale", assistantId: string) =>
  Effect.gen(function*() {
    const token = `${nextToken++}:AAHfake-token-${"y".repeat(24)}`
    fake.tokens.add(token)
    const created = yield* admin("POST", `/assistants/${assistantId}/connections`, { driver, botToken: token })
    expect(created.status).toBe(201)
    const code = pickString(created.json, "data", "connectionCode")
    const hook = fake.calls.filter((c) => c.method === "setWebhook" && c.token === token).at(-1)
    // Telegram: the secret comes in a header; Bale: as the registered URL's last segment.
    const url = driver === "telegram"
      ? `/hooks/telegram/${code}`
      : new URL(String(hook?.params.url)).pathname
    const headers: Record<string, string> = driver === "telegram"
      ? { "x-telegram-bot-api-secret-token": String(hook?.params.secret_token) }
      : {}
    return { token, deliver: (update: unknown) => call("POST", url, { body: update, headers }) }
  })

const ask = (chatId: number, text: string) => ({
  update_id: updateId++,
  message: {
    message_id: updateId,
    date: 0,
    chat: { id: chatId, type: "private" },
    from: { id: chatId, is_bot: false, first_name: "A", language_code: "en" },
    text
  }
})

const press = (chatId: number, data: string) => {
  const id = updateId++
  return {
    update_id: id,
    callback_query: {
      id: `cb-${id}`,
      from: { id: chatId, is_bot: false, first_name: "A", language_code: "en" },
      message: { message_id: 1, date: 0, chat: { id: chatId, type: "private" } },
      chat_instance: "x",
      data
    }
  }
}

type Buttons = { inline_keyboard: Array<Array<{ text: string; callback_data: string }>> }
const isButtons = (value: unknown): value is Buttons =>
  typeof value === "object" && value !== null && "inline_keyboard" in value

/** The buttons under the last answer sent with `token` to the chat. */
const buttonsFor = (fake: Fake, token: string, chatId: number) =>
  eventually(
    () =>
      fake.callsOf("sendMessage", chatId).filter((c: BotCall) => c.token === token && isButtons(c.params.reply_markup)),
    (calls) => calls.length > 0,
    "an answer with buttons"
  ).pipe(Effect.map((calls) => {
    const markup = calls.at(-1)?.params.reply_markup
    return isButtons(markup) ? markup.inline_keyboard.flat() : []
  }))

const callbackAnswer = (fake: Fake, id: string) =>
  eventually(
    () => fake.calls.find((c) => c.method === "answerCallbackQuery" && c.params.callback_query_id === id),
    (found) => found !== undefined,
    "answerCallbackQuery"
  ).pipe(Effect.map((found) => String(found?.params.text)))

const feedbackOf = (key: string, assistantId: string) =>
  Effect.gen(function*() {
    const list = yield* call("GET", `/v1/assistants/${assistantId}/conversations`, { token: key })
    const id = pickString(list.json, "data", "list", 0, "id")
    const thread = yield* call("GET", `/v1/assistants/${assistantId}/conversations/${id}`, { token: key })
    return pick(thread.json, "data", "messages", 1, "feedback")
  })

layer(
  TestApp({
    DASTYAR_TELEGRAM_API_BASE: telegram.url,
    DASTYAR_BALE_API_BASE: bale.url,
    DASTYAR_PUBLIC_URL: "https://bot.example.com",
    DASTYAR_SECRET_KEY: Buffer.alloc(32, 5).toString("base64")
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("feedback from Telegram and Bale", (it) => {
  for (const [driver, fake] of [["telegram", telegram], ["bale", bale]] as const) {
    it.effect(`${driver}: an answer carries 👍/👎; a press records the vote and is answered, the last counts`, () =>
      Effect.gen(function*() {
        const { assistantId, key } = yield* setupAccount()
        const bot = yield* connect(fake, driver, assistantId)
        const chatId = 4100 + updateId
        expect((yield* bot.deliver(ask(chatId, "Do you ship to Shiraz?"))).status).toBe(200)
        const buttons = yield* buttonsFor(fake, bot.token, chatId)
        expect(buttons.map((button) => button.text)).toEqual(["👍", "👎"])
        const [up, down] = buttons.map((button) => button.callback_data)
        expect(Buffer.byteLength(down ?? "")).toBeLessThanOrEqual(64)

        const first = press(chatId, down ?? "")
        yield* bot.deliver(first)
        expect(yield* callbackAnswer(fake, first.callback_query.id)).toBe("Thank you for your feedback.")
        expect(yield* feedbackOf(key, assistantId)).toMatchObject({ rating: "down", comment: null })

        const second = press(chatId, up ?? "")
        yield* bot.deliver(second)
        yield* callbackAnswer(fake, second.callback_query.id)
        expect(yield* feedbackOf(key, assistantId)).toMatchObject({ rating: "up" })
      }))
  }

  it.effect("a press naming another chat's answer, or data the bot never wrote, records nothing", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const bot = yield* connect(telegram, "telegram", assistantId)
      const owner = 5200 + updateId
      const stranger = owner + 1
      yield* bot.deliver(ask(owner, "Is the green tea in stock?"))
      const [, down] = yield* buttonsFor(telegram, bot.token, owner)
      yield* bot.deliver(ask(stranger, "Hello"))
      yield* buttonsFor(telegram, bot.token, stranger)

      const foreign = press(stranger, down?.callback_data ?? "")
      yield* bot.deliver(foreign)
      expect(yield* callbackAnswer(telegram, foreign.callback_query.id)).toBe("This answer can no longer be rated.")
      const forged = press(owner, "fb:x:1")
      yield* bot.deliver(forged)
      expect(yield* callbackAnswer(telegram, forged.callback_query.id)).toBe("This answer can no longer be rated.")
      const negative = yield* call("GET", `/v1/assistants/${assistantId}/conversations?negativeFeedback=true`, {
        token: key
      })
      expect(pick(negative.json, "data", "list")).toEqual([])
    }))
})
