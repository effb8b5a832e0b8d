/**
 * The search playground in a real browser (Debian's Chromium) against the
 * real service: a shop owner adds synonyms, searches with one, narrows the
 * search by clicking facets (their counts over every match), changes the
 * order, and reads the same in Persian, right to left. The screenshot goes to docs/.
 */
import { adminToken, TestApp } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { fileURLToPath } from "node:url"
import { type Page } from "playwright-core"
import { api, field, serverUrl, useBrowser } from "./support/Harness"

const docsDir = fileURLToPath(new URL("../../../docs/", import.meta.url))

const browser = useBrowser()

/** Four kettles in two categories and three kitchen prices, and a hose that is no kettle. */
const products = [
  {
    externalId: "kettle-steel",
    title: "Steel kettle",
    category: "Kitchen",
    subcategory: "Teaware",
    price: 1200,
    color: "silver"
  },
  {
    externalId: "kettle-glass",
    title: "Glass kettle",
    category: "Kitchen",
    subcategory: "Teaware",
    price: 800,
    color: "clear"
  },
  {
    externalId: "kettle-electric",
    title: "Electric kettle",
    category: "Kitchen",
    subcategory: "Appliances",
    price: 2500,
    color: "black"
  },
  {
    externalId: "kettle-camping",
    title: "Camping kettle",
    category: "Outdoor",
    subcategory: "Cooking",
    price: 600,
    color: "black"
  },
  {
    externalId: "hose-green",
    title: "Garden hose",
    category: "Garden",
    subcategory: "Watering",
    price: 300,
    color: "green"
  }
].map(({ color, ...product }) => ({ ...product, currency: "USD", attributes: { color } }))

/** An account with a key and an active assistant whose catalog is indexed. */
const shop = async (baseUrl: string) => {
  const accountId = String(
    field(await api(baseUrl, adminToken, "POST", "/admin/v1/accounts", { name: "Kettles" }), "id")
  )
  const key = String(field(await api(baseUrl, adminToken, "POST", `/admin/v1/accounts/${accountId}/keys`, {}), "key"))
  const assistantId = String(
    field(
      await api(baseUrl, adminToken, "POST", `/admin/v1/accounts/${accountId}/assistants`, { name: "Helper" }),
      "id"
    )
  )
  await expect.poll(
    async () => field(await api(baseUrl, adminToken, "GET", `/admin/v1/assistants/${assistantId}`), "status"),
    {
      timeout: 30_000,
      interval: 100
    }
  ).toBe("active")
  await api(baseUrl, key, "POST", `/v1/assistants/${assistantId}/products/import`, { products })
  await expect.poll(async () => {
    const pending = field(
      await api(baseUrl, key, "GET", `/v1/assistants/${assistantId}/products?state=pending&limit=1`),
      "list"
    )
    return Array.isArray(pending) ? pending.length : -1
  }, { timeout: 30_000, interval: 100 }).toBe(0)
  return { key, assistantId }
}

/** The kettles among the results, in the order shown. */
const kettlesShown = (page: Page) => async () =>
  (await page.getByRole("list", { name: "Results" }).locator("code").allInnerTexts()).filter((id) =>
    id.startsWith("kettle-")
  )

layer(TestApp(), { excludeTestServices: true, timeout: 180_000 })("console: the search playground", (it) => {
  it.effect(
    "synonyms, facets as filters with their counts, and the orders, in English and Persian",
    () =>
      Effect.flatMap(serverUrl, (baseUrl) =>
        Effect.promise(async () => {
          const { assistantId, key } = await shop(baseUrl)
          const context = await browser().newContext({ viewport: { width: 1280, height: 1000 }, baseURL: baseUrl })
          const page = await context.newPage()
          page.setDefaultTimeout(30_000)
          try {
            await page.goto("/console/")
            await page.getByRole("radio", { name: "API key" }).check()
            await page.getByRole("textbox", { name: "API key" }).fill(key)
            await page.getByRole("button", { name: "Sign in" }).click()
            await page.getByRole("link", { name: "Assistants" }).first().waitFor()
            await page.goto(`/console/#/assistants/${assistantId}/search`)

            // Synonyms: a multi-way set and a one-way rule are listed; the rule is deleted again.
            const synonyms = page.getByRole("list", { name: "Synonyms of this assistant" })
            await synonyms.getByText("No synonyms yet.").waitFor()
            await page.getByLabel("Terms").fill("kettle, boiler")
            await page.getByRole("button", { name: "Add synonyms" }).click()
            await synonyms.locator("li", { hasText: "kettle, boiler" }).getByText("multi-way").waitFor()
            await page.getByLabel("Root (one-way only)").fill("flask")
            await page.getByLabel("Terms").fill("kettle")
            await page.getByRole("button", { name: "Add synonyms" }).click()
            const rule = synonyms.locator("li", { hasText: "flask → kettle" })
            await rule.getByText("one-way").waitFor()
            await rule.getByRole("button", { name: "Delete" }).click()
            await rule.getByRole("button", { name: "Yes, delete these synonyms" }).click()
            await rule.waitFor({ state: "detached" })
            expect(await synonyms.locator("li").count()).toBe(1)

            // A search with the synonym finds the kettles; the facets count every match.
            await page.getByLabel("Query").fill("boiler")
            await page.getByLabel("Count attributes").fill("color")
            await page.getByRole("button", { name: "Search", exact: true }).click()
            await expect.poll(async () => (await kettlesShown(page)()).sort()).toEqual([
              "kettle-camping",
              "kettle-electric",
              "kettle-glass",
              "kettle-steel"
            ])
            const category = page.getByRole("group", { name: "Category", exact: true })
            await category.getByRole("button", { name: "Kitchen 3" }).waitFor()
            await category.getByRole("button", { name: "Outdoor 1" }).waitFor()
            await page.getByRole("group", { name: "color", exact: true }).getByRole("button", { name: "black 2" })
              .waitFor()

            // A facet value narrows the search: its button is pressed, the filter shows and the counts follow.
            await category.getByRole("button", { name: "Kitchen 3" }).click()
            await category.getByRole("button", { name: "Kitchen 3", pressed: true }).waitFor()
            await expect.poll(async () => (await kettlesShown(page)()).sort()).toEqual([
              "kettle-electric",
              "kettle-glass",
              "kettle-steel"
            ])
            expect(await category.getByRole("button").count()).toBe(1)
            const subcategory = page.getByRole("group", { name: "Subcategory", exact: true })
            await subcategory.getByRole("button", { name: "Teaware 2" }).waitFor()
            await subcategory.getByRole("button", { name: "Appliances 1" }).waitFor()
            await page.getByRole("button", { name: "Clear Category: Kitchen" }).waitFor()

            // The orders re-order the matches at once.
            const order = page.getByRole("combobox", { name: "Order" })
            await order.selectOption({ label: "Price ↑ (lowest first)" })
            await expect.poll(kettlesShown(page)).toEqual(["kettle-glass", "kettle-steel", "kettle-electric"])
            await order.selectOption({ label: "Price ↓ (highest first)" })
            await expect.poll(kettlesShown(page)).toEqual(["kettle-electric", "kettle-steel", "kettle-glass"])
            fs.mkdirSync(docsDir, { recursive: true })
            await page.screenshot({ path: `${docsDir}console-search.png`, fullPage: true })

            // Clearing the filter brings the camping kettle back, still in price order.
            await page.getByRole("button", { name: "Clear Category: Kitchen" }).click()
            await expect.poll(kettlesShown(page)).toEqual([
              "kettle-electric",
              "kettle-steel",
              "kettle-glass",
              "kettle-camping"
            ])
            await category.getByRole("button", { name: "Outdoor 1", pressed: false }).waitFor()

            // Persian: right to left, the facets' names and counts in Persian.
            await page.getByRole("combobox", { name: "Language" }).selectOption("fa")
            await page.getByRole("heading", { name: "آزمایش جست‌وجو" }).waitFor()
            expect(await page.getAttribute("html", "dir")).toBe("rtl")
            await page.getByRole("group", { name: "دسته", exact: true }).getByRole("button", { name: "Kitchen ۳" })
              .waitFor()
            await page.getByRole("list", { name: "هم‌معنی‌های این دستیار" }).getByText("چندطرفه").waitFor()
            const direction = await page.locator(".facets").evaluate((element) => getComputedStyle(element).direction)
            expect(direction).toBe("rtl")
          } catch (error) {
            await page.screenshot({ path: "/tmp/console-search-failure.png", fullPage: true }).catch(() => undefined)
            throw error
          } finally {
            await context.close()
          }
        })),
    { timeout: 180_000 }
  )
})
