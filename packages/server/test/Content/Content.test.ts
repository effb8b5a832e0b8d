import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { adminToken, call, pick, TestApp } from "../support/TestApp"

/** The sorted `property` of each element of a validation error's `fields`. */
const invalidProperties = (json: unknown) => {
  const fields = pick(json, "fields")
  return Array.isArray(fields) ? fields.map((field) => String(pick(field, "property"))).sort() : []
}

const put = (type: string, slug: string, body: Record<string, unknown>) =>
  call("PUT", `/admin/v1/content/${type}/articles/${slug}`, { token: adminToken, body })

const article = (overrides: Record<string, unknown> = {}) => ({
  title: "Hello",
  summary: "A first post",
  markdown: "# Hello\n\nSome *text*.",
  category: "News",
  language: "en",
  tags: ["intro"],
  status: "published",
  ...overrides
})

const slugsOf = (json: unknown) => {
  const list = pick(json, "data", "list")
  return Array.isArray(list) ? list.map((item) => pick(item, "slug")) : []
}

/** XSS payloads, in Markdown and as raw HTML inside Markdown. */
const xssPayloads = [
  "<script>alert(1)</script>",
  "<SCRIPT SRC=https://evil.example/x.js></SCRIPT>",
  "<img src=x onerror=alert(1)>",
  "<img src=\"javascript:alert(1)\">",
  "<svg onload=alert(1)><circle r=1 /></svg>",
  "<a href=\"javascript:alert(1)\">click</a>",
  "<a href=\"JaVaScRiPt:alert(1)\">click</a>",
  "<a href=\"&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)\">entities</a>",
  "<a href=\"java\tscript:alert(1)\">tab</a>",
  "<a href=\"data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==\">data</a>",
  "<a href=\"vbscript:msgbox(1)\">vb</a>",
  "[md link](javascript:alert(1))",
  "[md entity](&#x6A;avascript:alert(1))",
  "![md image](javascript:alert(1))",
  "<iframe src=\"https://evil.example\"></iframe>",
  "<object data=\"https://evil.example/x.swf\"></object>",
  "<embed src=\"https://evil.example/x.swf\">",
  "<form action=\"https://evil.example\"><input name=q><button>go</button></form>",
  "<div style=\"background:url(javascript:alert(1))\">styled</div>",
  "<p onclick=\"alert(1)\" onmouseover=\"alert(1)\">hover</p>",
  "<body onload=alert(1)>",
  "<math><mi xlink:href=\"javascript:alert(1)\">x</mi></math>",
  "<details open ontoggle=alert(1)><summary>s</summary></details>",
  "<meta http-equiv=\"refresh\" content=\"0;url=javascript:alert(1)\">",
  "<base href=\"javascript:alert(1)//\">",
  "<link rel=stylesheet href=\"https://evil.example/x.css\">",
  "<style>body{background:red}</style>",
  "<a href=\"//evil.example\">protocol-relative</a>",
  "<scr<script>ipt>alert(1)</scr</script>ipt>",
  "<noscript><p title=\"</noscript><img src=x onerror=alert(1)>\"></noscript>",
  "<input type=\"text\" onfocus=\"alert(1)\" autofocus>"
]

const decodeEntities = (value: string) =>
  value
    .replace(/&#x([0-9a-f]+);?/gi, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))
    .replace(/&#(\d+);?/g, (_, dec: string) => String.fromCodePoint(Number(dec)))
    .replace(/&colon;/gi, ":").replace(/&tab;/gi, "\t").replace(/&newline;/gi, "\n").replace(/&amp;/g, "&")

/** Every way the HTML could still run script or load active content. */
const dangers = (html: string): Array<string> => {
  const found: Array<string> = []
  for (
    const tag of ["script", "iframe", "object", "embed", "form", "style", "meta", "base", "link", "svg", "math", "body"]
  ) {
    if (new RegExp(`<${tag}[\\s>/]`, "i").test(html)) found.push(`<${tag}>`)
  }
  for (const match of html.matchAll(/<[a-z][^>]*>/gi)) {
    for (const attribute of match[0].matchAll(/\s([^\s=/>]+)(?:=(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)) {
      const name = (attribute[1] ?? "").toLowerCase()
      const value = decodeEntities(attribute[2] ?? attribute[3] ?? attribute[4] ?? "").replace(/[\s\u0000-\u001f]/g, "")
      if (name.startsWith("on")) found.push(`${name}=`)
      if (name === "style") found.push("style=")
      if (/^(javascript|vbscript|data):/i.test(value)) found.push(`${name}=${value}`)
      if ((name === "href" || name === "src") && value.startsWith("//")) found.push(`${name}=${value}`)
    }
  }
  return found
}

layer(TestApp(), { excludeTestServices: true })("site content", (it) => {
  it.effect("drafts and scheduled articles never appear publicly; the operator sees them", () =>
    Effect.gen(function*() {
      const created = yield* put("blog", "draft-post", article({ status: "draft", title: "Secret" }))
      expect(created.status).toBe(200)
      expect(pick(created.json, "data", "outcome")).toBe("created")
      expect(pick(created.json, "data", "article", "publishedAt")).toBeNull()
      yield* put("blog", "later-post", article({ publishedAt: "2999-01-01T00:00:00Z" }))
      yield* put("blog", "live-post", article())

      expect(slugsOf((yield* call("GET", "/v1/content/blog/articles")).json)).toEqual(["live-post"])
      const draft = yield* call("GET", "/v1/content/blog/articles/draft-post")
      expect(draft.status).toBe(404)
      expect(draft.json).toEqual({
        data: null,
        response: { status: "not_found", message: "Article not found", code: "content.not_found" }
      })
      expect((yield* call("GET", "/v1/content/blog/articles/later-post")).status).toBe(404)
      const slugs = yield* call("GET", "/v1/content/slugs")
      expect(slugsOf(slugs.json)).toEqual(["live-post"])
      expect(pick(slugs.json, "data", "list", 0, "type")).toBe("blog")

      const adminView = yield* call("GET", "/admin/v1/content/articles?type=blog", { token: adminToken })
      expect(pick(adminView.json, "data", "count")).toBe(3)
      expect(
        yield* call("GET", "/admin/v1/content/blog/articles/draft-post", { token: adminToken }).pipe(
          Effect.map((reply) => pick(reply.json, "data", "status"))
        )
      ).toBe("draft")

      // Publishing the draft makes it public; unpublishing hides it again.
      yield* put("blog", "draft-post", article({ title: "Secret" }))
      const published = yield* call("GET", "/v1/content/blog/articles/draft-post")
      expect(published.status).toBe(200)
      expect(pick(published.json, "data", "markdown")).toBe("# Hello\n\nSome *text*.")
      expect(pick(published.json, "data", "html")).toBe("<h1>Hello</h1>\n<p>Some <em>text</em>.</p>\n")
      expect(pick(published.json, "data", "status")).toBeUndefined()
      yield* put("blog", "draft-post", article({ status: "draft" }))
      expect((yield* call("GET", "/v1/content/blog/articles/draft-post")).status).toBe(404)

      // Deleted is gone for everyone.
      expect((yield* call("DELETE", "/admin/v1/content/blog/articles/live-post", { token: adminToken })).status).toBe(
        200
      )
      expect((yield* call("GET", "/v1/content/blog/articles/live-post")).status).toBe(404)
      expect((yield* call("DELETE", "/admin/v1/content/blog/articles/live-post", { token: adminToken })).status).toBe(
        404
      )
    }))

  it.effect("lists are newest first, paginated, filtered by category and language; categories count articles", () =>
    Effect.gen(function*() {
      for (let day = 1; day <= 5; day++) {
        yield* put(
          "guides",
          `guide-${day}`,
          article({
            publishedAt: `2026-0${day}-01T00:00:00Z`,
            category: day % 2 === 0 ? "Even" : "Odd",
            language: day === 5 ? "fa" : "en"
          })
        )
      }
      const first = yield* call("GET", "/v1/content/guides/articles?limit=2")
      expect(slugsOf(first.json)).toEqual(["guide-5", "guide-4"])
      expect(pick(first.json, "data", "count")).toBe(5)
      expect(pick(first.json, "data", "list", 0, "markdown")).toBeUndefined()
      const last = yield* call("GET", "/v1/content/guides/articles?limit=2&offset=4")
      expect(slugsOf(last.json)).toEqual(["guide-1"])
      expect(pick(last.json, "data", "count")).toBe(5)

      const odd = yield* call("GET", "/v1/content/guides/articles?category=Odd&language=en")
      expect(slugsOf(odd.json)).toEqual(["guide-3", "guide-1"])
      expect(pick(odd.json, "data", "count")).toBe(2)

      const categories = yield* call("GET", "/v1/content/guides/categories")
      expect(pick(categories.json, "data")).toEqual({
        list: [{ name: "Even", articles: 2 }, { name: "Odd", articles: 3 }],
        count: 2
      })
      const persian = yield* call("GET", "/v1/content/guides/categories?language=fa")
      expect(pick(persian.json, "data", "list")).toEqual([{ name: "Odd", articles: 1 }])
      // Another type is another list.
      expect(pick((yield* call("GET", "/v1/content/changelog/articles")).json, "data")).toEqual({ list: [], count: 0 })

      const badLimit = yield* call("GET", "/v1/content/guides/articles?limit=500")
      expect(badLimit.status).toBe(400)
      expect(pick(badLimit.json, "fields", 0, "property")).toBe("limit")
      const badType = yield* call("GET", "/v1/content/news/articles")
      expect(badType.status).toBe(400)
      expect(pick(badType.json, "fields")).toEqual([{
        property: "type",
        constraints: ["must be one of: blog, guides, changelog"]
      }])
    }))

  it.effect("responses are public for 60 s with an ETag; If-None-Match gives 304; an unchanged write keeps it", () =>
    Effect.gen(function*() {
      yield* put("changelog", "v1", article({ title: "Version 1" }))
      const first = yield* call("GET", "/v1/content/changelog/articles/v1")
      expect(first.headers["cache-control"]).toBe("public, max-age=60")
      const etag = first.headers["etag"] ?? ""
      expect(etag).toMatch(/^"[\w-]{32}"$/)

      const notModified = yield* call("GET", "/v1/content/changelog/articles/v1", {
        headers: { "if-none-match": etag }
      })
      expect(notModified.status).toBe(304)
      expect(notModified.text).toBe("")
      expect(notModified.headers["etag"]).toBe(etag)
      expect(notModified.headers["cache-control"]).toBe("public, max-age=60")

      // Another language is another body, so another tag.
      const persian = yield* call("GET", "/v1/content/changelog/articles/v1", { headers: { "accept-language": "fa" } })
      expect(persian.headers["etag"]).not.toBe(etag)

      const again = yield* put("changelog", "v1", article({ title: "Version 1" }))
      expect(pick(again.json, "data", "outcome")).toBe("unchanged")
      expect((yield* call("GET", "/v1/content/changelog/articles/v1", { headers: { "if-none-match": etag } })).status)
        .toBe(304)

      const changed = yield* put("changelog", "v1", article({ title: "Version 1.0" }))
      expect(pick(changed.json, "data", "outcome")).toBe("updated")
      const fresh = yield* call("GET", "/v1/content/changelog/articles/v1", { headers: { "if-none-match": etag } })
      expect(fresh.status).toBe(200)
      expect(fresh.headers["etag"]).not.toBe(etag)
      expect(pick(fresh.json, "data", "title")).toBe("Version 1.0")

      // Lists and errors: lists are tagged too, errors are neither cacheable nor tagged.
      const list = yield* call("GET", "/v1/content/changelog/articles")
      expect(list.headers["etag"]).toBeDefined()
      const missing = yield* call("GET", "/v1/content/changelog/articles/nope")
      expect(missing.headers["etag"]).toBeUndefined()
      expect(missing.headers["cache-control"]).toBeUndefined()
    }))

  it.effect("Markdown is rendered and sanitised: no script, event handler or javascript: link survives", () =>
    Effect.gen(function*() {
      // The checker itself sees every raw HTML payload as dangerous (the Markdown ones become so once rendered).
      expect(xssPayloads.filter((payload) => dangers(payload).length === 0))
        .toEqual([
          "[md link](javascript:alert(1))",
          "[md entity](&#x6A;avascript:alert(1))",
          "![md image](javascript:alert(1))"
        ])
      for (const [index, payload] of xssPayloads.entries()) {
        const reply = yield* put("blog", `xss-${index}`, article({ markdown: `Before\n\n${payload}\n\nAfter` }))
        expect(reply.status).toBe(200)
        const html = String(pick(reply.json, "data", "article", "html"))
        expect({ payload, dangers: dangers(html) }).toEqual({ payload, dangers: [] })
        expect(html).toContain("After")
      }
      // What a site needs survives.
      const safe = yield* put(
        "blog",
        "safe",
        article({
          markdown:
            "## Title\n\n[site](https://example.com) ![logo](https://example.com/l.png)\n\n```ts\nconst a = 1\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |"
        })
      )
      const html = String(pick(safe.json, "data", "article", "html"))
      expect(html).toContain("<a href=\"https://example.com\">site</a>")
      expect(html).toContain("<img src=\"https://example.com/l.png\" alt=\"logo\" />")
      expect(html).toContain("<code class=\"language-ts\">")
      expect(html).toContain("<table>")
    }))

  it.effect("writes are validated and need the operator token", () =>
    Effect.gen(function*() {
      const badSlug = yield* put("blog", "Bad_Slug", article())
      expect(badSlug.status).toBe(400)
      expect(pick(badSlug.json, "fields", 0, "property")).toBe("slug")
      const badBody = yield* put("blog", "ok", { title: "", markdown: "x", language: "english", status: "live" })
      expect(badBody.status).toBe(400)
      expect(invalidProperties(badBody.json)).toEqual(["language", "status", "title"])
      const persianSlug = yield* put("blog", encodeURIComponent("راهنمای-خرید"), article({ language: "fa" }))
      expect(persianSlug.status).toBe(200)
      const anonymous = yield* call("PUT", "/admin/v1/content/blog/articles/x", { body: article() })
      expect(anonymous.status).toBe(401)
    }))
})
