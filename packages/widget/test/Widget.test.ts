/**
 * The website widget in a real browser (Debian's Chromium through
 * playwright-core) on a shop's page served from another origin, embedded with
 * the snippet exactly as the connection returns it, against the real service
 * behind a proxy at its public address. Screenshots go to docs/.
 */
import { adminToken, TestApp } from "@dastyar/server/Testing"
import { chromiumLaunchOptions } from "@dastyar/server/TestingBrowser"
import { HttpServer } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as http from "node:http"
import { fileURLToPath } from "node:url"
import { type Browser, chromium, type Page } from "playwright-core"
import { afterAll, beforeAll } from "vitest"

const docsDir = fileURLToPath(new URL("../../../docs/", import.meta.url))

const listen = (server: http.Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      resolve(`http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`)
    })
  )

/** The service's public address: a proxy in front of the test server (whose port is known only once it runs). */
let upstream: URL | undefined
/** While set, the widget's settings (`…/config`) are answered only once it resolves: a slow network. */
let configHeld: Promise<void> | undefined
const proxy = http.createServer(async (request, response) => {
  if (upstream === undefined) return void response.writeHead(503).end()
  if (configHeld !== undefined && request.url?.endsWith("/config") === true) await configHeld
  const forwarded = http.request(
    {
      host: upstream.hostname,
      port: upstream.port,
      method: request.method,
      path: request.url,
      headers: request.headers
    },
    (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers)
      answer.pipe(response)
    }
  )
  request.pipe(forwarded)
})
const publicUrl = await listen(proxy)

/** A shop's site: an English page, a Persian page, and a product picture, each embedding `snippet`. */
let snippet = ""
const page = (lang: "en" | "fa") =>
  `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" ` +
  `content="width=device-width, initial-scale=1"><title>Tea shop</title><style>body{font:16px Georgia,serif;` +
  `margin:40px;color:#333} *{box-sizing:content-box!important}</style></head><body><h1>${
    lang === "fa" ? "چای‌فروشی" : "Tea shop"
  }</h1><p>${lang === "fa" ? "چای و قوری" : "Teas and teapots since 1990."}</p>${snippet}</body></html>`
const teapotSvg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="120"><rect width="200" height="120" ` +
  `fill="#1e3a8a"/><circle cx="100" cy="65" r="35" fill="#93c5fd"/></svg>`
const shopServer = () =>
  http.createServer((request, response) => {
    if (request.url === "/teapot.svg") {
      return void response.writeHead(200, { "content-type": "image/svg+xml" }).end(teapotSvg)
    }
    response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(
      page(request.url === "/fa" ? "fa" : "en")
    )
  })
const shop = shopServer()
const elsewhere = shopServer()
const shopOrigin = await listen(shop)
const otherOrigin = await listen(elsewhere)

let browser: Browser

// The suite's global setup builds the console and the widget once; a build here would race the other files.
beforeAll(async () => {
  browser = await chromium.launch(chromiumLaunchOptions())
}, 120_000)

afterAll(async () => {
  await browser?.close()
  for (const server of [proxy, shop, elsewhere]) server.close()
})

const json = async (method: string, path: string, token: string, body?: unknown) => {
  const response = await fetch(`${publicUrl}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  const parsed: { data: Record<string, unknown> } = await response.json()
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(parsed)}`)
  return parsed.data
}

const until = async <A>(what: string, check: () => Promise<A | undefined>) => {
  for (let attempt = 0; attempt < 300; attempt++) {
    const found = await check()
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`timed out waiting for ${what}`)
}

const shipping = "# Shipping\n\nWe ship to every city in Iran, including Shiraz.\n" +
  "Delivery to Shiraz takes three to five working days.\n"
const shippingFa = "# ارسال\n\nبه همهٔ شهرهای ایران از جمله شیراز ارسال می‌کنیم.\n" +
  "ارسال به شیراز سه تا پنج روز کاری طول می‌کشد.\n"

/** An account, an assistant with two documents and a product, and a web connection for the shop. */
const seed = async () => {
  const admin = (method: string, path: string, body?: unknown) => json(method, `/admin/v1${path}`, adminToken, body)
  const account = await admin("POST", "/accounts", { name: "Tea shop" })
  const key = String((await admin("POST", `/accounts/${String(account.id)}/keys`, { name: "widget" })).key)
  const assistant = await admin("POST", `/accounts/${String(account.id)}/assistants`, { name: "Tea helper" })
  const assistantId = String(assistant.id)
  await until(
    "the assistant",
    async () => (await admin("GET", `/assistants/${assistantId}`)).status === "active" || undefined
  )
  const api = `/v1/assistants/${assistantId}`
  await json("POST", `${api}/documents/text`, key, { filename: "shipping.md", content: shipping })
  await json("POST", `${api}/documents/text`, key, { filename: "ارسال.md", content: shippingFa })
  await json("POST", `${api}/products`, key, {
    externalId: "teapot-blue",
    title: "Blue ceramic teapot",
    category: "Kitchen",
    description: "A blue ceramic teapot, one litre.",
    price: 890000,
    currency: "IRR",
    imageUrl: `${shopOrigin}/teapot.svg`,
    url: `${shopOrigin}/teapot`
  })
  await json("POST", `${api}/products`, key, {
    externalId: "teapot-blue-fa",
    title: "قوری سرامیکی آبی",
    category: "آشپزخانه",
    price: 890000,
    currency: "IRR",
    imageUrl: `${shopOrigin}/teapot.svg`,
    url: `${shopOrigin}/fa/teapot`
  })
  await until("the documents", async () => {
    const jobs = (await json("GET", `${api}/documents/jobs`, key)).list
    return Array.isArray(jobs) && jobs.length === 2 && jobs.every((job) => job.status === "ready") || undefined
  })
  await until(
    "the product",
    async () => (await json("GET", `${api}/products/teapot-blue`, key)).indexState === "synced" || undefined
  )
  const connection = await admin("POST", `/assistants/${assistantId}/connections`, {
    driver: "web",
    allowedOrigins: [shopOrigin],
    title: "Tea shop",
    greeting: "Hello! Ask me about our teas and deliveries.",
    colour: "#1e3a8a"
  })
  return { assistantId, key, snippet: String(connection.embedSnippet) }
}

/** The widget's answers (assistant bubbles) on the page. */
const answers = (page: Page) => page.locator(".msg.assistant")

const ask = async (page: Page, question: string) => {
  const before = await answers(page).count()
  await page.getByRole("textbox", { name: /Your message|پیام شما/ }).fill(question)
  await page.keyboard.press("Enter")
  await page.locator(".msg.user", { hasText: question }).waitFor()
  await until("the answer", async () => (await answers(page).count()) > before || undefined)
  await page.locator(".typing").waitFor({ state: "hidden" })
  return answers(page).last()
}

/** Figures the test measures, printed even when it passes (the runner hides a passing test's console). */
const report = (line: string) => process.stderr.write(`${line}\n`)

const firstPaint = (page: Page) =>
  page.evaluate(() => performance.getEntriesByName("dastyar-widget-paint")[0]?.startTime ?? -1)

const messagesStored = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) =>
    Effect.map(sql<{ count: string }>`SELECT count(*) AS count FROM chat_messages`, (rows) => Number(rows[0]?.count))
).pipe(Effect.orDie)

layer(TestApp({ DASTYAR_PUBLIC_URL: publicUrl, DASTYAR_SECRET_KEY: "ef".repeat(32) }), {
  excludeTestServices: true,
  timeout: 240_000
})("widget in a browser", (it) => {
  it.effect(
    "a visitor chats on the shop's own site in English and Persian; another site is refused",
    () =>
      Effect.gen(function*() {
        const { address } = yield* HttpServer.HttpServer
        if (address._tag !== "TcpAddress") return yield* Effect.die(new Error("the test server is not on TCP"))
        upstream = new URL(`http://127.0.0.1:${address.port}`)
        const seeded = yield* Effect.promise(seed)
        snippet = seeded.snippet
        expect(snippet).toBe(
          `<script src="${publicUrl}/widget.js" data-connection="${
            snippet.match(/data-connection="([^"]+)"/)?.[1]
          }" async></script>`
        )

        yield* Effect.promise(async () => {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
          const page = await context.newPage()
          page.setDefaultTimeout(30_000)
          await page.goto(`${shopOrigin}/`)
          const launcher = page.getByRole("button", { name: "Open chat: Tea shop" })
          await launcher.waitFor()
          report(`widget first paint: ${(await firstPaint(page)).toFixed(0)} ms after navigation start`)

          // By keyboard: the launcher is the page's first stop, Enter opens it and the text box has the focus.
          await page.keyboard.press("Tab")
          expect(await launcher.evaluate((element) => element.getRootNode() instanceof ShadowRoot)).toBe(true)
          await page.keyboard.press("Enter")
          expect(await launcher.getAttribute("aria-expanded")).toBe("true")
          await page.getByText("Hello! Ask me about our teas and deliveries.").waitFor()
          const textbox = page.getByRole("textbox", { name: "Your message" })
          expect(
            await textbox.evaluate((element) => {
              const root = element.getRootNode()
              return root instanceof ShadowRoot && root.activeElement === element
            })
          ).toBe(true)
          expect(await page.locator("[aria-live=polite]").count()).toBe(1)

          // The typing indicator shows while the answer streams in.
          await page.evaluate(() => {
            const typing = document.querySelector("[id^=dastyar-widget-]")?.shadowRoot?.querySelector(".typing")
            if (!(typing instanceof HTMLElement)) throw new Error("no typing indicator")
            new MutationObserver(() => {
              if (!typing.hidden) typing.dataset.seen = "yes"
            }).observe(typing, { attributeFilter: ["hidden"] })
          })
          const shipped = await ask(page, "How long does delivery to Shiraz take?")
          expect(await page.locator(".typing").getAttribute("data-seen")).toBe("yes")
          expect(await shipped.textContent()).toContain("three to five working days")
          await shipped.locator("summary", { hasText: "Sources" }).click()
          await shipped.locator("summary", { hasText: "shipping.md" }).click()
          expect(await shipped.locator("details details p").first().isVisible()).toBe(true)
          expect(await shipped.locator("details details p").first().textContent()).toContain(
            "Delivery to Shiraz takes three to five working days."
          )
          expect(await page.locator("[aria-live=polite]").textContent()).toContain("three to five")

          const teapot = await ask(page, "Do you have a blue teapot?")
          const card = teapot.getByRole("link", { name: "View product: Blue ceramic teapot" })
          await card.waitFor()
          expect(await card.getAttribute("href")).toBe(`${shopOrigin}/teapot`)
          expect(await card.locator(".price").textContent()).toMatch(/IRR|ریال/)

          // A thumbs-down with a comment under the answer; the shop reads it in its conversation log.
          const down = teapot.getByRole("button", { name: "Not a helpful answer" })
          await down.click()
          await until("the vote", async () => (await down.getAttribute("aria-pressed")) === "true" || undefined)
          expect(await teapot.getByRole("button", { name: "Helpful answer", exact: true }).getAttribute("aria-pressed"))
            .toBe(
              "false"
            )
          await teapot.getByRole("textbox", { name: "What was missing? (optional)" }).fill("Which sizes are there?")
          await teapot.getByRole("button", { name: "Send comment" }).click()
          await teapot.getByText("Thank you for your feedback.").waitFor()
          const logged = await json(
            "GET",
            `/v1/assistants/${seeded.assistantId}/conversations?negativeFeedback=true`,
            seeded.key
          )
          const listed = Array.isArray(logged.list) ? logged.list : []
          expect(listed).toHaveLength(1)
          const thread = await json(
            "GET",
            `/v1/assistants/${seeded.assistantId}/conversations/${listed[0].id}`,
            seeded.key
          )
          const rated = Array.isArray(thread.messages)
            ? thread.messages.filter((message) => message.feedback !== null)
            : []
          expect(rated).toEqual([
            expect.objectContaining({
              role: "assistant",
              feedback: expect.objectContaining({ rating: "down", comment: "Which sizes are there?" })
            })
          ])
          await page.screenshot({ path: `${docsDir}widget-desktop-en.png` })

          // Persian by the switch: right to left, and a Persian answer with its source.
          await page.getByRole("button", { name: "Switch to Persian" }).click()
          expect(await page.locator(".root").getAttribute("dir")).toBe("rtl")
          const persian = await ask(page, "ارسال به شیراز چند روز طول می‌کشد؟")
          expect(await persian.textContent()).toContain("سه تا پنج روز")
          await persian.locator("summary", { hasText: "منابع" }).click()
          expect(await persian.locator("summary").allTextContents()).toContain("ارسال.md")

          // A reload continues the conversation; "new conversation" starts another.
          await page.reload()
          await page.getByRole("button", { name: /باز کردن گفتگو/ }).click()
          await until(
            "the conversation again",
            async () => (await page.locator(".msg.user").count()) === 3 || undefined
          )
          // The three answers again (the greeting is for an empty conversation only), with their sources.
          expect(await answers(page).count()).toBe(3)
          expect(await answers(page).first().locator("summary", { hasText: "shipping.md" }).count()).toBe(1)
          expect(await page.locator(".msg.user").allTextContents()).toEqual([
            "How long does delivery to Shiraz take?",
            "Do you have a blue teapot?",
            "ارسال به شیراز چند روز طول می‌کشد؟"
          ])
          await page.getByRole("button", { name: "گفتگوی تازه" }).click()
          await until("an empty conversation", async () => (await page.locator(".msg.user").count()) === 0 || undefined)
          await page.reload()
          await page.getByRole("button", { name: /باز کردن گفتگو/ }).click()
          await page.getByText("Hello! Ask me about our teas and deliveries.").waitFor()
          expect(await page.locator(".msg.user").count()).toBe(0)
          await context.close()
        })

        // The Persian page: right to left from the page's `lang`, Persian words.
        yield* Effect.promise(async () => {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
          const page = await context.newPage()
          await page.goto(`${shopOrigin}/fa`)
          await page.getByRole("button", { name: "باز کردن گفتگو: Tea shop" }).click()
          expect(await page.locator(".root").getAttribute("dir")).toBe("rtl")
          await ask(page, "ارسال به شیراز چند روز طول می‌کشد؟")
          const teapot = await ask(page, "قوری سرامیکی آبی دارید؟")
          // The price in Persian digits with its currency.
          expect(await teapot.locator(".card .price").textContent()).toMatch(/۸۹۰/)
          await page.screenshot({ path: `${docsDir}widget-desktop-fa.png` })
          await context.close()
        })

        // A phone: the panel takes the whole screen.
        yield* Effect.promise(async () => {
          const context = await browser.newContext({
            viewport: { width: 390, height: 844 },
            isMobile: true,
            hasTouch: true
          })
          const page = await context.newPage()
          await page.goto(`${shopOrigin}/`)
          await page.getByRole("button", { name: "Open chat: Tea shop" }).click()
          await ask(page, "Do you ship to Shiraz?")
          const box = await page.getByRole("dialog").boundingBox()
          expect(box?.width).toBe(390)
          await page.screenshot({ path: `${docsDir}widget-mobile.png` })
          await context.close()
        })

        // A visitor who types before the widget's settings have arrived is answered once they do, not refused.
        yield* Effect.promise(async () => {
          let release = () => {}
          configHeld = new Promise<void>((resolve) => (release = resolve))
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
          const page = await context.newPage()
          await page.goto(`${shopOrigin}/`)
          await page.getByRole("button", { name: /^Open chat/ }).click()
          await page.getByRole("textbox", { name: "Your message" }).fill("Do you ship to Shiraz?")
          await page.keyboard.press("Enter")
          configHeld = undefined
          release()
          await until("the answer", async () => (await answers(page).count()) > 0 || undefined)
          // The turn is over (and stored) before the next part counts the stored messages.
          await page.locator(".typing").waitFor({ state: "hidden" })
          // The conversation the panel opened meanwhile is shown with the message, not in its place.
          expect(await page.locator(".msg.user").allTextContents()).toEqual(["Do you ship to Shiraz?"])
          expect(await page.getByRole("alert").filter({ hasText: "not available" }).count()).toBe(0)
          await context.close()
        })

        // The same page on a site that is not in the list: a clear message, and the server runs no turn.
        const before = yield* messagesStored
        yield* Effect.promise(async () => {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
          const page = await context.newPage()
          await page.goto(`${otherOrigin}/`)
          await page.getByRole("button", { name: "Open chat" }).click()
          await page.getByRole("alert").filter({ hasText: "This chat is not available on this website." }).waitFor()
          await page.getByRole("textbox", { name: "Your message" }).fill("Do you ship to Shiraz?")
          await page.keyboard.press("Enter")
          expect(await answers(page).count()).toBe(0)
          await context.close()
        })
        expect(yield* messagesStored).toBe(before)

        // The console previews the widget on its own page; the connection's allowed sites stay as they were.
        yield* Effect.promise(async () => {
          const context = await browser.newContext({ viewport: { width: 1280, height: 800 } })
          const page = await context.newPage()
          page.setDefaultTimeout(30_000)
          await page.goto(`${publicUrl}/console/`)
          await page.getByRole("textbox", { name: "Operator token" }).fill(adminToken)
          await page.getByRole("button", { name: "Sign in" }).click()
          await page.getByRole("heading", { name: "Accounts", level: 1 }).waitFor()
          await page.goto(`${publicUrl}/console/#/assistants/${seeded.assistantId}/connections`)
          expect(await page.getByTestId("embed-snippet").textContent()).toBe(snippet)
          await page.getByRole("button", { name: "Preview on this page" }).click()
          await page.getByRole("button", { name: "Open chat: Tea shop" }).click()
          const answer = await ask(page, "Do you ship to Shiraz?")
          expect(await answer.textContent()).toContain("Shiraz")
          await page.getByRole("button", { name: "Stop preview" }).click()
          await page.getByRole("button", { name: "Open chat: Tea shop" }).waitFor({ state: "detached" })
          await context.close()
        })
        const connections = yield* Effect.promise(() =>
          json("GET", `/admin/v1/assistants/${seeded.assistantId}/connections`, adminToken)
        )
        expect(connections).toMatchObject({ list: [{ web: { allowedOrigins: [shopOrigin] } }] })
      }),
    240_000
  )
})
