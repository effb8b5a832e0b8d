/** The real service started by `TestApp`, seen from the SDK: its URL and a ready-made account. */
import { adminToken } from "@dastyar/server/Testing"
import { HttpServer } from "@effect/platform"
import * as Effect from "effect/Effect"
import { createDastyarClient, type DastyarClient } from "../../src/PromiseClient"

export { adminToken, TestApp } from "@dastyar/server/Testing"

/** The loopback URL of the test server (bound to every interface, reached over 127.0.0.1). */
export const serverUrl = Effect.gen(function*() {
  const { address } = yield* HttpServer.HttpServer
  if (address._tag !== "TcpAddress") return yield* Effect.die(new Error("the test server is not on TCP"))
  const host = address.hostname === "0.0.0.0" || address.hostname === "::" ? "127.0.0.1" : address.hostname
  return `http://${host}:${address.port}`
})

/** Runs an async test body against the server; a rejection fails the test. */
export const againstServer = (body: (baseUrl: string) => Promise<void>) =>
  Effect.flatMap(serverUrl, (baseUrl) => Effect.promise(() => body(baseUrl)))

export const operator = (baseUrl: string): DastyarClient => createDastyarClient({ baseUrl, adminToken })

/** An account with an API key and an assistant that has left `provisioning`. */
export const setupAccount = async (baseUrl: string) => {
  const admin = operator(baseUrl).admin
  const account = await admin.createAccount({ name: "Shop" })
  const key = await admin.createKey(account.id, { name: "sdk-test" })
  const created = await admin.createAssistant(account.id, { name: "Helper" })
  for (let attempt = 0; attempt < 200; attempt++) {
    const assistant = await admin.getAssistant(created.id)
    if (assistant.status !== "provisioning") return { account, key, assistant }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`assistant ${created.id} is still provisioning`)
}

/** The error a promise rejected with; fails if it resolved. */
export const rejectionOf = async (pending: Promise<unknown>): Promise<unknown> => {
  try {
    await pending
  } catch (error) {
    return error
  }
  throw new Error("expected the call to fail, it succeeded")
}
