/**
 * The improvement loop in a real browser (Debian's Chromium through
 * playwright-core) against the real service: a shop owner signed in with a key
 * reads the unanswered report, answers a group as a curated answer, sees the
 * next customer served it in the conversation's thread, rates an answer and
 * finds the curated answer's hit; then the same views in Persian.
 */
import { adminToken, TestApp } from "@dastyar/server/Testing"
import { chromiumLaunchOptions } from "@dastyar/server/TestingBrowser"
import { HttpServer } from "@effect/platform"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { type Browser, chromium } from "playwright-core"
import { afterAll, beforeAll } from "vitest"

const packageDir = fileURLToPath(new URL("..", import.meta.url))

let browser: Browser

beforeAll(async () => {
  execFileSync("pnpm", ["run", "build"], { cwd: packageDir, stdio: "pipe" })
  browser = await chromium.launch(chromiumLaunchOptions())
}, 120_000)

afterAll(async () => {
  await browser?.close()
})

const serverUrl = Effect.gen(function*() {
  const { address } = yield* HttpServer.HttpServer
  if (address._tag !== "TcpAddress") return yield* Effect.die(new Error("the test server is not on TCP"))
  return `http://127.0.0.1:${address.port}`
})

/** One JSON call; the envelope's data. */
const api = async (baseUrl: string, token: string, method: string, path: string, body?: unknown) => {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const json: { readonly data: Record<string, unknown> } = await response.json()
  return json.data
}

const text = (value: unknown) => (typeof value === "string" ? value : "")

/** An account with a key and an active assistant that knows shipping, and six customer questions. */
const shop = async (baseUrl: string) => {
  const account = await api(baseUrl, adminToken, "POST", "/admin/v1/accounts", { name: "Tea shop" })
  const key = text((await api(baseUrl, adminToken, "POST", `/admin/v1/accounts/${text(account.id)}/keys`, {})).key)
  const assistant = await api(baseUrl, adminToken, "POST", `/admin/v1/accounts/${text(account.id)}/assistants`, {
    name: "Helper"
  })
  const assistantId = text(assistant.id)
  for (let i = 0; i < 100; i++) {
    const current = await api(baseUrl, adminToken, "GET", `/admin/v1/assistants/${assistantId}`)
    if (current.status === "active") break
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  const ask = (principal: string, message: string) =>
    api(baseUrl, key, "POST", `/v1/assistants/${assistantId}/chat`, { principal, message })
  for (const [i, question] of ["Do you offer gift wrapping?", "Is gift wrapping available?", "Hello"].entries()) {
    await ask(`customer-${i}`, question)
  }
  return { key, assistantId, ask }
}

layer(TestApp(), { excludeTestServices: true, timeout: 180_000 })("console: the improvement loop", (it) => {
  it.effect("report → curated answer → served to the next customer → seen in the thread, in English and Persian", () =>
    Effect.flatMap(serverUrl, (baseUrl) =>
      Effect.promise(async () => {
        const { ask, assistantId, key } = await shop(baseUrl)
        const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, baseURL: baseUrl })
        const page = await context.newPage()
        page.setDefaultTimeout(30_000)
        try {
          await page.goto("/console/")
          await page.getByRole("radio", { name: "API key" }).check()
          await page.getByRole("textbox", { name: "API key" }).fill(key)
          await page.getByRole("button", { name: "Sign in" }).click()
          await page.getByRole("link", { name: "Assistants" }).first().waitFor()

          // The report: the two gift-wrapping questions are one group of two.
          await page.goto(`/console/#/assistants/${assistantId}/unanswered`)
          const group = page.locator("li.card", { hasText: "gift wrapping" })
          await group.waitFor()
          expect(await group.locator(".badge").textContent()).toBe("2")
          await group.getByLabel("Answer", { exact: true }).fill("Yes: gift wrapping is free at checkout.")
          await group.getByRole("button", { name: "Save" }).click()
          await group.getByText("Saved.").waitFor()

          // The next customer's rewording is served the curated answer, without a model.
          const reply = await ask("customer-new", "Is gift wrapping possible?")
          expect(reply.model).toBe("curated")

          // The thread shows the curated source; rating it down is kept.
          await page.goto(`/console/#/assistants/${assistantId}/conversations`)
          await page.getByRole("button", { name: "Is gift wrapping possible?" }).click()
          await page.getByText("curated answer", { exact: true }).waitFor()
          await page.getByRole("button", { name: "👎 Bad answer" }).click()
          await page.getByRole("button", { name: "👎 Bad answer", pressed: true }).waitFor()

          // The curated answer lists its hit.
          await page.goto(`/console/#/assistants/${assistantId}/curated`)
          const row = page.locator("tr", { hasText: "gift wrapping is free" })
          await row.waitFor()
          expect(await row.locator("td").nth(2).textContent()).toBe("1")

          // Persian: the same views, right to left.
          await page.getByRole("combobox", { name: "Language" }).selectOption("fa")
          await page.getByRole("link", { name: "گفتگوها" }).click()
          await page.getByRole("heading", { name: "گفتگوها", level: 2 }).waitFor()
          expect(await page.getAttribute("html", "dir")).toBe("rtl")
        } finally {
          await context.close()
        }
      })))
})
