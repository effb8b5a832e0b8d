/**
 * Connecting messengers from the console, in a real browser against the real
 * service: a Bale bot in English, a WhatsApp number in Persian. A local server
 * plays both platforms (Bale's Bot API, WhatsApp's Graph API).
 */
import { adminToken, TestApp } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import { afterAll } from "vitest"
import { serverUrl, useBrowser } from "./support/Harness"

/** Every request the platforms got, and a server answering as Bale (`/bot…`) or the Graph API (`/v…`). */
const seen: Array<{ readonly path: string; readonly body: string }> = []
const platforms = http.createServer((request, response) => {
  let body = ""
  request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
  request.on("end", () => {
    const path = request.url ?? "/"
    seen.push({ path, body })
    response.writeHead(200, { "content-type": "application/json" })
    response.end(JSON.stringify(
      path.startsWith("/bot")
        ? { ok: true, result: path.endsWith("/getMe") ? { id: 1, is_bot: true, username: "tea_bale_bot" } : true }
        : { id: "106540352242922", display_phone_number: "+1 555 0100", verified_name: "Tea shop" }
    ))
  })
})
const platformsUrl = await new Promise<string>((resolve) =>
  platforms.listen(0, "127.0.0.1", () => {
    const address = platforms.address()
    resolve(`http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`)
  })
)

const browser = useBrowser()

afterAll(async () => {
  await new Promise((done) => platforms.close(done))
})

const adminPost = async (baseUrl: string, path: string, body: unknown) => {
  const response = await fetch(`${baseUrl}/admin/v1${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  const json: { readonly data: { readonly id: string } } = await response.json()
  return json.data.id
}

const env = {
  DASTYAR_BALE_API_BASE: platformsUrl,
  DASTYAR_WHATSAPP_API_BASE: platformsUrl,
  DASTYAR_PUBLIC_URL: "https://shop.example.com",
  DASTYAR_SECRET_KEY: Buffer.alloc(32, 3).toString("base64")
}

layer(TestApp(env), { excludeTestServices: true, timeout: 180_000 })("connecting messengers in the console", (it) => {
  it.effect(
    "a Bale bot in English and a WhatsApp number in Persian",
    () =>
      Effect.flatMap(serverUrl, (baseUrl) =>
        Effect.promise(async () => {
          const accountId = await adminPost(baseUrl, "/accounts", { name: "Tea shop" })
          const assistantId = await adminPost(baseUrl, `/accounts/${accountId}/assistants`, { name: "Helper" })
          const context = await browser().newContext({ viewport: { width: 1280, height: 900 }, baseURL: baseUrl })
          const page = await context.newPage()
          page.setDefaultTimeout(30_000)
          try {
            await page.goto("/console/")
            await page.getByRole("textbox", { name: "Operator token" }).fill(adminToken)
            await page.getByRole("button", { name: "Sign in" }).click()
            await page.getByRole("heading", { name: "Accounts", level: 1 }).waitFor()
            await page.goto(`/console/#/assistants/${assistantId}/connections`)
            await page.getByRole("heading", { name: "Messenger connections" }).waitFor()

            // Bale: one token; the webhook is registered by the service.
            await page.getByLabel("Kind").selectOption("bale")
            await page.getByLabel("Bot token").fill(`4242:${"b".repeat(32)}`)
            await page.getByRole("button", { name: "Create", exact: true }).click()
            await page.getByText("@tea_bale_bot").waitFor()
            expect(seen.some((request) => request.path.endsWith("/setWebhook"))).toBe(true)

            // WhatsApp, in Persian: the four values from the Meta app.
            await page.getByLabel("Language").selectOption("fa")
            await page.getByRole("heading", { name: "اتصال‌های پیام‌رسان" }).waitFor()
            await page.getByLabel("نوع").selectOption("whatsapp")
            await page.getByLabel("شناسهٔ شمارهٔ تلفن").fill("106540352242922")
            await page.getByLabel("توکن دسترسی").fill(`EAAG${"t".repeat(40)}`)
            await page.getByLabel("رمز اپ (App secret)").fill("0123456789abcdef0123456789abcdef")
            await page.getByLabel("توکن تأیید").fill("tea-shop-verify")
            await page.getByRole("button", { name: "ساختن", exact: true }).click()
            await page.getByText("106540352242922").waitFor()
            const hookUrls = await page.locator("code").allInnerTexts()
            expect(hookUrls.some((url) => url.startsWith("https://shop.example.com/hooks/whatsapp/con_"))).toBe(true)
            expect(seen.some((request) => request.path.startsWith("/v24.0/106540352242922"))).toBe(true)
            expect(await page.content()).not.toContain("tea-shop-verify")
          } catch (error) {
            await page.screenshot({ path: "/tmp/connections-failure.png", fullPage: true }).catch(() => undefined)
            throw error
          } finally {
            await context.close()
          }
        })),
    { timeout: 180_000 }
  )
})
