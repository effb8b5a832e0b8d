import { FetchHttpClient } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { DastyarApiError } from "../src/DastyarApiError"
import { makeEffectClient } from "../src/EffectClient"
import { createDastyarClient } from "../src/PromiseClient"
import { againstServer, rejectionOf, serverUrl, setupAccount, TestApp } from "./support/Server"

const limit = 3

layer(TestApp({ DASTYAR_RATE_LIMIT_PER_MINUTE: String(limit) }), { excludeTestServices: true })("rate limit", (it) => {
  it.effect("with retry off, the 429 is thrown with retryAfter 60 and no code", () =>
    againstServer(async (baseUrl) => {
      const { key } = await setupAccount(baseUrl)
      const client = createDastyarClient({ baseUrl, apiKey: key.key })
      for (let call = 0; call < limit; call++) await client.assistants.list()
      const error = await rejectionOf(client.assistants.list())
      expect(error).toBeInstanceOf(DastyarApiError)
      expect(error).toMatchObject({
        httpStatus: 429,
        status: "bad_request",
        code: undefined,
        fields: [],
        retryAfter: 60
      })
    }))

  it.effect("with retry on, each retry waits the real Retry-After; the last 429 is thrown", () =>
    againstServer(async (baseUrl) => {
      const { key } = await setupAccount(baseUrl)
      const waits: Array<number> = []
      const client = createDastyarClient({
        baseUrl,
        apiKey: key.key,
        // The window lasts a minute; not waiting keeps the key limited, so every retry meets a 429.
        retryOn429: { maxRetries: 2, sleep: async (milliseconds) => void waits.push(milliseconds) }
      })
      for (let call = 0; call < limit; call++) await client.models.list()
      const error = await rejectionOf(client.models.list())
      expect(waits).toEqual([60_000, 60_000])
      expect(error).toMatchObject({ httpStatus: 429, retryAfter: 60 })
    }))

  it.effect("the Effect client fails with TooManyRequests", () =>
    Effect.gen(function*() {
      const baseUrl = yield* serverUrl
      const { key } = yield* Effect.promise(() => setupAccount(baseUrl))
      const client = yield* makeEffectClient({ baseUrl, token: key.key }).pipe(Effect.provide(FetchHttpClient.layer))
      for (let call = 0; call < limit; call++) yield* client.assistants.list()
      const error = yield* Effect.flip(client.assistants.list())
      expect(error._tag).toBe("TooManyRequests")
    }))
})
