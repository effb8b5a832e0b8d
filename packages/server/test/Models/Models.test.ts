import { describe, expect, it, layer } from "@effect/vitest"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { builtInCatalog, ModelCatalog } from "../../src/Models/ModelCatalog"
import { call, setupAccount, TestApp } from "../support/TestApp"

layer(TestApp({ OPENAI_API_KEY: "sk-test" }), { excludeTestServices: true })("GET /v1/models", (it) => {
  it.effect("lists models grouped by company with availability from credentials and allowance from the plan", () =>
    Effect.gen(function*() {
      const { key } = yield* setupAccount()
      const reply = yield* call("GET", "/v1/models", { token: key })
      expect(reply.status).toBe(200)
      expect(reply.headers["cache-control"]).toBe("private, max-age=60")
      expect(reply.json).toEqual({
        data: {
          count: 3,
          list: [
            expect.objectContaining({
              key: "dastyar-local",
              company: { slug: "dastyar", title: "Dastyar" },
              available: true,
              allowed: true,
              usable: true
            }),
            expect.objectContaining({ key: "gpt-4o-mini", available: true, allowed: true, usable: true }),
            expect.objectContaining({
              key: "o4-mini",
              supportedReasoning: ["low", "medium", "high"],
              available: true,
              allowed: false,
              usable: false
            })
          ]
        },
        response: { status: "success", message: "Success" }
      })
      // Upstream model names, base URLs and credentials never leave the server.
      expect(reply.text).not.toMatch(/api\.openai\.com|upstream|apiKeyEnv|sk-test/)
    }))

  it.effect("descriptions follow Accept-Language, and caches keep one answer per language", () =>
    Effect.gen(function*() {
      const { key } = yield* setupAccount()
      const descriptionOf = (language: string) =>
        call("GET", "/v1/models", { token: key, headers: { "accept-language": language } }).pipe(
          Effect.map((reply) => ({
            vary: reply.headers["vary"],
            description: reply.json.data.list.find((model: { key: string }) => model.key === "dastyar-local")
              ?.description
          }))
        )
      const persian = yield* descriptionOf("fa-IR")
      expect(persian.description).toMatch(/^مدل آفلاین داخلی/)
      expect(persian.vary).toContain("Accept-Language")
      expect((yield* descriptionOf("en")).description).toMatch(/^Built-in offline model/)
      // A language without its own text gets English.
      expect((yield* descriptionOf("de")).description).toMatch(/^Built-in offline model/)
    }))

  it.effect("errors are not cacheable", () =>
    Effect.gen(function*() {
      const reply = yield* call("GET", "/v1/models")
      expect(reply.status).toBe(401)
      expect(reply.headers["cache-control"]).toBeUndefined()
    }))
})

describe("DASTYAR_CONFIG", () => {
  const load = (file: unknown, env: Record<string, string> = {}) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-config-"))
    const configPath = path.join(dir, "config.json")
    fs.writeFileSync(configPath, typeof file === "string" ? file : JSON.stringify(file))
    return ModelCatalog.pipe(
      Effect.provide(ModelCatalog.Default),
      Effect.provide(Layer.setConfigProvider(ConfigProvider.fromMap(
        new Map(Object.entries({
          DASTYAR_CONFIG: configPath,
          ...env
        }))
      ))),
      Effect.exit
    )
  }

  it.effect("a valid file replaces the built-in catalog; comingSoon models are never available", () =>
    Effect.gen(function*() {
      const exit = yield* load({
        companies: [{ slug: "acme", title: "Acme" }],
        models: [
          { key: "acme-1", name: "Acme 1", company: "acme", provider: { _tag: "local" } },
          { key: "acme-2", name: "Acme 2", company: "acme", comingSoon: true }
        ],
        plans: [{ key: "basic", models: "*" }],
        defaultPlan: "basic",
        defaultModel: "acme-1"
      })
      expect(Exit.isSuccess(exit)).toBe(true)
      if (Exit.isSuccess(exit)) {
        expect(exit.value.listFor("basic").map((m) => [m.key, m.usable])).toEqual([["acme-1", true], ["acme-2", false]])
        expect(exit.value.productLimit("basic")).toBe(10000)
      }
    }))

  it.effect("a bad file stops the start with a message naming the bad field", () =>
    Effect.gen(function*() {
      const failureOf = (file: unknown) =>
        Effect.map(load(file), (exit) => Exit.isFailure(exit) ? JSON.stringify(exit.cause) : "started")
      expect(yield* failureOf({ ...builtInCatalog, plans: [{ key: "free", models: "*", productLimit: -1 }] }))
        .toContain("plans.0.productLimit: Expected a positive number")
      expect(
        yield* failureOf({
          ...builtInCatalog,
          models: [...builtInCatalog.models, { key: "x", name: "X", company: "nobody", provider: { _tag: "local" } }]
        })
      ).toContain("models.3.company: unknown company")
      expect(yield* failureOf({ ...builtInCatalog, defaultModel: "nope" })).toContain("defaultModel")
      const unparsable = yield* load("{ not json")
      expect(Exit.isFailure(unparsable) ? JSON.stringify(unparsable.cause) : "").toContain("Cannot read DASTYAR_CONFIG")
    }))
})
