import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { admin, call, pickString, setupAccount, TestApp } from "../support/TestApp"

layer(TestApp(), { excludeTestServices: true })("API key authentication", (it) => {
  it.effect("every failure is the same byte-identical 401", () =>
    Effect.gen(function*() {
      const revoked = yield* setupAccount()
      yield* admin("DELETE", `/keys/${revoked.keyId}`)
      const deleted = yield* setupAccount()
      yield* admin("DELETE", `/accounts/${deleted.accountId}`)

      const attempts = yield* Effect.all([
        call("GET", "/v1/assistants"),
        call("GET", "/v1/assistants", { headers: { authorization: "Basic abc" } }),
        call("GET", "/v1/assistants", { token: "not-a-key" }),
        call("GET", "/v1/assistants", { token: `dsk_${"A".repeat(43)}` }),
        call("GET", "/v1/assistants", { token: revoked.key }),
        call("GET", "/v1/assistants", { token: deleted.key })
      ])
      const expected = JSON.stringify({
        data: null,
        response: { status: "bad_request", message: "Invalid or revoked API key", code: "api_key.invalid" }
      })
      for (const attempt of attempts) {
        expect(attempt.status).toBe(401)
        expect(attempt.text).toBe(expected)
        expect(attempt.headers["x-ratelimit-limit"]).toBeUndefined()
      }
    }))

  it.effect("the 401 message is translated", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v1/models", { headers: { "accept-language": "fa" } })
      expect(reply.status).toBe(401)
      expect(reply.json).toEqual({
        data: null,
        response: { status: "bad_request", message: "کلید API نامعتبر است یا باطل شده است", code: "api_key.invalid" }
      })
    }))

  it.effect("a revoked key stops working at once, other keys of the account keep working", () =>
    Effect.gen(function*() {
      const { accountId, key, keyId } = yield* setupAccount()
      const second = yield* admin("POST", `/accounts/${accountId}/keys`, {})
      expect(second.status).toBe(201)
      expect((yield* call("GET", "/v1/assistants", { token: key })).status).toBe(200)
      const revoke = yield* admin("DELETE", `/keys/${keyId}`)
      expect(revoke.status).toBe(200)
      expect(revoke.json).toMatchObject({ data: null, response: { status: "success" } })
      expect((yield* call("GET", "/v1/assistants", { token: key })).status).toBe(401)
      expect((yield* call("GET", "/v1/assistants", { token: pickString(second.json, "data", "key") })).status).toBe(200)
      expect((yield* admin("DELETE", `/keys/${keyId}`)).status).toBe(404)
    }))

  it.effect("keys are stored only as a hash", () =>
    Effect.gen(function*() {
      const { key } = yield* setupAccount()
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly stored: number; readonly hashed: number }>`
        SELECT count(*) FILTER (WHERE position(${key}::bytea IN secret_hash) > 0)::int AS stored,
               count(*) FILTER (WHERE secret_hash = sha256(${key}::bytea))::int AS hashed
        FROM api_keys`
      expect(rows[0]).toEqual({ stored: 0, hashed: 1 })
    }))

  it.effect("the operator API needs the operator token", () =>
    Effect.gen(function*() {
      const none = yield* call("POST", "/admin/v1/accounts", { body: { name: "x" } })
      expect(none.status).toBe(401)
      expect(none.json).toMatchObject({ data: null, response: { code: "admin_token.invalid", status: "bad_request" } })
      const { key } = yield* setupAccount()
      const withApiKey = yield* call("POST", "/admin/v1/accounts", { token: key, body: { name: "x" } })
      expect(withApiKey.status).toBe(401)
    }))
})
