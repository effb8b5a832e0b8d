/** The operator's lists of an account: keys (never the secret), assistants, folders, month-to-date usage. */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { chat } from "../Chat/support/ChatSetup"
import { admin, call, pick, setupAccount, TestApp } from "../support/TestApp"

layer(TestApp(), { excludeTestServices: true })("operator account lists", (it) => {
  it.effect("keys are listed with a short prefix, last use and revocation, never the secret", () =>
    Effect.gen(function*() {
      const { accountId, key, keyId } = yield* setupAccount()
      const before = yield* admin("GET", `/accounts/${accountId}/keys`)
      expect(pick(before.json, "data", "list", 0)).toMatchObject({
        id: keyId,
        prefix: key.slice(0, 8),
        name: "test",
        lastUsedAt: null,
        revokedAt: null
      })
      expect(before.text).not.toContain(key)
      yield* call("GET", "/v1/assistants", { token: key })
      yield* call("GET", "/v1/assistants", { token: key })
      // Written in the background, with the other keys used meanwhile (`lastUsedFlushEvery`).
      let lastUsedAt: unknown = null
      for (let attempt = 0; attempt < 100 && lastUsedAt === null; attempt++) {
        if (attempt > 0) yield* Effect.sleep("100 millis")
        lastUsedAt = pick((yield* admin("GET", `/accounts/${accountId}/keys`)).json, "data", "list", 0, "lastUsedAt")
      }
      expect(lastUsedAt).toEqual(expect.any(String))
      yield* admin("DELETE", `/keys/${keyId}`)
      const revoked = yield* admin("GET", `/accounts/${accountId}/keys`)
      expect(pick(revoked.json, "data", "list", 0, "revokedAt")).toEqual(expect.any(String))
    }))

  it.effect("assistants and folders of the account are listed; an unknown account is 404", () =>
    Effect.gen(function*() {
      const { accountId, assistantId } = yield* setupAccount()
      yield* admin("POST", `/accounts/${accountId}/folders`, { name: "Manuals" })
      const assistants = yield* admin("GET", `/accounts/${accountId}/assistants`)
      expect(assistants.json).toMatchObject({ data: { list: [{ id: assistantId }], count: 1 } })
      const folders = yield* admin("GET", `/accounts/${accountId}/folders`)
      expect(folders.json).toMatchObject({ data: { list: [{ name: "Manuals" }], count: 1 } })
      const missing = yield* admin("GET", "/accounts/acc_missing/folders")
      expect(missing.json).toMatchObject({ response: { code: "accounts.not_found" } })
    }))

  it.effect("usage sums the month's turns from the cost ledger", () =>
    Effect.gen(function*() {
      const { accountId, assistantId, key } = yield* setupAccount()
      const empty = yield* admin("GET", `/accounts/${accountId}/usage`)
      expect(empty.json).toMatchObject({ data: { turns: 0, totalTokens: 0 } })
      yield* chat(key, assistantId, { principal: "p", message: "Hello there" })
      const usage = yield* admin("GET", `/accounts/${accountId}/usage`)
      expect(pick(usage.json, "data", "turns")).toBe(1)
      expect(pick(usage.json, "data", "period")).toMatch(/^\d{4}-\d{2}$/)
      expect(pick(usage.json, "data", "totalTokens")).toBeGreaterThan(0)
    }))
})
