/**
 * The real service for tests: the whole layer graph on a real database (a
 * fresh Postgres database per test file when `DATABASE_URL` is set, else an
 * embedded PGlite in a temporary directory), served on a real loopback socket.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import pg from "pg"
import { AppLive } from "../../src/App"

export const adminToken = "test-admin-token"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-test-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

/** A new, empty database on the server of `DATABASE_URL`, dropped afterwards. */
const freshPostgresDatabase = (baseUrl: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const name = `dastyar_t_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`
      const client = new pg.Client({ connectionString: baseUrl })
      await client.connect()
      await client.query(`CREATE DATABASE ${name}`)
      await client.end()
      const url = new URL(baseUrl)
      url.pathname = `/${name}`
      return { name, url: url.toString() }
    }),
    ({ name }) =>
      Effect.promise(async () => {
        const client = new pg.Client({ connectionString: baseUrl })
        await client.connect()
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        await client.end()
      }).pipe(Effect.ignore)
  )

/** The service with test settings; `env` overrides them (e.g. the rate limit). */
export const TestApp = (env: Record<string, string> = {}) =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const baseUrl = process.env.DATABASE_URL
      const database = baseUrl ? { DATABASE_URL: (yield* freshPostgresDatabase(baseUrl)).url } : {}
      const settings = new Map(Object.entries({
        DASTYAR_DATA_DIR: dataDir,
        DASTYAR_ADMIN_TOKEN: adminToken,
        DASTYAR_SEED_DEMO: "false",
        DASTYAR_LOG_LEVEL: "Warn",
        DASTYAR_DB_POOL_SIZE: "4",
        ...database,
        ...env
      }))
      return AppLive.pipe(
        Layer.provideMerge(NodeHttpServer.layerTest),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(settings)))
      )
    })
  )

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

export const waitForStatus = (assistantId: string, done: (status: string | undefined) => boolean) =>
  admin("GET", `/assistants/${assistantId}`).pipe(
    Effect.map((reply) => reply.status === 404 ? undefined : pickString(reply.json, "data", "status")),
    Effect.repeat({ until: done, schedule: Schedule.spaced("50 millis"), times: 200 })
  )
