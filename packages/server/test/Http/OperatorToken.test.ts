/**
 * The operator token: a short or empty one stops the start in one line, an
 * empty bearer never matches, and a client IP that sends wrong tokens is
 * refused for the rest of the minute once past the limit.
 */
import { Auth } from "@dastyar/domain"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { spawnSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { AppConfig } from "../../src/Config"
import { AdminAuthLive, maxOperatorFailuresPerMinute } from "../../src/Http/Auth"
import { AdminToken } from "../../src/Platform/AdminToken"
import { layerLimiter, RateLimit } from "../../src/Platform/RateLimit"
import { adminToken, call, pick, TestApp } from "../support/TestApp"

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

/** The compiled server started with `token` as `DASTYAR_ADMIN_TOKEN`: its exit code and what it printed. */
const startWith = (token: string) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-token-"))
  try {
    const env: Record<string, string | undefined> = { ...process.env, DASTYAR_ADMIN_TOKEN: token }
    delete env.DATABASE_URL
    env.DASTYAR_DATA_DIR = dataDir
    const run = spawnSync(process.execPath, ["dist/js/main.js"], {
      cwd: serverDir,
      env,
      encoding: "utf8",
      timeout: 60_000
    })
    return { code: run.status, stderr: run.stderr, stdout: run.stdout }
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true })
  }
}

describe("a configured operator token", () => {
  it("shorter than 32 characters, empty included, stops the start with one line naming the setting", () => {
    for (const token of ["", "x".repeat(31)]) {
      const run = startWith(token)
      expect(run.code).toBe(1)
      expect(run.stdout).toBe("")
      const lines = run.stderr.trim().split("\n")
      expect(lines).toHaveLength(1)
      expect(lines[0]).toContain("DASTYAR_ADMIN_TOKEN")
      expect(lines[0]).toContain("at least 32 characters")
    }
  })
})

describe("the operator token check", () => {
  it.effect("never accepts an empty bearer, even against an empty token", () =>
    Effect.gen(function*() {
      const auth = yield* Auth.AdminAuth
      const request = HttpServerRequest.fromWeb(new Request("http://localhost/admin/v1/accounts"))
      const route: HttpRouter.RouteContext = {
        [HttpRouter.RouteContextTypeId]: HttpRouter.RouteContextTypeId,
        params: {},
        route: HttpRouter.makeRoute("GET", "/admin/v1/accounts", HttpServerResponse.empty())
      }
      const exit = yield* auth.adminToken(Redacted.make("")).pipe(
        Effect.provideService(HttpServerRequest.HttpServerRequest, request),
        Effect.provideService(HttpServerRequest.ParsedSearchParams, {}),
        Effect.provideService(HttpRouter.RouteContext, route),
        Effect.scoped,
        Effect.exit
      )
      expect(Exit.isFailure(exit)).toBe(true)
      expect(JSON.stringify(exit)).toContain("InvalidAdminToken")
    }).pipe(
      Effect.provide(
        AdminAuthLive.pipe(
          Layer.provide(Layer.succeed(AdminToken, AdminToken.make({ token: Redacted.make("") }))),
          Layer.provide(RateLimit.Default.pipe(Layer.provide(layerLimiter))),
          Layer.provide(AppConfig.Default)
        )
      )
    ))
})

// Behind one trusted proxy, so that each test is its own client IP (`X-Forwarded-For`).
layer(TestApp({ DASTYAR_TRUST_PROXY: "1" }), { excludeTestServices: true })("failed operator attempts", (it) => {
  const from = (address: string, token?: string) =>
    call("GET", "/admin/v1/accounts", {
      headers: { "x-forwarded-for": address },
      ...(token === undefined ? {} : { token })
    })

  it.effect("past the limit a client IP is refused with 429 and Retry-After, whatever it sends", () =>
    Effect.gen(function*() {
      const attacker = "203.0.113.7"
      for (let attempt = 0; attempt < maxOperatorFailuresPerMinute; attempt++) {
        const reply = yield* from(attacker, attempt % 2 === 0 ? `wrong-${attempt}` : undefined)
        expect(reply.status).toBe(401)
      }
      const over = yield* from(attacker, "wrong-again")
      expect(over.status).toBe(429)
      expect(over.headers["retry-after"]).toBe("60")
      expect(pick(over.json, "data")).toBeNull()
      // The right token from the same address is refused too: a correct guess looks like a wrong one.
      expect((yield* from(attacker, adminToken)).status).toBe(429)
      // Another address is not affected.
      expect((yield* from("203.0.113.8", adminToken)).status).toBe(200)
    }))

  it.effect("the right token is never counted", () =>
    Effect.gen(function*() {
      for (let attempt = 0; attempt < maxOperatorFailuresPerMinute * 2; attempt++) {
        expect((yield* from("203.0.113.9", adminToken)).status).toBe(200)
      }
    }))
})
