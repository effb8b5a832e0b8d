/**
 * The built console in a real browser (Debian's Chromium through
 * playwright-core) against the real service: sign-in, an account, a key copied
 * once, an assistant, two documents, a product import found by search, a
 * streamed chat answer with a source, Persian right to left, and a revoked key
 * refused. Screenshots go to docs/ for the README.
 */
import { adminToken, TestApp } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"
import { type Page } from "playwright-core"
import { againstServer, useBrowser } from "./support/Harness"

const docsDir = fileURLToPath(new URL("../../../docs/", import.meta.url))

const browser = useBrowser()

/** The API's own message for a request, in a language, to compare with what the page shows. */
const apiMessage = async (url: string, init: RequestInit) => {
  const body: unknown = await (await fetch(url, init)).json()
  const message = typeof body === "object" && body !== null && "response" in body &&
      typeof body.response === "object" && body.response !== null && "message" in body.response
    ? body.response.message
    : undefined
  if (typeof message !== "string") throw new Error(`no envelope message from ${url}`)
  return message
}

const csv = [
  "externalId,title,category,price,currency,inStock,color",
  "teapot-blue,Blue ceramic teapot,Kitchen,890000,IRR,true,blue",
  "mug-red,Red enamel mug,Kitchen,250000,IRR,true,red",
  "kettle-steel,Steel kettle,Kitchen,1200000,IRR,false,silver"
].join("\n")

const shipping =
  "# Shipping\n\nWe ship to every city in Iran, including Shiraz.\nDelivery to Shiraz takes three to five working days.\n"
const returns = "# Returns\n\nUnused items can be returned within fourteen days of delivery for a full refund.\n"

const noHorizontalScroll = (page: Page) =>
  page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth)

layer(TestApp(), { excludeTestServices: true, timeout: 180_000 })("console in a browser", (it) => {
  it.effect(
    "an operator and a shop owner do everything through the console, in English and Persian",
    () =>
      againstServer(async (baseUrl) => {
        const context = await browser().newContext({ viewport: { width: 1440, height: 1000 }, baseURL: baseUrl })
        await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl })
        const page = await context.newPage()
        page.setDefaultTimeout(30_000)
        try {
          // Sign-in: a wrong token shows the API's own message.
          await page.goto("/console/")
          await expect(page.locator("html")).toBeTruthy()
          expect(await page.getAttribute("html", "dir")).toBe("ltr")
          await page.getByRole("textbox", { name: "Operator token" }).fill("not-the-token")
          await page.getByRole("button", { name: "Sign in" }).click()
          const refused = await apiMessage(`${baseUrl}/admin/v1/content/articles`, {
            headers: { authorization: "Bearer not-the-token" }
          })
          await page.getByRole("alert").filter({ hasText: refused }).waitFor()
          await page.getByRole("textbox", { name: "Operator token" }).fill(adminToken)
          await page.getByRole("button", { name: "Sign in" }).click()
          await page.getByRole("heading", { name: "Accounts", level: 1 }).waitFor()
          expect(await page.evaluate(() => Object.keys(sessionStorage))).toContain("dastyar.console.session")
          expect(await page.evaluate(() => Object.keys(localStorage).filter((key) => key.includes("session")))).toEqual(
            []
          )

          // An account, a key shown once and copied, an assistant that turns active.
          await page.getByLabel("Name", { exact: true }).first().fill("Tea shop")
          await page.getByRole("button", { name: "Create", exact: true }).click()
          await page.getByRole("heading", { name: "Tea shop" }).waitFor()
          await page.getByLabel("Key name").fill("console")
          await page.getByRole("button", { name: "Create key" }).click()
          const rawKey = (await page.getByTestId("raw-key").textContent()) ?? ""
          expect(rawKey.length).toBeGreaterThan(20)
          await page.getByRole("button", { name: "Copy key" }).click()
          await page.getByRole("button", { name: "Copied" }).waitFor()
          expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(rawKey)
          await page.getByRole("button", { name: "Use this key in the console" }).click()
          expect(await page.getByTestId("raw-key").count()).toBe(0)
          expect(await page.content()).not.toContain(rawKey)

          const modelSelect = page.getByLabel("Model")
          await modelSelect.locator("option").nth(1).waitFor({ state: "attached" })
          await modelSelect.selectOption({ index: 1 })
          await page.getByLabel("Name", { exact: true }).nth(1).fill("Helper")
          await page.getByRole("button", { name: "Create assistant" }).click()
          await page.locator(".badge-active", { hasText: "active" }).first().waitFor()

          // Two documents, each followed until ready, then listed.
          await page.getByRole("link", { name: "Helper" }).click()
          await page.getByRole("heading", { name: "Documents", level: 2 }).waitFor()
          await page.getByTestId("document-files").setInputFiles([
            { name: "shipping.md", mimeType: "text/markdown", buffer: Buffer.from(shipping) },
            { name: "returns.txt", mimeType: "text/plain", buffer: Buffer.from(returns) }
          ])
          await page.locator(".uploads li[data-stage=\"ready\"]").nth(1).waitFor()
          await page.getByRole("cell", { name: "shipping.md" }).waitFor()
          await page.getByRole("cell", { name: "returns.txt" }).waitFor()

          // A CSV import, previewed, sent, then found by the search playground.
          await page.getByRole("link", { name: "Products" }).click()
          await page.getByLabel("CSV or JSON file").setInputFiles({
            name: "products.csv",
            mimeType: "text/csv",
            buffer: Buffer.from(csv)
          })
          await page.getByText("3 rows read, 0 with errors.").waitFor()
          await page.getByRole("button", { name: "Import 3 products" }).click()
          await page.getByText("Imported: 3 created, 0 updated, 0 unchanged.").waitFor()
          await page.getByRole("cell", { name: "Blue ceramic teapot" }).waitFor()

          await page.getByRole("link", { name: "Search playground" }).click()
          await page.getByLabel("Query").fill("teapot")
          // Indexing finishes in the background within seconds: search until it shows.
          await expect.poll(async () => {
            await page.getByRole("button", { name: "Search", exact: true }).click()
            await page.getByRole("list", { name: "Results" }).waitFor()
            return page.getByRole("list", { name: "Results" }).innerText()
          }, { timeout: 30_000, interval: 500 }).toContain("Blue ceramic teapot")
          await expect.poll(() => page.getByRole("list", { name: "Results" }).innerText()).toMatch(/distance \d/)

          // A streamed answer with its source.
          await page.getByRole("link", { name: "Chat playground" }).click()
          await page.getByLabel("Message").fill("Do you ship to Shiraz?")
          const streamed = page.waitForResponse((response) => response.url().endsWith("/chat"))
          await page.getByRole("button", { name: "Send" }).click()
          const response = await streamed
          expect(response.headers()["content-type"]).toContain("text/event-stream")
          expect(response.request().postDataJSON()).toMatchObject({ stream: true, message: "Do you ship to Shiraz?" })
          await page.getByTestId("source").filter({ hasText: "shipping.md" }).first().waitFor()
          expect(await page.getByTestId("answer").innerText()).toContain("Shiraz")
          fs.mkdirSync(docsDir, { recursive: true })
          await page.screenshot({ path: `${docsDir}console-en.png` })

          // Persian: right to left throughout, Persian digits, and the conversation kept.
          await page.getByLabel("Language").selectOption("fa")
          await page.getByRole("heading", { name: "آزمایش گفت‌وگو" }).waitFor()
          expect(await page.getAttribute("html", "dir")).toBe("rtl")
          expect(await page.getAttribute("html", "lang")).toBe("fa")
          expect(await page.getByTestId("answer").innerText()).toContain("Shiraz")
          await page.getByRole("link", { name: "سندها" }).click()
          await page.getByRole("cell", { name: "shipping.md" }).waitFor()
          const direction = await page.locator("table").evaluate((table) => getComputedStyle(table).direction)
          expect(direction).toBe("rtl")
          const sizes = await page.locator("tbody tr td:nth-child(3)").allInnerTexts()
          expect(sizes.every((text) => /^[۰-۹]+$/.test(text))).toBe(true)
          await page.screenshot({ path: `${docsDir}console-fa.png` })

          // Narrow screens: nothing scrolls sideways at 375 px.
          await page.setViewportSize({ width: 375, height: 800 })
          expect(await noHorizontalScroll(page)).toBe(true)
          await page.setViewportSize({ width: 1440, height: 1000 })

          // Revoking the key: the next call with it is refused, with the API's message in Persian.
          await page.getByRole("link", { name: "حساب‌ها" }).click()
          await page.getByRole("button", { name: "باطل کردن" }).click()
          await page.getByRole("button", { name: "بله، باطل شود" }).click()
          await page.getByText("باطل‌شده").waitFor()
          await page.getByRole("link", { name: "دستیارها", exact: true }).click()
          const revoked = await apiMessage(`${baseUrl}/v1/assistants`, {
            headers: { authorization: `Bearer ${rawKey}`, "accept-language": "fa" }
          })
          await page.getByRole("alert").filter({ hasText: revoked }).waitFor()

          // Sign-out clears the session storage.
          await page.getByRole("button", { name: "خروج" }).click()
          await page.getByRole("heading", { name: "ورود" }).waitFor()
          expect(await page.evaluate(() => Object.keys(sessionStorage).filter((key) => key.startsWith("dastyar"))))
            .toEqual([])
        } catch (error) {
          fs.mkdirSync(docsDir, { recursive: true })
          await page.screenshot({ path: "/tmp/console-failure.png", fullPage: true }).catch(() => undefined)
          throw error
        } finally {
          await context.close()
        }
      }),
    { timeout: 180_000 }
  )
})
