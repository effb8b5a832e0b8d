/**
 * The website widget's browser routes: only the connection's own sites may use
 * them, each visitor and each connection has its own conversation, a signed-in
 * customer's follows them, and abuse is refused before any turn runs.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createHmac } from "node:crypto"
import { writeCatalog } from "../Chat/support/ChatSetup"
import { admin, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"

const shop = "https://shop.example"

/** A web connection of a new assistant; `options` override the defaults. */
const webConnection = (options: Record<string, unknown> = {}, plan?: string) =>
  Effect.gen(function*() {
    const { assistantId } = yield* setupAccount(plan === undefined ? {} : { plan })
    const created = yield* admin("POST", `/assistants/${assistantId}/connections`, {
      driver: "web",
      allowedOrigins: [shop],
      ...options
    })
    expect(created.status).toBe(201)
    return {
      assistantId,
      code: pickString(created.json, "data", "connectionCode"),
      secret: pickString(created.json, "data", "connectionSecret"),
      created
    }
  })

interface BrowserCall {
  readonly origin?: string | undefined
  readonly visitor?: string | undefined
  readonly ip?: string
  readonly body?: unknown
  readonly headers?: Record<string, string>
}

/** A request as the widget makes it: the page's `Origin`, the visitor header, the client behind the proxy. */
const browser = (method: "GET" | "POST", url: string, options: BrowserCall = {}) =>
  call(method, `/v1/web${url}`, {
    headers: {
      ...(options.origin === undefined ? {} : { origin: options.origin }),
      ...(options.visitor === undefined ? {} : { "x-dastyar-visitor": options.visitor }),
      "x-forwarded-for": options.ip ?? "203.0.113.1",
      ...options.headers
    },
    ...(options.body === undefined ? {} : { body: options.body })
  })

const session = (code: string, body: Record<string, unknown> = {}, origin = shop) =>
  Effect.map(browser("POST", `/${code}/session`, { origin, body }), (reply) => ({
    reply,
    token: reply.status === 200 ? pickString(reply.json, "data", "visitorToken") : ""
  }))

const ask = (code: string, visitor: string, message: string, options: BrowserCall = {}) =>
  browser("POST", `/${code}/messages`, { origin: shop, visitor, body: { message }, ...options })

const messagesOf = (code: string, visitor: string) =>
  Effect.map(browser("GET", `/${code}/messages`, { origin: shop, visitor }), (reply) => {
    expect(reply.status).toBe(200)
    const messages = pick(reply.json, "data", "messages")
    return Array.isArray(messages) ? messages.map((message) => String(pick(message, "text"))) : []
  })

const preflight = (code: string, origin: string, requestHeaders = "content-type, x-dastyar-visitor") =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const response = yield* client.execute(
      HttpClientRequest.make("OPTIONS")(`/v1/web/${code}/messages`).pipe(HttpClientRequest.setHeaders({
        origin,
        "access-control-request-method": "POST",
        "access-control-request-headers": requestHeaders
      }))
    )
    return { status: response.status, headers: response.headers }
  }).pipe(Effect.scoped, Effect.orDie)

layer(
  TestApp({
    DASTYAR_PUBLIC_URL: "https://assist.example.com/",
    DASTYAR_SECRET_KEY: "cd".repeat(32),
    DASTYAR_TRUST_PROXY: "1",
    // The built-in model, and a plan of one token a month (no provider is called).
    DASTYAR_CONFIG: writeCatalog("http://127.0.0.1:9")
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("website widget", (it) => {
  it.effect("a web connection carries its snippet and, once, its identity secret", () =>
    Effect.gen(function*() {
      const { assistantId, code, created, secret } = yield* webConnection({
        allowedOrigins: ["https://Shop.Example:443/", "http://localhost:8080"],
        title: "Tea shop",
        defaultLanguage: "fa"
      })
      expect(pick(created.json, "data", "embedSnippet")).toBe(
        `<script src="https://assist.example.com/widget.js" data-connection="${code}" async></script>`
      )
      expect(pick(created.json, "data", "web", "allowedOrigins")).toEqual([shop, "http://localhost:8080"])
      expect(secret.length).toBeGreaterThanOrEqual(32)
      const listed = yield* admin("GET", `/assistants/${assistantId}/connections`)
      expect(listed.text).not.toContain(secret)
      expect(pick(listed.json, "data", "list", 0, "web", "title")).toBe("Tea shop")

      const config = yield* browser("GET", `/${code}/config`, { origin: shop })
      expect(config.status).toBe(200)
      expect(config.headers["access-control-allow-origin"]).toBe(shop)
      expect(pick(config.json, "data")).toMatchObject({ title: "Tea shop", defaultLanguage: "fa", showProducts: true })

      const changed = yield* admin("PATCH", `/assistants/${assistantId}/connections/${code}/web`, {
        greeting: "Salam!",
        allowedOrigins: ["https://other.example"]
      })
      expect(changed.status).toBe(200)
      expect(pick(changed.json, "data", "web", "greeting")).toBe("Salam!")
      expect((yield* browser("GET", `/${code}/config`, { origin: shop })).status).toBe(403)
    }))

  it.effect("a missing or forged Origin is refused with 403 and no turn runs", () =>
    Effect.gen(function*() {
      const { code } = yield* webConnection()
      const { token } = yield* session(code)
      for (const origin of [undefined, "https://evil.example", "https://shop.example.evil.example", "null"]) {
        const refused = yield* ask(code, token, "What do you sell?", { origin })
        expect(refused.status).toBe(403)
        expect(pick(refused.json, "response", "code")).toBe("web.origin_refused")
      }
      expect(yield* messagesOf(code, token)).toEqual([])
      // The preflight is answered per connection: the shop's origin may send JSON, another may not.
      const allowed = yield* preflight(code, shop)
      expect(allowed.status).toBe(204)
      expect(allowed.headers["access-control-allow-origin"]).toBe(shop)
      expect(allowed.headers["access-control-allow-headers"]).toContain("x-dastyar-visitor")
      const other = yield* preflight(code, "https://evil.example")
      expect(other.status).toBe(403)
      expect(other.headers["access-control-allow-origin"]).toBeUndefined()
    }))

  it.effect("a visitor's conversation continues, streams, and a new one can be started", () =>
    Effect.gen(function*() {
      const { code } = yield* webConnection()
      const { token } = yield* session(code)
      const first = yield* ask(code, token, "Hello, do you ship to Shiraz?")
      expect(first.status).toBe(200)
      expect(typeof pick(first.json, "data", "text")).toBe("string")
      expect(pick(first.json, "data", "quota")).toBeUndefined()

      const streamed = yield* browser("POST", `/${code}/messages`, {
        origin: shop,
        visitor: token,
        body: { message: "And how long does it take?", stream: true }
      })
      expect(streamed.status).toBe(200)
      expect(streamed.headers["content-type"]).toContain("text/event-stream")
      expect(streamed.text).toContain("event: delta")
      expect(streamed.text).toContain("event: done")

      // A reload: the same token continues the same conversation.
      const again = yield* session(code, { visitorToken: token })
      expect(again.token).toBe(token)
      const texts = yield* messagesOf(code, token)
      expect(texts.slice(0, 3)).toEqual([
        "Hello, do you ship to Shiraz?",
        pick(first.json, "data", "text"),
        "And how long does it take?"
      ])
      expect(texts).toHaveLength(4)

      const fresh = yield* browser("POST", `/${code}/conversations`, { origin: shop, visitor: token })
      expect(fresh.status).toBe(200)
      expect(yield* messagesOf(code, token)).toEqual([])
      expect((yield* ask(code, token, "A new question")).status).toBe(200)
      expect(yield* messagesOf(code, token)).toHaveLength(2)

      // Another browser is another visitor, with nothing of this one's.
      const other = yield* session(code)
      expect(other.token).not.toBe(token)
      expect(yield* messagesOf(code, other.token)).toEqual([])
    }))

  it.effect("a visitor token of one connection is refused on another", () =>
    Effect.gen(function*() {
      const first = yield* webConnection()
      const second = yield* webConnection()
      const { token } = yield* session(first.code)
      expect((yield* ask(first.code, token, "hi")).status).toBe(200)
      const refused = yield* ask(second.code, token, "hi")
      expect(refused.status).toBe(401)
      expect(pick(refused.json, "response", "code")).toBe("web.visitor_invalid")
      const read = yield* browser("GET", `/${second.code}/messages`, { origin: shop, visitor: token })
      expect(read.status).toBe(401)
      // Offered at the session route, it is replaced by a new visitor of that connection.
      const replaced = yield* session(second.code, { visitorToken: token })
      expect(replaced.token).not.toBe(token)
      expect(yield* messagesOf(second.code, replaced.token)).toEqual([])
      // An altered token is refused too.
      const altered = token.slice(0, -2) + (token.endsWith("AA") ? "BB" : "AA")
      expect((yield* ask(first.code, altered, "hi")).status).toBe(401)
    }))

  it.effect("a signed-in customer's conversation follows them across devices; a tampered HMAC is refused", () =>
    Effect.gen(function*() {
      const { code, secret } = yield* webConnection()
      const userHash = createHmac("sha256", secret).update("customer-42").digest("hex")
      const laptop = yield* session(code, { userId: "customer-42", userHash })
      expect(laptop.reply.status).toBe(200)
      expect((yield* ask(code, laptop.token, "Where is my order?")).status).toBe(200)

      const phone = yield* session(code, { userId: "customer-42", userHash })
      expect(phone.token).not.toBe(laptop.token)
      expect((yield* messagesOf(code, phone.token))[0]).toBe("Where is my order?")

      const tampered = (userHash[0] === "0" ? "1" : "0") + userHash.slice(1)
      const refused = yield* session(code, { userId: "customer-42", userHash: tampered })
      expect(refused.reply.status).toBe(401)
      expect(pick(refused.reply.json, "response", "code")).toBe("web.identity_invalid")
      const otherUser = yield* session(code, { userId: "customer-43", userHash })
      expect(otherUser.reply.status).toBe(401)
      const hashless = yield* session(code, { userId: "customer-42" })
      expect(hashless.reply.status).toBe(401)
      // Signed out on the laptop: the page sends no identity, and the browser becomes an anonymous visitor.
      const signedOut = yield* session(code, { visitorToken: laptop.token })
      expect(signedOut.token).not.toBe(laptop.token)
      expect(yield* messagesOf(code, signedOut.token)).toEqual([])
    }))

  it.effect("1,000 messages from one IP are limited with 429 while another IP is served", () =>
    Effect.gen(function*() {
      const { code } = yield* webConnection({ rateLimits: { perIpPerMinute: 20, perConnectionPerMinute: 5000 } })
      const { token } = yield* session(code, {}, shop)
      const replies = yield* Effect.forEach(
        Array.from({ length: 1000 }),
        () => ask(code, token, "hi", { ip: "198.51.100.7" }),
        { concurrency: 8 }
      )
      const statuses = new Map<number, number>()
      for (const reply of replies) statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1)
      const retryAfter = replies.find((reply) => reply.status === 429)?.headers["retry-after"]
      // The session took one request of the window from the default address, not this one.
      expect(statuses.get(200)).toBe(20)
      expect(statuses.get(429)).toBe(980)
      expect(retryAfter).toBe("60")
      const elsewhere = yield* ask(code, token, "hi", { ip: "198.51.100.8" })
      expect(elsewhere.status).toBe(200)
    }))

  it.effect("a body over the limit is refused with 413, a long message with 400", () =>
    Effect.gen(function*() {
      const { code } = yield* webConnection()
      const { token } = yield* session(code)
      const huge = yield* ask(code, token, "x".repeat(20_000))
      expect(huge.status).toBe(413)
      const long = yield* ask(code, token, "x".repeat(2001))
      expect(long.status).toBe(400)
      expect(yield* messagesOf(code, token)).toEqual([])
    }))

  it.effect("the console previews with a short-lived token, never added to the allowed origins", () =>
    Effect.gen(function*() {
      const { assistantId, code } = yield* webConnection()
      const consoleOrigin = "http://127.0.0.1:7300"
      const preview = yield* admin("POST", `/assistants/${assistantId}/connections/${code}/web/preview`, {
        origin: consoleOrigin
      })
      expect(preview.status).toBe(200)
      const previewToken = pickString(preview.json, "data", "previewToken")
      const withToken = { origin: consoleOrigin, headers: { "x-dastyar-preview": previewToken } }
      expect((yield* browser("GET", `/${code}/config`, withToken)).status).toBe(200)
      expect((yield* preflight(code, consoleOrigin, "content-type, x-dastyar-preview")).status).toBe(204)
      // Not for another origin, nor without the token.
      expect((yield* browser("GET", `/${code}/config`, { ...withToken, origin: "https://evil.example" })).status)
        .toBe(403)
      expect((yield* browser("GET", `/${code}/config`, { origin: consoleOrigin })).status).toBe(403)
      const listed = yield* admin("GET", `/assistants/${assistantId}/connections`)
      expect(pick(listed.json, "data", "list", 0, "web", "allowedOrigins")).toEqual([shop])
    }))

  it.effect("a spent quota is 402 on the widget's route, so the widget can say so politely", () =>
    Effect.gen(function*() {
      const { code } = yield* webConnection({}, "tiny")
      const { token } = yield* session(code)
      expect((yield* ask(code, token, "Hello")).status).toBe(200)
      const spent = yield* ask(code, token, "Hello again")
      expect(spent.status).toBe(402)
      expect(pick(spent.json, "response", "code")).toBe("chat.quota_exhausted")
      expect(spent.headers["access-control-allow-origin"]).toBe(shop)
    }))

  it.effect("a disabled or unknown connection is 404 to the browser, and its preflight is refused", () =>
    Effect.gen(function*() {
      const { assistantId, code } = yield* webConnection()
      const { token } = yield* session(code)
      const disabled = yield* admin("POST", `/assistants/${assistantId}/connections/${code}/disable`)
      expect(disabled.status).toBe(200)
      const refused = yield* ask(code, token, "hi")
      expect(refused.status).toBe(404)
      expect(pick(refused.json, "response", "code")).toBe("web.not_found")
      expect((yield* preflight(code, shop)).status).toBe(403)
      expect((yield* browser("GET", "/con_unknown/config", { origin: shop })).status).toBe(404)
      // The messenger hook does not take web connections.
      const hook = yield* call("POST", `/hooks/web/${code}`, { body: { principal: "p", message: "hi" } })
      expect(hook.status).toBe(404)
      expect((yield* admin("POST", `/assistants/${assistantId}/connections/${code}/enable`)).status).toBe(200)
      expect((yield* ask(code, token, "hi")).status).toBe(200)
    }))
})
