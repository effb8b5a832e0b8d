import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { admin, call, pick, setupAccount, TestApp } from "../support/TestApp"

layer(TestApp(), { excludeTestServices: true })("a key holder's assistant settings", (it) => {
  it.effect("a key holder changes its assistant's name, instruction and language; absent fields keep their value", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount({ assistant: { description: "kept", personality: "formal" } })
      const patched = yield* call("PATCH", `/v1/assistants/${assistantId}`, {
        token: key,
        body: { name: "دستیار فروشگاه", instruction: "کوتاه پاسخ بده.", language: "fa" }
      })
      expect(patched.status).toBe(200)
      expect(patched.json).toMatchObject({
        data: {
          id: assistantId,
          name: "دستیار فروشگاه",
          instruction: "کوتاه پاسخ بده.",
          language: "fa",
          description: "kept",
          personality: "formal",
          model: "dastyar-local",
          planLimits: null
        },
        response: { status: "success" }
      })
      const listed = yield* call("GET", "/v1/assistants", { token: key })
      expect(pick(listed.json, "data", "list", 0, "name")).toBe("دستیار فروشگاه")
    }))

  it.effect("null clears an instruction or language", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount({ assistant: { instruction: "Be brief.", language: "en" } })
      const cleared = yield* call("PATCH", `/v1/assistants/${assistantId}`, {
        token: key,
        body: { instruction: null, language: null }
      })
      expect(cleared.status).toBe(200)
      expect(cleared.json).toMatchObject({ data: { instruction: null, language: null, name: "Helper" } })
    }))

  it.effect("the model and reasoning stay the operator's: the key holder's route leaves them as they are", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      // Unknown fields are dropped by the schema; the model stays as the operator set it.
      const reply = yield* call("PATCH", `/v1/assistants/${assistantId}`, {
        token: key,
        body: { model: "o4-mini", reasoning: "high", name: "Renamed" }
      })
      expect(reply.status).toBe(200)
      expect(reply.json).toMatchObject({ data: { model: "dastyar-local", reasoning: "none", name: "Renamed" } })
    }))

  it.effect("invalid fields get 400 with each field named, and nothing changes", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const invalid = yield* call("PATCH", `/v1/assistants/${assistantId}`, {
        token: key,
        body: { name: "", language: "x", personality: "grumpy" }
      })
      expect(invalid.status).toBe(400)
      expect(pick(invalid.json, "fields")).toEqual(expect.arrayContaining([
        expect.objectContaining({ property: "name" }),
        expect.objectContaining({ property: "language" }),
        expect.objectContaining({ property: "personality" })
      ]))
      const stored = yield* admin("GET", `/assistants/${assistantId}`)
      expect(pick(stored.json, "data", "name")).toBe("Helper")
    }))

  it.effect("another account's assistant is a 404, and a missing key a 401", () =>
    Effect.gen(function*() {
      const mine = yield* setupAccount()
      const other = yield* setupAccount()
      const foreign = yield* call("PATCH", `/v1/assistants/${mine.assistantId}`, {
        token: other.key,
        body: { name: "Taken" }
      })
      expect(foreign.status).toBe(404)
      expect(pick(foreign.json, "response", "code")).toBe("assistants.not_found")
      const anonymous = yield* call("PATCH", `/v1/assistants/${mine.assistantId}`, { body: { name: "Taken" } })
      expect(anonymous.status).toBe(401)
      expect(pick((yield* admin("GET", `/assistants/${mine.assistantId}`)).json, "data", "name")).toBe("Helper")
    }))

  it.effect("the operator lists the models of an account's plan, by account or by assistant, without a key", () =>
    Effect.gen(function*() {
      const free = yield* setupAccount()
      const pro = yield* setupAccount({ plan: "pro" })
      const usable = (json: unknown) => {
        const list = pick(json, "data", "list")
        return Array.isArray(list)
          ? list.filter((model) => pick(model, "usable") === true).map((m) => pick(m, "key"))
          : []
      }
      const byAccount = yield* admin("GET", `/accounts/${free.accountId}/models`)
      expect(byAccount.status).toBe(200)
      expect(usable(byAccount.json)).toContain("dastyar-local")
      expect(usable(byAccount.json)).not.toContain("o4-mini")
      // The same list the account's own key is given.
      const keyList = yield* call("GET", "/v1/models", { token: free.key })
      expect(pick(byAccount.json, "data")).toEqual(pick(keyList.json, "data"))
      const byAssistant = yield* admin("GET", `/assistants/${pro.assistantId}/models`)
      expect(byAssistant.status).toBe(200)
      expect(pick(byAssistant.json, "data")).toEqual(
        pick((yield* call("GET", "/v1/models", { token: pro.key })).json, "data")
      )
      expect((yield* admin("GET", "/accounts/acc_missing/models")).status).toBe(404)
      expect((yield* admin("GET", "/assistants/ast_missing/models")).status).toBe(404)
      expect((yield* call("GET", `/admin/v1/accounts/${free.accountId}/models`, { token: free.key })).status).toBe(401)
    }))
})
