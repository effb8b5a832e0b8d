/**
 * The pages the server serves itself (`/console`, `/docs`) run only their own
 * scripts and cannot be framed by another site.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"
import { call, TestApp } from "../support/TestApp"

const inlineScripts = (html: string) =>
  Array.from(html.matchAll(/<script(?![^>]*application\/json)[^>]*>([\s\S]*?)<\/script>/g), (match) => match[1] ?? "")
    .filter((script) => script.length > 0)

layer(TestApp(), { excludeTestServices: true })("page headers", (it) => {
  it.effect("/console and /docs send a CSP without framing, nosniff and a referrer policy", () =>
    Effect.gen(function*() {
      for (const path of ["/console", "/console/whatever", "/docs"]) {
        const reply = yield* call("GET", path)
        const csp = reply.headers["content-security-policy"] ?? ""
        expect(csp).toContain("frame-ancestors 'none'")
        expect(csp).toContain("object-src 'none'")
        expect(csp).not.toContain("'unsafe-eval'")
        expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/)
        expect(reply.headers["x-content-type-options"]).toBe("nosniff")
        expect(reply.headers["referrer-policy"]).toBe("strict-origin-when-cross-origin")
      }
    }))

  it.effect("the reference's inline scripts are allowed by hash, one by one", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/docs")
      const scripts = inlineScripts(reply.text)
      expect(scripts).toHaveLength(2)
      const csp = reply.headers["content-security-policy"] ?? ""
      for (const script of scripts) {
        expect(csp).toContain(`'sha256-${createHash("sha256").update(script).digest("base64")}'`)
      }
    }))
})
