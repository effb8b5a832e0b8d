/**
 * The client side the load and soak parts share: JSON calls that must
 * succeed, an account with an active assistant and 200 products made through
 * the API of a child server, and waiting for its ingest jobs to settle.
 */
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import { adminToken } from "../support/TestApp"
import type { ChildServer } from "./ChildServer"

/** One JSON call that must succeed; its `data`. */
export const api = (server: ChildServer, method: string, path: string, token: string, body?: unknown) =>
  Effect.promise(async () => {
    const response = await fetch(`${server.base}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json" })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    const text = await response.text()
    if (response.status >= 300) throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`)
    const parsed: { readonly data: unknown; readonly count?: number } = JSON.parse(text)
    return parsed
  })

export const field = (value: unknown, name: string): string => {
  const found: unknown = typeof value === "object" && value !== null ? Reflect.get(value, name) : undefined
  if (typeof found !== "string") throw new Error(`expected a string ${name} in ${JSON.stringify(value)}`)
  return found
}

/** An account, a key and an active assistant with 200 products, made through the API. */
export const setup = (server: ChildServer) =>
  Effect.gen(function*() {
    const account = yield* api(server, "POST", "/admin/v1/accounts", adminToken, { name: "Load" })
    const accountId = field(account.data, "id")
    const key = field(
      (yield* api(server, "POST", `/admin/v1/accounts/${accountId}/keys`, adminToken, { name: "load" })).data,
      "key"
    )
    const assistant = yield* api(server, "POST", `/admin/v1/accounts/${accountId}/assistants`, adminToken, {
      name: "Load"
    })
    const assistantId = field(assistant.data, "id")
    yield* api(server, "GET", `/admin/v1/assistants/${assistantId}`, adminToken).pipe(
      Effect.repeat({
        until: (reply) => field(reply.data, "status") !== "provisioning",
        schedule: Schedule.spaced("50 millis")
      })
    )
    const products = Array.from({ length: 200 }, (_, index) => ({
      externalId: `load-${index}`,
      title: `${["Blue", "Red", "Green", "کتاب"][index % 4]} item ${index}`,
      category: ["shoes", "books"][index % 2]
    }))
    yield* api(server, "POST", `/v1/assistants/${assistantId}/products/import`, key, { products })
    return { key, assistantId }
  })

/** Waits (up to 5 minutes) until no ingest job of the assistant is queued or processing. */
export const settle = (server: ChildServer, key: string, assistantId: string) =>
  Effect.gen(function*() {
    const open = (status: string) =>
      Effect.map(
        api(server, "GET", `/v1/assistants/${assistantId}/documents/jobs?status=${status}&limit=1`, key),
        (reply) => reply.count ?? 0
      )
    const deadline = Date.now() + 300_000
    while (Date.now() < deadline && (yield* open("queued")) + (yield* open("processing")) > 0) {
      yield* Effect.sleep("500 millis")
    }
  })
