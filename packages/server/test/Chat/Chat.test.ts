import { SqlClient } from "@effect/sql"
import { afterAll, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { admin, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"
import { addDocument, chat, parseEvents, putProduct, returnsDoc, shippingDoc, writeCatalog } from "./support/ChatSetup"
import { defaultText, startFakeOpenAi } from "./support/FakeOpenAi"

const provider = await startFakeOpenAi()
afterAll(() => provider.close())

const env = {
  DASTYAR_CONFIG: writeCatalog(provider.baseUrl),
  FAKE_PROVIDER_KEY: "sk-fake",
  DASTYAR_TRANSCRIPTION_BASE_URL: provider.baseUrl
}

/** An Ogg/Opus header is enough for the sniffer to call it audio. */
const oggVoice = {
  kind: "voice",
  data: Buffer.concat([Buffer.from("OggS"), Buffer.alloc(24), Buffer.from("OpusHead"), Buffer.alloc(32)])
    .toString("base64"),
  mimeType: "audio/ogg"
}

/** An account whose assistant has the shipping and returns documents. */
const withKnowledge = (assistant: Record<string, unknown> = {}, plan?: string) =>
  Effect.gen(function*() {
    const account = yield* setupAccount({ assistant, ...(plan === undefined ? {} : { plan }) })
    const shippingId = yield* addDocument(account.key, account.assistantId, "shipping.md", shippingDoc)
    yield* addDocument(account.key, account.assistantId, "returns.md", returnsDoc)
    return { ...account, shippingId }
  })

layer(TestApp(env), { excludeTestServices: true })("chat", (it) => {
  it.effect("the offline model answers from the knowledge base and lists exactly the chunks it was given", () =>
    Effect.gen(function*() {
      const { assistantId, key, shippingId } = yield* withKnowledge()
      const reply = yield* chat(key, assistantId, { principal: "customer-1", message: "Do you ship to Shiraz?" })
      expect(reply.status).toBe(200)
      expect(reply.json).toMatchObject({
        data: { model: "dastyar-local", reasoning: "none", degraded: false, products: [] },
        response: { status: "success" }
      })
      const sources = pick(reply.json, "data", "sources")
      expect(sources).toEqual([{
        fileId: shippingId,
        path: "shipping.md",
        chunk: 0,
        text: expect.stringContaining("Shiraz"),
        score: expect.any(Number)
      }])
      const score = pick(reply.json, "data", "sources", 0, "score")
      expect(typeof score === "number" && score > 0 && score <= 1).toBe(true)
      const text = pickString(reply.json, "data", "text")
      expect(text).toContain("Shiraz")
      expect(text).toContain("shipping.md")
      expect(pickString(reply.json, "data", "conversationId")).toMatch(/^conv_/)
      expect(pick(reply.json, "data", "quota")).toMatchObject({ turn: { model: "dastyar-local" } })
    }))

  it.effect("an unrelated question gets no sources and an honest I don't know, in the user's language", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* withKnowledge()
      const english = yield* chat(key, assistantId, { principal: "p", message: "Who painted the Mona Lisa?" })
      expect(pick(english.json, "data", "sources")).toEqual([])
      expect(pickString(english.json, "data", "text")).toMatch(/^I don't know/)
      const persian = yield* chat(key, assistantId, { principal: "p", message: "نقاش مونالیزا چه کسی بود؟" })
      expect(pick(persian.json, "data", "sources")).toEqual([])
      expect(pickString(persian.json, "data", "text")).toMatch(/^نمی‌دانم/)
    }))

  it.effect("a conversation continues with its id; the provider receives the earlier messages", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      provider.reset()
      const { assistantId, key } = yield* withKnowledge({ model: "acme-chat", productSearch: false })
      const first = yield* chat(key, assistantId, { principal: "c-7", message: "Do you ship to Shiraz?" })
      expect(first.status).toBe(200)
      expect(pick(first.json, "data")).toMatchObject({ text: defaultText, model: "acme-chat", degraded: false })
      const conversationId = pickString(first.json, "data", "conversationId")
      provider.queue({ kind: "text", text: "Three to five working days." })
      const second = yield* chat(key, assistantId, {
        principal: "c-7",
        message: "How long does it take?",
        conversationId
      })
      expect(second.status).toBe(200)
      expect(pick(second.json, "data", "conversationId")).toBe(conversationId)
      expect(pick(second.json, "data", "text")).toBe("Three to five working days.")
      const sent = provider.requests[1]?.messages
      expect(sent).toMatchObject([
        { role: "system" },
        { role: "user", content: "Do you ship to Shiraz?" },
        { role: "assistant", content: defaultText },
        { role: "user", content: "How long does it take?" }
      ])
      // The short follow-up was searched with the question before it, so the shipping passage is in the prompt.
      expect(JSON.stringify(sent)).toContain("three to five working days by Post")
      expect(provider.requests[1]?.model).toBe("acme-chat-1")
      const stored = yield* sql`SELECT role FROM chat_messages WHERE conversation_id = ${conversationId} ORDER BY id`
      expect(stored.map((row) => Reflect.get(row, "role"))).toEqual(["user", "assistant", "user", "assistant"])
    }))

  it.effect("the offline model reads a follow-up with the question before it, and cites nothing when it declines", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* withKnowledge()
      const first = yield* chat(key, assistantId, { principal: "f-1", message: "When do orders leave the warehouse?" })
      expect(pickString(first.json, "data", "text")).toContain("within one working day")
      const conversationId = pickString(first.json, "data", "conversationId")
      const followUp = yield* chat(key, assistantId, {
        principal: "f-1",
        message: "And how many days until it reaches Shiraz?",
        conversationId
      })
      expect(pickString(followUp.json, "data", "text")).toContain("three to five working days")
      const unrelated = yield* chat(key, assistantId, {
        principal: "f-1",
        message: "Do you repair bicycles?",
        conversationId
      })
      expect(pickString(unrelated.json, "data", "text")).toMatch(/^I don't know/)
      expect(pick(unrelated.json, "data", "sources")).toEqual([])
    }))

  it.effect("a conversation of another principal, assistant or account is 404 chat.conversation_not_found", () =>
    Effect.gen(function*() {
      const mine = yield* setupAccount()
      const first = yield* chat(mine.key, mine.assistantId, { principal: "alice", message: "Hello" })
      const conversationId = pickString(first.json, "data", "conversationId")
      const otherPrincipal = yield* chat(mine.key, mine.assistantId, {
        principal: "bob",
        message: "Hi",
        conversationId
      })
      expect(otherPrincipal.status).toBe(404)
      expect(otherPrincipal.json).toMatchObject({
        data: null,
        response: { status: "not_found", code: "chat.conversation_not_found" }
      })
      const second = yield* admin("POST", `/accounts/${mine.accountId}/assistants`, { name: "Second" })
      const secondId = pickString(second.json, "data", "id")
      yield* Effect.sleep("300 millis")
      const otherAssistant = yield* chat(mine.key, secondId, { principal: "alice", message: "Hi", conversationId })
      expect(pick(otherAssistant.json, "response", "code")).toBe("chat.conversation_not_found")
      const other = yield* setupAccount()
      const otherAccount = yield* chat(other.key, other.assistantId, {
        principal: "alice",
        message: "Hi",
        conversationId
      })
      expect(pick(otherAccount.json, "response", "code")).toBe("chat.conversation_not_found")
      const unknown = yield* chat(mine.key, mine.assistantId, {
        principal: "alice",
        message: "Hi",
        conversationId: "conv_x"
      })
      expect(unknown.status).toBe(404)
      // Someone else's assistant is not found at all.
      const foreign = yield* chat(other.key, mine.assistantId, { principal: "alice", message: "Hi" })
      expect(foreign.status).toBe(404)
      expect(pick(foreign.json, "response", "code")).toBe("chat.assistant_not_found")
    }))

  it.effect("the provider calls the product-search tool; the products come back as data.products", () =>
    Effect.gen(function*() {
      provider.reset()
      const { assistantId, key } = yield* setupAccount({ assistant: { model: "acme-chat" } })
      yield* putProduct(key, assistantId, "sku-teapot", {
        title: "Ceramic teapot, 1 l",
        category: "Kitchen",
        price: 890000,
        currency: "IRR",
        url: "https://shop.example.com/p/teapot",
        imageUrl: "https://shop.example.com/img/teapot.jpg"
      })
      yield* putProduct(key, assistantId, "sku-towel", { title: "Cotton beach towel", category: "Bath", price: 300000 })
      provider.queue(
        { kind: "tool", name: "search_products", arguments: { query: "teapot", maxPrice: 1000000 } },
        { kind: "text", text: "We have the Ceramic teapot, 1 l for 890,000 IRR." }
      )
      const reply = yield* chat(key, assistantId, { principal: "p", message: "Do you sell teapots under a million?" })
      expect(reply.status).toBe(200)
      expect(pick(reply.json, "data", "text")).toBe("We have the Ceramic teapot, 1 l for 890,000 IRR.")
      const products = pick(reply.json, "data", "products")
      expect(products).toMatchObject([{
        externalId: "sku-teapot",
        title: "Ceramic teapot, 1 l",
        price: 890000,
        currency: "IRR",
        url: "https://shop.example.com/p/teapot",
        imageUrl: "https://shop.example.com/img/teapot.jpg"
      }])
      const [offered, answered] = provider.requests
      expect(pick(offered, "tools", 0, "function", "name")).toBe("search_products")
      const toolMessage = pick(answered, "messages", 3)
      expect(toolMessage).toMatchObject({ role: "tool", tool_call_id: "call_1" })
      expect(pickString(toolMessage, "content")).toContain("Ceramic teapot")
      expect(pickString(toolMessage, "content")).not.toContain("beach towel")
    }))

  it.effect("the offline model uses the product tool too, showing matching products with price and link", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      yield* putProduct(key, assistantId, "sku-teapot", {
        title: "Ceramic teapot, 1 l",
        price: 890000,
        currency: "IRR",
        url: "https://shop.example.com/p/teapot"
      })
      const reply = yield* chat(key, assistantId, { principal: "p", message: "Do you have a ceramic teapot?" })
      expect(pick(reply.json, "data", "products", 0, "externalId")).toBe("sku-teapot")
      expect(pickString(reply.json, "data", "text")).toContain(
        "Ceramic teapot, 1 l — 890,000 IRR — https://shop.example.com/p/teapot"
      )
      const off = yield* admin("PATCH", `/assistants/${assistantId}`, { productSearch: false })
      expect(off.status).toBe(200)
      const without = yield* chat(key, assistantId, { principal: "p", message: "Do you have a ceramic teapot?" })
      expect(pick(without.json, "data", "products")).toEqual([])
    }))

  it.effect("a price bound in the question filters the product tool, offline and with a provider, in both languages", () =>
    Effect.gen(function*() {
      provider.reset()
      const { assistantId, key } = yield* setupAccount()
      yield* putProduct(key, assistantId, "sku-cheap", {
        title: "Red kettle, steel / کتری قرمز استیل",
        price: 890000,
        currency: "IRT"
      })
      yield* putProduct(key, assistantId, "sku-dear", {
        title: "Red kettle, glass / کتری قرمز شیشه‌ای",
        price: 1650000,
        currency: "IRT"
      })
      const offered = (reply: { readonly json: unknown }) => {
        const products = pick(reply.json, "data", "products")
        return Array.isArray(products) ? products.map((product) => pick(product, "externalId")) : []
      }
      const english = yield* chat(key, assistantId, { principal: "p", message: "A red kettle under 1 million toman?" })
      expect(offered(english)).toEqual(["sku-cheap"])
      const persian = yield* chat(key, assistantId, { principal: "p", message: "کتری قرمز زیر ۱ میلیون تومان دارید؟" })
      expect(offered(persian)).toEqual(["sku-cheap"])
      const floor = yield* chat(key, assistantId, { principal: "p", message: "کتری قرمز بالای ۱٬۰۰۰٬۰۰۰ تومان" })
      expect(offered(floor)).toEqual(["sku-dear"])
      // A provider that calls the tool without the bound still gets only what the customer can afford.
      yield* admin("PATCH", `/assistants/${assistantId}`, { model: "acme-chat" })
      provider.queue(
        { kind: "tool", name: "search_products", arguments: { query: "red kettle" } },
        { kind: "text", text: "The steel one." }
      )
      const withProvider = yield* chat(key, assistantId, {
        principal: "p",
        message: "A red kettle under 1 million toman?"
      })
      expect(offered(withProvider)).toEqual(["sku-cheap"])
    }))

  it.effect("a provider 5xx or hang falls back to the offline model with degraded: true; one 429 is retried", () =>
    Effect.gen(function*() {
      provider.reset()
      const { assistantId, key } = yield* withKnowledge({ model: "acme-chat", productSearch: false })
      provider.queue({ kind: "status", status: 502 }, { kind: "status", status: 503 })
      const failing = yield* chat(key, assistantId, { principal: "p", message: "Do you ship to Shiraz?" })
      expect(failing.status).toBe(200)
      expect(pick(failing.json, "data")).toMatchObject({ degraded: true, model: "dastyar-local", reasoning: "none" })
      expect(pickString(failing.json, "data", "text")).toContain("Shiraz")
      expect(pick(failing.json, "data", "sources", 0, "path")).toBe("shipping.md")

      provider.queue({ kind: "hang" }, { kind: "hang" })
      const hanging = yield* chat(key, assistantId, { principal: "p", message: "Do you ship to Shiraz?" })
      expect(pick(hanging.json, "data")).toMatchObject({ degraded: true, model: "dastyar-local" })

      provider.reset()
      provider.queue({ kind: "status", status: 429 })
      const retried = yield* chat(key, assistantId, { principal: "p", message: "Do you ship to Shiraz?" })
      expect(pick(retried.json, "data")).toMatchObject({ degraded: false, model: "acme-chat", text: defaultText })
      expect(provider.requests).toHaveLength(2)
    }))

  it.effect("a knowledge base the store cannot read degrades the turn to no sources instead of failing it", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* withKnowledge()
      const sql = yield* SqlClient.SqlClient
      yield* sql`ALTER TABLE document_chunks RENAME TO document_chunks_away`
      const reply = yield* chat(key, assistantId, { principal: "p", message: "Do you ship to Shiraz?" }).pipe(
        Effect.ensuring(sql`ALTER TABLE document_chunks_away RENAME TO document_chunks`.pipe(Effect.orDie))
      )
      expect(reply.status).toBe(200)
      expect(pick(reply.json, "data")).toMatchObject({ degraded: true, sources: [] })
    }))

  it.effect("reasoning none on a model that always thinks runs at its lowest level, and says so", () =>
    Effect.gen(function*() {
      provider.reset()
      const { assistantId, key } = yield* setupAccount({ assistant: { model: "acme-thinker", reasoning: "none" } })
      const reply = yield* chat(key, assistantId, { principal: "p", message: "Hello" })
      expect(pick(reply.json, "data", "reasoning")).toBe("low")
      expect(provider.requests[0]?.reasoning_effort).toBe("low")
    }))

  it.effect("503 chat.model_unavailable when the assistant's model cannot run now", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { assistantId, key } = yield* setupAccount()
      yield* sql`UPDATE assistants SET model = 'acme-next' WHERE id = ${assistantId}`
      const reply = yield* chat(key, assistantId, { principal: "p", message: "Hello" })
      expect(reply.status).toBe(503)
      expect(reply.json).toMatchObject({
        data: null,
        response: { status: "service_unavailable", code: "chat.model_unavailable" }
      })
    }))

  it.effect("409 chat.assistant_not_active for an assistant that is not active", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { assistantId, key } = yield* setupAccount()
      yield* sql`UPDATE assistants SET status = 'provisioning' WHERE id = ${assistantId}`
      const reply = yield* chat(key, assistantId, { principal: "p", message: "Hello" })
      expect(reply.status).toBe(409)
      expect(pick(reply.json, "response")).toMatchObject({ status: "conflict", code: "chat.assistant_not_active" })
    }))

  it.effect("voice notes: 400 chat.voice_disabled unless acceptVoice; otherwise transcribed and answered", () =>
    Effect.gen(function*() {
      const voice = oggVoice
      const off = yield* withKnowledge()
      const refused = yield* chat(off.key, off.assistantId, {
        principal: "p",
        message: "(voice)",
        attachments: [voice]
      })
      expect(refused.status).toBe(400)
      expect(pick(refused.json, "response", "code")).toBe("chat.voice_disabled")

      const on = yield* withKnowledge({ acceptVoice: true })
      const heard = yield* chat(on.key, on.assistantId, { principal: "p", message: " ", attachments: [voice] })
      expect(heard.status).toBe(200)
      expect(pickString(heard.json, "data", "text")).toContain("Shiraz")

      // Audio by its header that the provider cannot decode: the request's fault, not an outage.
      const wav = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WAVEfmt "), Buffer.alloc(32)])
      const undecodable = yield* chat(on.key, on.assistantId, {
        principal: "p",
        message: " ",
        attachments: [{ kind: "voice", data: wav.toString("base64"), mimeType: "audio/wav" }]
      })
      expect(undecodable.status).toBe(400)
      expect(pick(undecodable.json, "response", "code")).toBe("chat.attachment_invalid")

      const notAnImage = { kind: "image", data: Buffer.from("just text, not a picture").toString("base64") }
      const invalid = yield* chat(on.key, on.assistantId, {
        principal: "p",
        message: "Look",
        attachments: [notAnImage]
      })
      expect(invalid.status).toBe(400)
      expect(pick(invalid.json, "response", "code")).toBe("chat.attachment_invalid")

      const badBase64 = yield* chat(on.key, on.assistantId, {
        principal: "p",
        message: "Look",
        attachments: [{ kind: "image", data: "not base64!" }]
      })
      expect(badBase64.status).toBe(400)
      expect(pick(badBase64.json, "fields", 0)).toEqual({
        property: "attachments.0.data",
        constraints: ["must be base64-encoded data"]
      })
    }))

  it.effect("402 chat.quota_exhausted once the plan's monthly tokens are spent; the ledger counts every turn", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { accountId, assistantId, key } = yield* setupAccount({ plan: "tiny" })
      const first = yield* chat(key, assistantId, { principal: "p", message: "Hello" })
      expect(first.status).toBe(200)
      expect(pick(first.json, "data", "quota")).toMatchObject({ allowanceTokens: 1, remainingTokens: 0 })
      const second = yield* chat(key, assistantId, { principal: "p", message: "Hello again" })
      expect(second.status).toBe(402)
      expect(second.json).toMatchObject({
        data: null,
        response: { status: "payment_required", code: "chat.quota_exhausted" }
      })
      const ledger =
        yield* sql`SELECT model, prompt_tokens, completion_tokens FROM cost_ledger WHERE account_id = ${accountId}`
      expect(ledger).toHaveLength(1)
      expect(ledger[0]).toMatchObject({ model: "dastyar-local" })
    }))

  it.effect("stream: true answers with delta events and one done event carrying the reply", () =>
    Effect.gen(function*() {
      provider.reset()
      const { assistantId, key } = yield* withKnowledge({ model: "acme-chat", productSearch: false })
      provider.queue({ kind: "text", text: "We ship to Shiraz in three to five days." })
      const reply = yield* chat(key, assistantId, { principal: "p", message: "Do you ship to Shiraz?", stream: true })
      expect(reply.status).toBe(200)
      expect(reply.headers["content-type"]).toContain("text/event-stream")
      expect(reply.headers["x-ratelimit-limit"]).toBeDefined()
      const events = parseEvents(reply.text)
      const deltas = events.filter((event) => event.event === "delta")
      expect(deltas.length).toBeGreaterThanOrEqual(3)
      expect(events.at(-1)?.event).toBe("done")
      expect(events.filter((event) => event.event === "done")).toHaveLength(1)
      const done = events.at(-1)?.data
      const streamed = deltas.map((event) => pickString(event.data, "text")).join("")
      expect(streamed).toBe("We ship to Shiraz in three to five days.")
      expect(done).toMatchObject({ text: streamed, model: "acme-chat", degraded: false, products: [] })
      expect(pick(done, "sources", 0, "path")).toBe("shipping.md")
      expect(provider.requests[0]).toMatchObject({ stream: true, stream_options: { include_usage: true } })

      // The same turn continued without streaming: the streamed one was stored like any other.
      const conversationId = pickString(done, "conversationId")
      const next = yield* chat(key, assistantId, { principal: "p", message: "Thanks", conversationId })
      expect(next.status).toBe(200)
    }))

  it.effect("a streamed tool call and a streamed fallback keep the framing", () =>
    Effect.gen(function*() {
      provider.reset()
      const { assistantId, key } = yield* withKnowledge({ model: "acme-chat" })
      yield* putProduct(key, assistantId, "sku-teapot", {
        title: "Ceramic teapot, 1 l",
        price: 890000,
        currency: "IRR"
      })
      provider.queue(
        { kind: "tool", name: "search_products", arguments: { query: "teapot" } },
        { kind: "text", text: "The Ceramic teapot costs 890,000 IRR." }
      )
      const withTool = yield* chat(key, assistantId, { principal: "p", message: "Teapots?", stream: true })
      const toolEvents = parseEvents(withTool.text)
      expect(toolEvents.at(-1)).toMatchObject({
        event: "done",
        data: { text: "The Ceramic teapot costs 890,000 IRR.", products: [{ externalId: "sku-teapot" }] }
      })

      provider.queue({ kind: "status", status: 500 }, { kind: "status", status: 500 })
      const fallback = yield* chat(key, assistantId, {
        principal: "p",
        message: "Do you ship to Shiraz?",
        stream: true
      })
      const events = parseEvents(fallback.text)
      const done = events.at(-1)
      expect(done).toMatchObject({ event: "done", data: { degraded: true, model: "dastyar-local" } })
      const streamed = events.filter((event) => event.event === "delta").map((event) => pickString(event.data, "text"))
        .join("")
      expect(streamed).toBe(pickString(done?.data, "text"))
      expect(streamed).toContain("Shiraz")
    }))

  it.effect("errors found before answering keep the JSON envelope even with stream: true; bad input is a 400", () =>
    Effect.gen(function*() {
      const { key } = yield* setupAccount()
      const missing = yield* chat(key, "ast_missing", { principal: "p", message: "Hi", stream: true })
      expect(missing.status).toBe(404)
      expect(missing.headers["content-type"]).toContain("application/json")
      expect(pick(missing.json, "response", "code")).toBe("chat.assistant_not_found")
      const invalid = yield* call("POST", "/v1/assistants/ast_missing/chat", { token: key, body: { principal: "" } })
      expect(invalid.status).toBe(400)
      expect(pick(invalid.json, "fields")).toEqual([
        { property: "principal", constraints: ["must be at least 1 character long"] },
        { property: "message", constraints: ["is required"] }
      ])
    }))
})

layer(TestApp(), { excludeTestServices: true })("chat without a transcription provider", (it) => {
  it.effect("a voice note is 400 chat.voice_disabled even with acceptVoice: retrying would never help", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount({ assistant: { acceptVoice: true } })
      const reply = yield* chat(key, assistantId, { principal: "p", message: " ", attachments: [oggVoice] })
      expect(reply.status).toBe(400)
      expect(pick(reply.json, "response", "code")).toBe("chat.voice_disabled")
    }))
})
