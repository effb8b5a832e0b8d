/**
 * A shop owner puts its assistant on its own website with its API key: it
 * creates, lists, changes and deletes its web connections and previews the
 * widget, without the operator. Another account's assistant or connection is
 * 404, and messenger connections stay the operator's.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { writeCatalog } from "../Chat/support/ChatSetup"
import { admin, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"

const shop = "https://shop.example"

const owner = (method: "GET" | "POST" | "PATCH" | "DELETE", key: string, url: string, body?: unknown) =>
  call(method, `/v1${url}`, { token: key, ...(body === undefined ? {} : { body }) })

const browserConfig = (code: string, origin = shop) =>
  call("GET", `/v1/web/${code}/config`, { headers: { origin, "x-forwarded-for": "203.0.113.9" } })

layer(
  TestApp({
    DASTYAR_PUBLIC_URL: "https://assist.example.com/",
    DASTYAR_SECRET_KEY: "ab".repeat(32),
    DASTYAR_TRUST_PROXY: "1",
    DASTYAR_CONFIG: writeCatalog("http://127.0.0.1:9")
  }),
  { excludeTestServices: true, timeout: 120_000 }
)("the shop owner's web connections", (it) => {
  it.effect("a key holder creates a web connection and gets the snippet to paste", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const created = yield* owner("POST", key, `/assistants/${assistantId}/web-connections`, {
        allowedOrigins: ["https://Shop.Example/"],
        title: "Tea shop",
        defaultLanguage: "fa"
      })
      expect(created.status).toBe(201)
      const code = pickString(created.json, "data", "connectionCode")
      expect(pick(created.json, "data", "driver")).toBe("web")
      expect(pick(created.json, "data", "embedSnippet")).toBe(
        `<script src="https://assist.example.com/widget.js" data-connection="${code}" async></script>`
      )
      expect(pick(created.json, "data", "web", "allowedOrigins")).toEqual([shop])
      expect(pickString(created.json, "data", "connectionSecret").length).toBeGreaterThanOrEqual(32)

      const config = yield* browserConfig(code)
      expect(config.status).toBe(200)
      expect(pick(config.json, "data")).toMatchObject({ title: "Tea shop", defaultLanguage: "fa" })

      // The operator sees the same connection.
      const listed = yield* admin("GET", `/assistants/${assistantId}/connections`)
      expect(pick(listed.json, "data", "list", 0, "connectionCode")).toBe(code)
    }))

  it.effect("the owner lists only web connections, changes settings and deletes one", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const webhook = yield* admin("POST", `/assistants/${assistantId}/connections`, {
        driver: "webhook",
        callbackUrl: "https://93.184.216.34/answers",
        secret: "s".repeat(32)
      })
      const created = yield* owner("POST", key, `/assistants/${assistantId}/web-connections`, {
        allowedOrigins: [shop]
      })
      const code = pickString(created.json, "data", "connectionCode")

      const list = yield* owner("GET", key, `/assistants/${assistantId}/web-connections`)
      expect(list.status).toBe(200)
      expect(pick(list.json, "data", "count")).toBe(1)
      expect(pick(list.json, "data", "list", 0, "connectionCode")).toBe(code)
      expect(list.text).not.toContain("connectionSecret")

      const changed = yield* owner("PATCH", key, `/assistants/${assistantId}/web-connections/${code}`, {
        greeting: "Salam!",
        allowedOrigins: ["https://other.example"]
      })
      expect(changed.status).toBe(200)
      expect(pick(changed.json, "data", "web", "greeting")).toBe("Salam!")
      expect((yield* browserConfig(code)).status).toBe(403)
      expect((yield* browserConfig(code, "https://other.example")).status).toBe(200)

      const preview = yield* owner("POST", key, `/assistants/${assistantId}/web-connections/${code}/preview`, {
        origin: "http://localhost:5173"
      })
      expect(preview.status).toBe(200)
      expect(typeof pick(preview.json, "data", "previewToken")).toBe("string")

      // A messenger connection is not the owner's to change or delete.
      expect(webhook.status).toBe(201)
      const other = pickString(webhook.json, "data", "connectionCode")
      expect((yield* owner("PATCH", key, `/assistants/${assistantId}/web-connections/${other}`, { title: "x" })).status)
        .toBe(404)
      expect((yield* owner("DELETE", key, `/assistants/${assistantId}/web-connections/${other}`)).status).toBe(404)

      expect((yield* owner("DELETE", key, `/assistants/${assistantId}/web-connections/${code}`)).status).toBe(200)
      expect((yield* browserConfig(code, "https://other.example")).status).toBe(404)
      expect(pick((yield* owner("GET", key, `/assistants/${assistantId}/web-connections`)).json, "data", "count"))
        .toBe(0)
    }))

  it.effect("another account's assistant or connection is 404; no key is 401", () =>
    Effect.gen(function*() {
      const mine = yield* setupAccount()
      const theirs = yield* setupAccount()
      const created = yield* owner("POST", theirs.key, `/assistants/${theirs.assistantId}/web-connections`, {
        allowedOrigins: [shop]
      })
      const code = pickString(created.json, "data", "connectionCode")

      const base = `/assistants/${theirs.assistantId}/web-connections`
      expect((yield* owner("POST", mine.key, base, { allowedOrigins: [shop] })).status).toBe(404)
      expect((yield* owner("GET", mine.key, base)).status).toBe(404)
      expect((yield* owner("PATCH", mine.key, `${base}/${code}`, { title: "Mine now" })).status).toBe(404)
      expect((yield* owner("DELETE", mine.key, `${base}/${code}`)).status).toBe(404)
      // Their connection under my own assistant is not found either.
      const underMine = `/assistants/${mine.assistantId}/web-connections/${code}`
      expect((yield* owner("PATCH", mine.key, underMine, { title: "Mine now" })).status).toBe(404)
      expect((yield* owner("DELETE", mine.key, underMine)).status).toBe(404)
      expect((yield* owner("POST", mine.key, `${underMine}/preview`, { origin: "http://localhost:5173" })).status)
        .toBe(404)
      expect((yield* browserConfig(code)).status).toBe(200)
      expect((yield* call("GET", `/v1${base}`)).status).toBe(401)
    }))

  it.effect("a bad origin or an empty list is 400, and nothing is created", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const base = `/assistants/${assistantId}/web-connections`
      expect((yield* owner("POST", key, base, { allowedOrigins: [] })).status).toBe(400)
      expect((yield* owner("POST", key, base, { allowedOrigins: ["https://shop.example/path"] })).status).toBe(400)
      expect((yield* owner("POST", key, base, { driver: "telegram", botToken: "1:x" })).status).toBe(400)
      expect(pick((yield* owner("GET", key, base)).json, "data", "count")).toBe(0)
    }))
})
