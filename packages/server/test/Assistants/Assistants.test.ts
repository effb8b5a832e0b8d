import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { admin, call, pick, pickString, setupAccount, TestApp, waitForStatus } from "../support/TestApp"

layer(TestApp({ OPENAI_API_KEY: "sk-test" }), { excludeTestServices: true })("assistants", (it) => {
  it.effect("an operator creates an assistant in provisioning; it turns active in the background", () =>
    Effect.gen(function*() {
      const account = yield* admin("POST", "/accounts", { name: "Shop" })
      expect(account.status).toBe(201)
      expect(account.json).toMatchObject({ data: { name: "Shop", plan: "free" }, response: { status: "success" } })
      const accountId = pickString(account.json, "data", "id")
      const created = yield* admin("POST", `/accounts/${accountId}/assistants`, {
        name: "Helper",
        instruction: "Be brief.",
        personality: "custom",
        language: "fa",
        ragK: 8,
        acceptVoice: true,
        identitySettings: { fields: ["mobile"], otp: true }
      })
      expect(created.status).toBe(201)
      expect(created.json).toMatchObject({
        data: {
          name: "Helper",
          status: "provisioning",
          model: "dastyar-local",
          reasoning: "none",
          personality: "custom",
          language: "fa",
          ragK: 8,
          maxOutputTokens: null,
          acceptVoice: true,
          productSearch: true,
          identitySettings: { fields: ["mobile"], otp: true },
          planLimits: { products: 10000 }
        }
      })
      const assistantId = pickString(created.json, "data", "id")
      expect(yield* waitForStatus(assistantId, (s) => s !== "provisioning")).toBe("active")
    }))

  it.effect("the public list shows the account's own assistants only, planLimits null", () =>
    Effect.gen(function*() {
      const mine = yield* setupAccount()
      yield* setupAccount()
      const reply = yield* call("GET", "/v1/assistants", { token: mine.key })
      expect(reply.status).toBe(200)
      expect(pick(reply.json, "data", "count")).toBe(1)
      expect(pick(reply.json, "data", "list", 0)).toMatchObject({
        id: mine.assistantId,
        status: "active",
        planLimits: null,
        operatorsCanViewCustomerFiles: false,
        avatarUrl: null
      })
      expect(pickString(reply.json, "data", "list", 0, "createdAt")).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/)
    }))

  it.effect("settings are patched field by field; null clears", () =>
    Effect.gen(function*() {
      const { assistantId } = yield* setupAccount({ assistant: { description: "old", language: "en" } })
      const patched = yield* admin("PATCH", `/assistants/${assistantId}`, { description: null, maxOutputTokens: 512 })
      expect(patched.status).toBe(200)
      expect(patched.json).toMatchObject({
        data: { description: null, language: "en", maxOutputTokens: 512, name: "Helper" }
      })
    }))

  it.effect("a model the plan does not include is refused; a plan that includes it accepts it", () =>
    Effect.gen(function*() {
      const free = yield* setupAccount()
      const refused = yield* admin("POST", `/accounts/${free.accountId}/assistants`, { name: "R", model: "o4-mini" })
      expect(refused.status).toBe(400)
      expect(pick(refused.json, "response", "code")).toBe("models.not_usable")
      const pro = yield* setupAccount({ plan: "pro" })
      const accepted = yield* admin("POST", `/accounts/${pro.accountId}/assistants`, {
        name: "R",
        model: "o4-mini",
        reasoning: "high"
      })
      expect(accepted.status).toBe(201)
      const unknownPlan = yield* admin("POST", "/accounts", { name: "X", plan: "platinum" })
      expect(pick(unknownPlan.json, "response", "code")).toBe("plans.not_found")
    }))

  it.effect("delete moves the assistant to deleting at once and removes it in the background", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const deleting = yield* admin("DELETE", `/assistants/${assistantId}`)
      expect(deleting.status).toBe(202)
      expect(pick(deleting.json, "data", "status")).toBe("deleting")
      expect(yield* waitForStatus(assistantId, (s) => s === undefined)).toBeUndefined()
      const list = yield* call("GET", "/v1/assistants", { token: key })
      expect(pick(list.json, "data", "count")).toBe(0)
      const gone = yield* admin("GET", `/assistants/${assistantId}`)
      expect(gone.status).toBe(404)
      expect(pick(gone.json, "response", "code")).toBe("assistants.not_found")
    }))

  it.effect("product routes remember an owned assistant, and forget it when it is deleted here", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const other = yield* setupAccount()
      const search = (token: string) =>
        call("POST", `/v1/assistants/${assistantId}/products/search`, { token, body: { query: "kettle" } })
      expect((yield* search(key)).status).toBe(200)
      // The owner's pair is remembered; another account's is not owned, then or after.
      const foreign = yield* search(other.key)
      expect(foreign.status).toBe(404)
      expect(pick(foreign.json, "response", "code")).toBe("assistants.not_found")
      expect((yield* search(other.key)).status).toBe(404)
      expect((yield* admin("DELETE", `/assistants/${assistantId}`)).status).toBe(202)
      expect(yield* waitForStatus(assistantId, (s) => s === undefined)).toBeUndefined()
      // Removed by this instance's worker: not found at once, not after the cache's time.
      const gone = yield* search(key)
      expect(gone.status).toBe(404)
      expect(pick(gone.json, "response", "code")).toBe("assistants.not_found")
    }))

  it.effect("an assistant created after its account's key was used is its owner's at once", () =>
    Effect.gen(function*() {
      const { accountId, assistantId, key } = yield* setupAccount()
      const products = (id: string) => call("GET", `/v1/assistants/${id}/products`, { token: key })
      expect((yield* products(assistantId)).status).toBe(200)
      // The key's owner is remembered with the assistants it had then; a newer one is checked on its own.
      const created = yield* admin("POST", `/accounts/${accountId}/assistants`, { name: "Second" })
      const secondId = pickString(created.json, "data", "id")
      yield* waitForStatus(secondId, (status) => status !== "provisioning")
      expect((yield* products(secondId)).status).toBe(200)
      expect((yield* products(assistantId)).status).toBe(200)
    }))

  it.effect("an assistant being deleted is refused at once, by every route of its owner", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const search = call("POST", `/v1/assistants/${assistantId}/products/search`, {
        token: key,
        body: { query: "kettle" }
      })
      const documents = call("GET", `/v1/assistants/${assistantId}/documents`, { token: key })
      // Marked deleting (as by another instance, its data not yet removed): never owned again.
      const sql = yield* SqlClient.SqlClient
      yield* sql`UPDATE assistants SET status = 'deleting' WHERE id = ${assistantId}`
      for (const reply of [yield* search, yield* documents]) {
        expect(reply.status).toBe(404)
        expect(pick(reply.json, "response", "code")).toBe("assistants.not_found")
      }
      // Deleted here after being used: the remembered ownership goes with the request that deletes it.
      const second = yield* setupAccount()
      const secondSearch = call("POST", `/v1/assistants/${second.assistantId}/products/search`, {
        token: second.key,
        body: { query: "kettle" }
      })
      expect((yield* secondSearch).status).toBe(200)
      expect((yield* admin("DELETE", `/assistants/${second.assistantId}`)).status).toBe(202)
      expect((yield* secondSearch).status).toBe(404)
    }))

  it.effect("deleting an account stops its keys at once", () =>
    Effect.gen(function*() {
      const { accountId, key } = yield* setupAccount()
      expect((yield* admin("DELETE", `/accounts/${accountId}`)).status).toBe(200)
      expect((yield* call("GET", "/v1/assistants", { token: key })).status).toBe(401)
      const again = yield* admin("DELETE", `/accounts/${accountId}`)
      expect(again.status).toBe(404)
      expect(pick(again.json, "response", "code")).toBe("accounts.not_found")
    }))

  it.effect("the operator lists accounts, oldest first, paged with limit and offset; count counts them all", () =>
    Effect.gen(function*() {
      const first = yield* setupAccount()
      const second = yield* setupAccount()
      const all = yield* admin("GET", "/accounts?limit=500")
      expect(all.status).toBe(200)
      const list = pick(all.json, "data", "list")
      const ids = Array.isArray(list) ? list.map((account) => pickString(account, "id")) : []
      expect(ids.indexOf(first.accountId)).toBeGreaterThanOrEqual(0)
      expect(ids.indexOf(second.accountId)).toBeGreaterThan(ids.indexOf(first.accountId))
      const total = pick(all.json, "data", "count")
      expect(total).toBe(ids.length)

      const page = yield* admin("GET", `/accounts?limit=1&offset=${ids.indexOf(second.accountId)}`)
      expect(page.json).toMatchObject({
        data: { count: total, list: [{ id: second.accountId, name: "Shop", plan: expect.any(String) }] }
      })
      const invalid = yield* admin("GET", "/accounts?limit=0&offset=x")
      expect(invalid.status).toBe(400)
      expect(pick(invalid.json, "fields")).toEqual(expect.arrayContaining([
        expect.objectContaining({ property: "limit" }),
        expect.objectContaining({ property: "offset" })
      ]))
      expect((yield* call("GET", "/admin/v1/accounts", { token: first.key })).status).toBe(401)
    }))

  it.effect("folders get 32 lowercase hex identifiers", () =>
    Effect.gen(function*() {
      const { accountId } = yield* setupAccount()
      const folder = yield* admin("POST", `/accounts/${accountId}/folders`, { name: "Manuals" })
      expect(folder.status).toBe(201)
      expect(pickString(folder.json, "data", "id")).toMatch(/^[0-9a-f]{32}$/)
      expect(pick(folder.json, "data", "name")).toBe("Manuals")
      const missing = yield* admin("POST", "/accounts/acc_missing/folders", { name: "X" })
      expect(missing.status).toBe(404)
      const twice = yield* admin("POST", `/accounts/${accountId}/folders`, { name: "Manuals" })
      expect(twice.status).toBe(409)
      expect(twice.json).toMatchObject({ data: null, response: { status: "conflict", code: "folders.name_taken" } })
    }))
})
