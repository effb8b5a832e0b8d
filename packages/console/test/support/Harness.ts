/**
 * What the console's browser tests share: one Chromium per test file, the test server's address, and the
 * public and operator APIs called as the console's users would before the browser takes over. The suite's global
 * setup builds the console and the widget once; a build in a test file would race the other files.
 */
import { chromiumLaunchOptions } from "@dastyar/server/TestingBrowser"
import { HttpServer } from "@effect/platform"
import * as Effect from "effect/Effect"
import { type Browser, chromium } from "playwright-core"
import { afterAll, beforeAll } from "vitest"

/** Launches Chromium before the file's tests and closes it after them; call at the top of a test file. */
export const useBrowser = (): (() => Browser) => {
  let browser: Browser | undefined
  beforeAll(async () => {
    browser = await chromium.launch(chromiumLaunchOptions())
  }, 120_000)
  afterAll(async () => {
    await browser?.close()
  })
  return () => {
    if (browser === undefined) throw new Error("the browser is used before the file's beforeAll ran")
    return browser
  }
}

/** The test server's base URL. */
export const serverUrl = Effect.gen(function*() {
  const { address } = yield* HttpServer.HttpServer
  if (address._tag !== "TcpAddress") return yield* Effect.die(new Error("the test server is not on TCP"))
  return `http://127.0.0.1:${address.port}`
})

/** Runs `body` against the test server's base URL. */
export const againstServer = (body: (baseUrl: string) => Promise<void>) =>
  Effect.flatMap(serverUrl, (baseUrl) => Effect.promise(() => body(baseUrl)))

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null

/** A field of parsed JSON, undefined when `value` is no object. */
export const field = (value: unknown, name: string): unknown => (isRecord(value) ? value[name] : undefined)

/** `data` of an API answer, failing the test on anything but 2xx. */
export const api = async (baseUrl: string, token: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json: unknown = await response.json()
  if (!response.ok || !isRecord(json)) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`)
  return json.data
}
