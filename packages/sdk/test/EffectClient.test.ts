import { AssistantId } from "@dastyar/domain/Assistants"
import { AccountId, ApiKeyId } from "@dastyar/domain/Auth"
import { FetchHttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import { makeEffectClient } from "../src/EffectClient"
import { adminToken, serverUrl, TestApp } from "./support/Server"
import { type CannedResponse, startWireServer } from "./support/WireServer"

/** The Effect client over `fetch`, as an application would build it. */
const client = (baseUrl: string, token: string) =>
  makeEffectClient({ baseUrl, token }).pipe(Effect.provide(FetchHttpClient.layer))

const wireServer = (answers: readonly [CannedResponse, ...Array<CannedResponse>]) =>
  Effect.acquireRelease(
    Effect.promise(() => startWireServer(answers)),
    (server) => Effect.promise(() => server.close())
  )

/** An account, a key and an assistant out of `provisioning`, through the Effect client. */
const setup = (baseUrl: string) =>
  Effect.gen(function*() {
    const { admin } = yield* client(baseUrl, adminToken)
    const account = yield* admin.createAccount({ payload: { name: "Shop" } })
    const key = yield* admin.createKey({ path: { accountId: account.id }, payload: {} })
    const created = yield* admin.createAssistant({ path: { accountId: account.id }, payload: { name: "Helper" } })
    const get = admin.getAssistant({ path: { assistantId: created.id } })
    yield* Effect.repeat(get, {
      until: (found) => found.status !== "provisioning",
      schedule: Schedule.spaced("50 millis"),
      times: 200
    })
    return { account, key, assistant: yield* get }
  })

layer(TestApp(), { excludeTestServices: true })("Effect client", (it) => {
  it.effect("decodes the envelope away: admin creations, assistants and models", () =>
    Effect.gen(function*() {
      const baseUrl = yield* serverUrl
      const { account, key, assistant } = yield* setup(baseUrl)
      expect(account.name).toBe("Shop")
      expect(key.key.length).toBeGreaterThan(0)
      const { admin } = yield* client(baseUrl, adminToken)
      const folder = yield* admin.createFolder({ path: { accountId: account.id }, payload: { name: "Manuals" } })
      expect(folder.name).toBe("Manuals")
      const api = yield* client(baseUrl, key.key)
      const assistants = yield* api.assistants.list()
      expect(assistants.count).toBe(1)
      expect(assistants.list[0]?.id).toBe(assistant.id)
      const models = yield* api.models.list()
      expect(models.count).toBe(models.list.length)
    }))

  it.effect("401s are InvalidApiKey and InvalidAdminToken", () =>
    Effect.gen(function*() {
      const baseUrl = yield* serverUrl
      const api = yield* client(baseUrl, "not-a-key")
      expect((yield* Effect.flip(api.models.list()))._tag).toBe("InvalidApiKey")
      const { admin } = yield* client(baseUrl, "wrong")
      expect((yield* Effect.flip(admin.createAccount({ payload: { name: "x" } })))._tag).toBe("InvalidAdminToken")
    }))

  it.effect("404s: unknown assistant, foreign assistant, unknown key and account", () =>
    Effect.gen(function*() {
      const baseUrl = yield* serverUrl
      const { admin } = yield* client(baseUrl, adminToken)
      const unknown = yield* Effect.flip(admin.getAssistant({ path: { assistantId: AssistantId.make("unknown") } }))
      expect(unknown).toMatchObject({ _tag: "AssistantNotFound", message: "Assistant not found" })
      const mine = yield* setup(baseUrl)
      const theirs = yield* setup(baseUrl)
      const api = yield* client(baseUrl, mine.key.key)
      const foreign = yield* Effect.flip(
        api.products.get({ path: { assistantCode: theirs.assistant.id, externalId: "sku-1" } })
      )
      expect(foreign._tag).toBe("AssistantNotFound")
      const key = yield* Effect.flip(admin.revokeKey({ path: { keyId: ApiKeyId.make("unknown") } }))
      expect(key._tag).toBe("ApiKeyNotFound")
      const account = yield* Effect.flip(admin.deleteAccount({ path: { accountId: AccountId.make("unknown") } }))
      expect(account._tag).toBe("AccountNotFound")
    }))

  it.effect("409: a second folder with the same name is FolderNameTaken", () =>
    Effect.gen(function*() {
      const baseUrl = yield* serverUrl
      const { admin } = yield* client(baseUrl, adminToken)
      const account = yield* admin.createAccount({ payload: { name: "Shop" } })
      yield* admin.createFolder({ path: { accountId: account.id }, payload: { name: "Manuals" } })
      const taken = yield* Effect.flip(
        admin.createFolder({ path: { accountId: account.id }, payload: { name: "Manuals" } })
      )
      expect(taken).toMatchObject({
        _tag: "FolderNameTaken",
        message: "The account already has a folder with this name"
      })
    }))

  it.effect("invalid payloads fail locally with a ParseError; nothing is sent", () =>
    Effect.gen(function*() {
      const wire = yield* wireServer([{ status: 500, body: "{}" }])
      const { admin } = yield* client(wire.url, adminToken)
      const error = yield* Effect.flip(admin.createAccount({ payload: { name: "" } }))
      expect(error._tag).toBe("ParseError")
      expect(wire.received).toEqual([])
    }).pipe(Effect.scoped))

  it.effect("the server's validation answer decodes to ValidationFailed with its fields", () =>
    Effect.gen(function*() {
      const baseUrl = yield* serverUrl
      // The client never sends what the schema rejects, so take the real server's answer to
      // such a request and replay it byte for byte to the client.
      const real = yield* Effect.promise(() =>
        fetch(`${baseUrl}/admin/v1/accounts`, {
          method: "POST",
          headers: {
            authorization: `Bearer ${adminToken}`,
            "content-type": "application/json",
            "accept-language": "fa"
          },
          body: JSON.stringify({})
        })
      )
      const body = yield* Effect.promise(() => real.text())
      const wire = yield* wireServer([{ status: real.status, body }])
      const { admin } = yield* client(wire.url, adminToken)
      const error = yield* Effect.flip(admin.createAccount({ payload: { name: "Shop" } }))
      if (error._tag !== "ValidationFailed") throw new Error(`expected ValidationFailed, got ${error._tag}`)
      expect(error.message).toBe("اعتبارسنجی ناموفق بود")
      expect(error.fields).toEqual([{ property: "name", constraints: ["الزامی است"] }])
    }).pipe(Effect.scoped))
})
