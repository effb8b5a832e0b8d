import { describe, expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { adminToken, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"

layer(TestApp(), { excludeTestServices: true })("envelope, validation and routing", (it) => {
  it.effect("wraps success in {data, response} with a translated message", () =>
    Effect.gen(function*() {
      const { key } = yield* setupAccount()
      const en = yield* call("GET", "/v1/assistants", { token: key })
      expect(en.status).toBe(200)
      expect(en.json).toMatchObject({ data: { count: 1 }, response: { status: "success", message: "Success" } })
      const fa = yield* call("GET", "/v1/assistants", {
        token: key,
        headers: { "accept-language": "fa-IR,fa;q=0.9,en;q=0.5" }
      })
      expect(pick(fa.json, "response", "message")).toBe("موفق")
    }))

  it.effect("unknown routes are 404 in the envelope", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v1/nothing-here")
      expect(reply.status).toBe(404)
      expect(reply.json).toEqual({
        data: null,
        response: { status: "not_found", message: "No such route", code: "route.not_found" }
      })
    }))

  it.effect("validation errors list every invalid field with translated constraints, and no code", () =>
    Effect.gen(function*() {
      const { accountId } = yield* setupAccount()
      const body = { name: "", model: 5, ragK: 0, personality: "grumpy" }
      const reply = yield* call("POST", `/admin/v1/accounts/${accountId}/assistants`, {
        token: adminToken,
        body
      })
      expect(reply.status).toBe(400)
      expect(reply.json).toEqual({
        data: null,
        response: { status: "bad_request", message: "Validation failed" },
        fields: [
          { property: "name", constraints: ["must be at least 1 character long"] },
          { property: "model", constraints: ["must be a string"] },
          {
            property: "personality",
            constraints: ["must be one of: friendly, professional, playful, technical, formal, custom"]
          },
          { property: "ragK", constraints: ["must be 1 or more"] }
        ]
      })
      const fa = yield* call("POST", `/admin/v1/accounts/${accountId}/assistants`, {
        token: adminToken,
        body: {},
        headers: { "accept-language": "fa" }
      })
      expect(fa.json).toEqual({
        data: null,
        response: { status: "bad_request", message: "اعتبارسنجی ناموفق بود" },
        fields: [{ property: "name", constraints: ["الزامی است"] }]
      })
    }))

  it.effect("malformed JSON and wrong content types are 400s in the envelope", () =>
    Effect.gen(function*() {
      const { key, assistantId } = yield* setupAccount()
      const broken = yield* call("POST", `/v1/assistants/${assistantId}/chat`, {
        token: key,
        rawBody: { contentType: "application/json", text: "{\"principal\": " }
      })
      expect(broken.status).toBe(400)
      expect(pick(broken.json, "response", "code")).toBe("request.malformed_json")
      const wrongType = yield* call("POST", `/v1/assistants/${assistantId}/chat`, {
        token: key,
        rawBody: { contentType: "text/plain", text: "hello" }
      })
      expect(wrongType.status).toBe(400)
      expect(pick(wrongType.json, "response")).toMatchObject({
        status: "bad_request",
        code: "request.unsupported_content_type"
      })
    }))

  it.effect("multipart is accepted only where the domain declares a multipart payload; deep nesting is a 400", () =>
    Effect.gen(function*() {
      const multipart = yield* call("POST", "/admin/v1/accounts", {
        token: adminToken,
        rawBody: {
          contentType: "multipart/form-data; boundary=b",
          text: "--b\r\ncontent-disposition: form-data; name=\"name\"\r\n\r\nx\r\n--b--\r\n"
        }
      })
      expect(multipart.status).toBe(400)
      expect(pick(multipart.json, "response", "code")).toBe("request.unsupported_content_type")
      const { key, assistantId } = yield* setupAccount()
      const upload = yield* call("POST", `/v1/assistants/${assistantId}/documents`, {
        token: key,
        rawBody: {
          contentType: "multipart/form-data; boundary=b",
          text: "--b\r\ncontent-disposition: form-data; name=\"files\"; filename=\"a.txt\"\r\n\r\nhello\r\n--b--\r\n"
        }
      })
      // Accepted as multipart: the upload queues an ingest job.
      expect(upload.status).toBe(202)
      const deep = yield* call("POST", "/admin/v1/accounts", {
        token: adminToken,
        rawBody: { contentType: "application/json", text: "[".repeat(5000) + "]".repeat(5000) }
      })
      expect(deep.status).toBe(400)
      expect(pick(deep.json, "response", "code")).toBe("request.too_deep")
    }))

  it.effect("bodies over 10 MB are refused with 413 in the envelope, before parsing", () =>
    Effect.gen(function*() {
      const reply = yield* call("POST", "/admin/v1/accounts", {
        token: adminToken,
        rawBody: { contentType: "application/json", text: JSON.stringify({ name: "x".repeat(10 * 1024 * 1024) }) }
      })
      expect(reply.status).toBe(413)
      expect(reply.json).toMatchObject({
        data: null,
        response: { status: "bad_request", code: "request.payload_too_large" }
      })
    }))

  it.effect("another account's assistant is 404 assistants.not_found (chat: chat.assistant_not_found)", () =>
    Effect.gen(function*() {
      const mine = yield* setupAccount()
      const theirs = yield* setupAccount()
      const product = yield* call("GET", `/v1/assistants/${theirs.assistantId}/products/sku-1`, { token: mine.key })
      expect(product.status).toBe(404)
      expect(product.json).toEqual({
        data: null,
        response: { status: "not_found", message: "Assistant not found", code: "assistants.not_found" }
      })
      const docs = yield* call("GET", `/v1/assistants/${theirs.assistantId}/documents/jobs/j1`, { token: mine.key })
      expect(pick(docs.json, "response", "code")).toBe("assistants.not_found")
      const chat = yield* call("POST", `/v1/assistants/${theirs.assistantId}/chat`, {
        token: mine.key,
        body: { principal: "u1", message: "hi" }
      })
      expect(chat.status).toBe(404)
      expect(pick(chat.json, "response", "code")).toBe("chat.assistant_not_found")
    }))

  it.effect("serves the OpenAPI document and a reference page", () =>
    Effect.gen(function*() {
      const document = yield* call("GET", "/v1/openapi.json")
      expect(document.status).toBe(200)
      expect(pick(document.json, "info", "title")).toBe("Dastyar API")
      expect(pick(document.json, "paths", "/v1/assistants", "get", "security")).toEqual([{ bearer: [] }])
      expect(document.text).not.toContain("HttpApiDecodeError")
      const docs = yield* call("GET", "/docs")
      expect(docs.status).toBe(200)
      expect(docs.headers["content-type"]).toContain("text/html")
      expect(docs.text).toContain("preferredSecurityScheme")
      // Tags are display names, one per group: no camelCase, no two differing only in case.
      const tags = pick(document.json, "tags")
      const names = Array.isArray(tags) ? tags.map((tag) => pickString(tag, "name")) : []
      expect(names).toContain("Language models")
      expect(names.filter((name) => /[a-z][A-Z]/.test(name))).toEqual([])
      expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(names.length)
    }))

  it.effect("health is always up; ready once the database is migrated", () =>
    Effect.gen(function*() {
      const health = yield* call("GET", "/health")
      expect(health.status).toBe(200)
      expect(pick(health.json, "data", "status")).toBe("up")
      const ready = yield* call("GET", "/ready")
      expect(ready.status).toBe(200)
      expect(pick(ready.json, "data", "status")).toBe("ready")
    }))
})

describe("language negotiation", () => {
  it("picks the best supported language from Accept-Language", async () => {
    const { I18n } = await import("@dastyar/domain")
    expect(I18n.negotiate(undefined)).toBe("en")
    expect(I18n.negotiate("de-DE, fa;q=0.8, en;q=0.7")).toBe("fa")
    expect(I18n.negotiate("en;q=0.2, fa;q=0.9")).toBe("fa")
    expect(I18n.negotiate("de, fr")).toBe("en")
  })
})

const it = (await import("@effect/vitest")).it
