import { expect, layer } from "@effect/vitest"
import { DastyarApiError } from "../src/DastyarApiError"
import { createDastyarClient } from "../src/PromiseClient"
import { unwrap } from "../src/Unwrap"
import { adminToken, againstServer, operator, rejectionOf, setupAccount, TestApp } from "./support/Server"

/** The rejection of `pending`, which must be a `DastyarApiError`. */
const apiError = async (pending: Promise<unknown>): Promise<DastyarApiError> => {
  const error = await rejectionOf(pending)
  if (!(error instanceof DastyarApiError)) throw new Error(`expected DastyarApiError, got ${String(error)}`)
  return error
}

layer(TestApp(), { excludeTestServices: true })("promise client", (it) => {
  it.effect("admin methods unwrap the envelope into typed data", () =>
    againstServer(async (baseUrl) => {
      const { admin } = operator(baseUrl)
      const account = await admin.createAccount({ name: "Acme" })
      expect(account).toMatchObject({ name: "Acme", plan: expect.any(String) })
      const key = await admin.createKey(account.id, { name: "ci" })
      expect(key).toMatchObject({ name: "ci", key: expect.any(String), createdAt: expect.any(String) })
      const assistant = await admin.createAssistant(account.id, { name: "Helper" })
      expect(assistant).toMatchObject({
        name: "Helper",
        status: "provisioning",
        planLimits: { products: expect.any(Number) }
      })
      const folder = await admin.createFolder(account.id, { name: "Manuals" })
      expect(folder).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/), name: "Manuals" })
      const renamed = await admin.updateAssistant(assistant.id, { name: "Concierge" })
      expect(renamed.name).toBe("Concierge")
      expect((await admin.getAssistant(assistant.id)).id).toBe(assistant.id)
      expect((await admin.deleteAssistant(assistant.id)).status).toBe("deleting")
      expect(await admin.revokeKey(key.id)).toBeNull()
      expect(await admin.deleteAccount(account.id)).toBeNull()
    }))

  it.effect("public methods unwrap {list, count}", () =>
    againstServer(async (baseUrl) => {
      const { key, assistant } = await setupAccount(baseUrl)
      const client = createDastyarClient({ baseUrl, apiKey: key.key })
      const assistants = await client.assistants.list()
      expect(assistants.count).toBe(1)
      expect(assistants.list.map((item) => item.id)).toEqual([assistant.id])
      expect(assistants.list[0]?.planLimits).toBeNull()
      const models = await client.models.list()
      expect(models.count).toBe(models.list.length)
      expect(models.list[0]).toMatchObject({ key: expect.any(String), company: { slug: expect.any(String) } })
    }))

  it.effect("401: a bad or revoked key throws DastyarApiError api_key.invalid", () =>
    againstServer(async (baseUrl) => {
      const unknown = await apiError(createDastyarClient({ baseUrl, apiKey: "not-a-key" }).assistants.list())
      expect(unknown).toMatchObject({
        name: "DastyarApiError",
        httpStatus: 401,
        status: "bad_request",
        code: "api_key.invalid",
        message: "Invalid or revoked API key",
        fields: [],
        retryAfter: undefined
      })
      const { key } = await setupAccount(baseUrl)
      await operator(baseUrl).admin.revokeKey(key.id)
      const revoked = await apiError(createDastyarClient({ baseUrl, apiKey: key.key }).models.list())
      expect(revoked).toMatchObject({ httpStatus: 401, code: "api_key.invalid" })
      const admin = await apiError(
        createDastyarClient({ baseUrl, adminToken: "wrong" }).admin.createAccount({ name: "x" })
      )
      expect(admin).toMatchObject({ httpStatus: 401, status: "bad_request", code: "admin_token.invalid" })
    }))

  it.effect("409: a second folder with the same name is folders.name_taken", () =>
    againstServer(async (baseUrl) => {
      const { admin } = operator(baseUrl)
      const account = await admin.createAccount({ name: "Acme" })
      await admin.createFolder(account.id, { name: "Manuals" })
      const taken = await apiError(admin.createFolder(account.id, { name: "Manuals" }))
      expect(taken).toMatchObject({ httpStatus: 409, status: "conflict", code: "folders.name_taken", fields: [] })
    }))

  it.effect("404: unknown and foreign assistants are assistants.not_found", () =>
    againstServer(async (baseUrl) => {
      const unknown = await apiError(operator(baseUrl).admin.getAssistant("unknown"))
      expect(unknown).toMatchObject({
        httpStatus: 404,
        status: "not_found",
        code: "assistants.not_found",
        message: "Assistant not found",
        fields: []
      })
      const mine = await setupAccount(baseUrl)
      const theirs = await setupAccount(baseUrl)
      const { raw } = createDastyarClient({ baseUrl, apiKey: mine.key.key })
      const foreign = await apiError(unwrap(raw.GET("/v1/assistants/{assistantCode}/products", {
        params: { path: { assistantCode: theirs.assistant.id } }
      })))
      expect(foreign).toMatchObject({ httpStatus: 404, status: "not_found", code: "assistants.not_found" })
      // The raw client returns the answer instead of throwing.
      const own = await raw.GET("/v1/assistants/{assistantCode}/products/{externalId}", {
        params: { path: { assistantCode: mine.assistant.id, externalId: "nope" } }
      })
      expect(own.response.status).toBe(404)
      expect(own.error).toMatchObject({ data: null, response: { status: "not_found", code: "products.not_found" } })
    }))

  it.effect("400: validation errors carry fields and no code, in the requested language", () =>
    againstServer(async (baseUrl) => {
      const invalid = await apiError(operator(baseUrl).admin.createAccount({ name: "" }))
      expect(invalid).toMatchObject({
        httpStatus: 400,
        status: "bad_request",
        code: undefined,
        message: "Validation failed",
        fields: [{ property: "name", constraints: ["must be at least 1 character long"] }]
      })
      const fa = createDastyarClient({ baseUrl, adminToken, language: "fa" })
      const translated = await apiError(fa.admin.createAccount({ name: "" }))
      expect(translated.message).toBe("اعتبارسنجی ناموفق بود")
      expect(translated.fields.map((field) => field.property)).toEqual(["name"])
    }))
})
