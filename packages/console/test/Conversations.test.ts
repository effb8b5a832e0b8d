/**
 * The improvement loop in a real browser (Debian's Chromium through
 * playwright-core) against the real service: a shop owner signed in with a key
 * reads the unanswered report, answers a group as a curated answer, sees the
 * next customer served it in the conversation's thread, rates an answer and
 * finds the curated answer's hit; then the same views in Persian. A customer
 * who asks to be forgotten is, from their thread; the operator sets the
 * account's retention, reads it back, and the retention pass removes what is older.
 */
import { Retention } from "@dastyar/server/Conversations/Retention"
import { adminToken, TestApp } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import * as TestContext from "effect/TestContext"
import { serverUrl, useBrowser } from "./support/Harness"

const browser = useBrowser()

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
const shop = async (baseUrl: string, name = "Tea shop") => {
  const account = await api(baseUrl, adminToken, "POST", "/admin/v1/accounts", { name })
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

const listOf = (data: Record<string, unknown>) => (Array.isArray(data.list) ? data.list : [])

layer(TestApp(), { excludeTestServices: true, timeout: 180_000 })("console: the improvement loop", (it) => {
  it.effect("report → curated answer → served to the next customer → seen in the thread, in English and Persian", () =>
    Effect.flatMap(serverUrl, (baseUrl) =>
      Effect.promise(async () => {
        const { ask, assistantId, key } = await shop(baseUrl)
        const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, baseURL: baseUrl })
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

  it.effect("forgetting a customer from their thread, then retention set by the operator removes the old ones", () =>
    Effect.gen(function*() {
      const baseUrl = yield* serverUrl
      const { assistantId, ask, key } = yield* Effect.promise(() => shop(baseUrl, "Herb shop"))
      const conversations = (query = "") =>
        api(baseUrl, key, "GET", `/v1/assistants/${assistantId}/conversations${query}`).then(listOf)
      const context = yield* Effect.promise(() =>
        browser().newContext({ viewport: { width: 1280, height: 900 }, baseURL: baseUrl })
      )
      yield* Effect.addFinalizer(() => Effect.promise(() => context.close()))
      const page = yield* Effect.promise(() => context.newPage())
      page.setDefaultTimeout(30_000)

      // customer-1 asks twice; forgetting them from one thread deletes both conversations.
      yield* Effect.promise(async () => {
        await ask("customer-1", "Do you sell green tea?")
        await page.goto("/console/")
        await page.getByRole("radio", { name: "API key" }).check()
        await page.getByRole("textbox", { name: "API key" }).fill(key)
        await page.getByRole("button", { name: "Sign in" }).click()
        await page.getByRole("link", { name: "Assistants" }).first().waitFor()
        await page.goto(`/console/#/assistants/${assistantId}/conversations`)
        await page.getByRole("cell", { name: "customer-1" }).first().waitFor()
        await page.getByRole("button", { name: "Do you sell green tea?" }).click()
        await page.getByRole("button", { name: "Forget this customer" }).click()
        await page.getByRole("button", { name: "Yes, delete every conversation of this customer" }).click()
        await page.getByRole("cell", { name: "customer-1" }).first().waitFor({ state: "detached" })
        await page.getByRole("cell", { name: "customer-0" }).waitFor()
        expect(await page.getByRole("heading", { name: "Do you sell green tea?" }).count()).toBe(0)
        expect(await conversations("?principal=customer-1")).toEqual([])
        expect(await conversations()).toHaveLength(2)
      })

      // The operator keeps this account's conversations for 30 days.
      yield* Effect.promise(async () => {
        const operator = await context.newPage()
        await operator.goto("/console/")
        await operator.getByRole("textbox", { name: "Operator token" }).fill(adminToken)
        await operator.getByRole("button", { name: "Sign in" }).click()
        const card = operator.locator("article.card", { has: operator.getByRole("heading", { name: "Herb shop" }) })
        const retention = card.getByRole("form", { name: "Conversation retention" })
        const status = (form: typeof retention, text: string) =>
          form.getByRole("status").getByText(text, { exact: true }).waitFor()
        await status(retention, "Conversations are kept until deleted.")
        await retention.getByLabel("Keep conversations (days)").fill("30")
        await retention.getByRole("button", { name: "Save" }).click()
        await status(retention, "Saved: conversations idle for more than 30 days are deleted.")
        // Opened again, the card reads the stored retention from the API.
        await operator.reload()
        const reopened = operator.locator("article.card", { has: operator.getByRole("heading", { name: "Herb shop" }) })
          .getByRole("form", { name: "Conversation retention" })
        await status(reopened, "Conversations idle for more than 30 days are deleted.")
        expect(await reopened.getByLabel("Keep conversations (days)").inputValue()).toBe("30")
        await operator.close()
      })

      // Today nothing is old enough; 31 days on, the retention pass removes the rest and the list is empty.
      const retention = yield* Retention
      expect(yield* retention.purge).toBe(0)
      const purged = yield* Effect.gen(function*() {
        yield* TestClock.setTime(Date.now() + 31 * 86_400_000)
        return yield* retention.purge
      }).pipe(Effect.provide(TestContext.TestContext))
      expect(purged).toBe(2)
      yield* Effect.promise(async () => {
        expect(await conversations()).toEqual([])
        await page.reload()
        await page.getByText("No conversations match.").waitFor()
      })
    }).pipe(Effect.scoped))
})
