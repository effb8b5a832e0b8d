/** Raw HTTP helpers over the test server's client. */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import { adminToken } from "../../src/Testing"

export { adminToken, TestApp } from "../../src/Testing"

export interface Reply {
  readonly status: number
  readonly headers: Readonly<Record<string, string>>
  readonly text: string
  readonly json: unknown
}

/** Reads a nested field of parsed JSON: `pick(reply.json, "data", "id")`. */
export const pick = (value: unknown, ...path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>(
    (current, key) => (typeof current === "object" && current !== null ? Reflect.get(current, key) : undefined),
    value
  )

export const pickString = (value: unknown, ...path: ReadonlyArray<string | number>): string => {
  const found = pick(value, ...path)
  if (typeof found !== "string") throw new Error(`expected a string at ${path.join(".")}, got ${JSON.stringify(found)}`)
  return found
}

/** One raw HTTP call; the body is parsed as JSON when it is JSON. */
export const call = (
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE",
  url: string,
  options: {
    readonly token?: string
    readonly body?: unknown
    readonly rawBody?: { readonly contentType: string; readonly text: string }
    readonly headers?: Record<string, string>
  } = {}
) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    let request = HttpClientRequest.make(method)(url).pipe(HttpClientRequest.setHeaders(options.headers ?? {}))
    if (options.token !== undefined) request = HttpClientRequest.bearerToken(request, options.token)
    if (options.body !== undefined) request = yield* HttpClientRequest.bodyJson(request, options.body)
    if (options.rawBody !== undefined) {
      request = HttpClientRequest.bodyText(request, options.rawBody.text, options.rawBody.contentType)
    }
    const response = yield* client.execute(request)
    const text = yield* response.text
    return {
      status: response.status,
      headers: response.headers,
      text,
      json: text.length > 0 && (response.headers["content-type"] ?? "").includes("json") ? JSON.parse(text) : undefined
    } satisfies Reply
  }).pipe(Effect.scoped, Effect.orDie)

export const admin = (method: "GET" | "POST" | "PATCH" | "DELETE", url: string, body?: unknown) =>
  call(method, `/admin/v1${url}`, { token: adminToken, ...(body === undefined ? {} : { body }) })

/** An account with a key and an active assistant, made through the operator API. */
export const setupAccount = (options: { readonly plan?: string; readonly assistant?: Record<string, unknown> } = {}) =>
  Effect.gen(function*() {
    const account = yield* admin("POST", "/accounts", { name: "Shop", ...(options.plan ? { plan: options.plan } : {}) })
    const accountId = pickString(account.json, "data", "id")
    const key = yield* admin("POST", `/accounts/${accountId}/keys`, { name: "test" })
    const created = yield* admin("POST", `/accounts/${accountId}/assistants`, { name: "Helper", ...options.assistant })
    const assistantId = pickString(created.json, "data", "id")
    yield* waitForStatus(assistantId, (status) => status !== "provisioning")
    return {
      accountId,
      key: pickString(key.json, "data", "key"),
      keyId: pickString(key.json, "data", "id"),
      assistantId
    }
  })

/** Polls the operator API until `done` holds for the assistant's status (undefined once it is gone). */
export const waitForStatus = (assistantId: string, done: (status: string | undefined) => boolean) =>
  Effect.gen(function*() {
    for (let attempt = 0; attempt < 200; attempt++) {
      const reply = yield* admin("GET", `/assistants/${assistantId}`)
      const status = reply.status === 404 ? undefined : pickString(reply.json, "data", "status")
      if (done(status)) return status
      yield* Effect.sleep("50 millis")
    }
    return yield* Effect.die(new Error(`assistant ${assistantId} never reached the expected status`))
  })
