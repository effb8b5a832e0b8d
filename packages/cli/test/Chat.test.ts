import { Assistants, Chat } from "@dastyar/domain"
import { makeEffectClient } from "@dastyar/sdk"
import { TestApp } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import * as Schema from "effect/Schema"
import { spawn } from "node:child_process"
import { fileURLToPath } from "node:url"
import { accountWithAssistant } from "./support/Account"
import { runCli, serverUrl } from "./support/Cli"

const bin = fileURLToPath(new URL("../bin/dastyar.js", import.meta.url))

/** `dastyar` with `input` typed on its stdin (not a terminal: no prompts, one message per line). */
const runWithInput = (args: ReadonlyArray<string>, env: Record<string, string>, input: string) =>
  Effect.async<{ exitCode: number; stdout: string; stderr: string }>((resume) => {
    const clean = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("DASTYAR_")))
    const child = spawn(process.execPath, [bin, ...args], { env: { ...clean, ...env } })
    let stdout = ""
    let stderr = ""
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString("utf8")))
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")))
    child.on("close", (code) => resume(Effect.succeed({ exitCode: code ?? -1, stdout, stderr })))
    child.stdin.end(input)
    return Effect.sync(() => child.kill())
  })

/** An assistant that knows about shipping and sells a teapot. */
const shop = Effect.gen(function*() {
  const account = yield* accountWithAssistant
  const client = yield* makeEffectClient({ baseUrl: "", token: account.key })
  const assistantCode = Assistants.AssistantId.make(account.assistantId)
  const [job] = (yield* client.documents.uploadText({
    path: { assistantCode },
    payload: {
      filename: "shipping.md",
      content: "We ship to every city in Iran, including Shiraz.\nDelivery to Shiraz takes three to five working days."
    }
  })).list
  if (job === undefined) return yield* Effect.dieMessage("no ingest job")
  yield* client.documents.job({ path: { assistantCode, jobId: job.id } }).pipe(
    Effect.repeat({ until: (found) => found.status === "ready", schedule: Schedule.spaced("50 millis"), times: 200 })
  )
  yield* client.products.replace({
    path: { assistantCode, externalId: "sku-teapot" },
    payload: { title: "Ceramic teapot", price: 890000, currency: "IRR", url: "https://shop.example.com/p/teapot" }
  })
  yield* client.products.get({ path: { assistantCode, externalId: "sku-teapot" } }).pipe(
    Effect.repeat({
      until: (found) => found.indexState === "synced",
      schedule: Schedule.spaced("50 millis"),
      times: 200
    })
  )
  return { env: { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_API_KEY: account.key }, assistantId: account.assistantId }
}).pipe(Effect.orDie)

layer(TestApp(), { excludeTestServices: true })("dastyar chat", (it) => {
  it.effect("--message prints the streamed answer, then its sources and the conversation", () =>
    Effect.gen(function*() {
      const { assistantId, env } = yield* shop
      const run = yield* runCli(["chat", assistantId, "--message", "Do you ship to Shiraz?", "--principal", "ops"], env)
      expect(run).toMatchObject({ exitCode: 0, stderr: "" })
      const [answer, footer] = run.stdout.split("\n\nSources:\n")
      expect(answer).toMatch(/"We ship to every city in Iran, including Shiraz\./)
      expect(answer).toContain("shipping.md")
      expect(footer).toMatch(/^ {2}shipping\.md #0\n\n\(conversation conv_\w+\)\n$/)
    }))

  it.effect("products are a compact table under the answer; --json prints the reply's data", () =>
    Effect.gen(function*() {
      const { assistantId, env } = yield* shop
      const run = yield* runCli(["chat", assistantId, "-m", "Do you sell a ceramic teapot?"], env)
      expect(run).toMatchObject({ exitCode: 0, stderr: "" })
      const products = run.stdout.split("Products:\n")[1]?.split("\n\n")[0]?.split("\n") ?? []
      expect(products[0]).toMatch(/^ {2}externalId\s+title\s+price\s+link$/)
      expect(products[1]).toMatch(
        /^ {2}sku-teapot\s+Ceramic teapot\s+890,000 IRR\s+https:\/\/shop\.example\.com\/p\/teapot$/
      )

      const json = yield* runCli(["chat", assistantId, "-m", "Do you ship to Shiraz?", "--json"], env)
      expect(json).toMatchObject({ exitCode: 0, stderr: "" })
      const reply = Schema.decodeUnknownSync(Schema.parseJson(Chat.ChatReply))(json.stdout)
      expect(reply.sources.map((source) => source.path)).toEqual(["shipping.md"])
      expect(reply.model).toBe("dastyar-local")
    }))

  it.effect("an interactive session keeps one conversation across lines", () =>
    Effect.gen(function*() {
      const { assistantId, env } = yield* shop
      const run = yield* runWithInput(["chat", assistantId], env, "Do you ship to Shiraz?\nHow many days to Shiraz?\n")
      expect(run).toMatchObject({ exitCode: 0, stderr: "" })
      const conversations = [...run.stdout.matchAll(/\(conversation (conv_\w+)\)/g)].map((match) => match[1])
      expect(conversations).toHaveLength(2)
      expect(conversations[0]).toBe(conversations[1])
      expect(run.stdout).toContain("three to five working days")
    }))

  it.effect("a refused turn is one line on stderr with the code and a non-zero exit", () =>
    Effect.gen(function*() {
      const { env } = yield* shop
      const run = yield* runCli(["chat", "ast_missing", "-m", "Hi"], env)
      expect(run.exitCode).not.toBe(0)
      expect(run.stdout).toBe("")
      expect(run.stderr).toBe("error: 404 chat.assistant_not_found: Assistant not found\n")
    }))
})
