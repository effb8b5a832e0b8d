import { AssistantId } from "@dastyar/domain/Assistants"
import { makeEffectClient } from "@dastyar/sdk"
import { seedConversations, TestApp } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { accountWithAssistant } from "./support/Account"
import { runCli, runCliToFile, serverUrl } from "./support/Cli"

/** The CLI's old generation during the export test: room for the command itself, not for a whole export. */
const heapCapMb = 48

/** A shop whose assistant has had two conversations, and the CLI's environment for it. */
const shop = Effect.gen(function*() {
  const { assistantId, key } = yield* accountWithAssistant
  const client = yield* makeEffectClient({ baseUrl: "", token: key })
  const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_API_KEY: key, DASTYAR_ASSISTANT: assistantId }
  const send = (principal: string, message: string) =>
    Effect.orDie(
      client.chat.send({ path: { assistantCode: AssistantId.make(assistantId) }, payload: { principal, message } })
    )
  return { env, send }
})

layer(TestApp(), { excludeTestServices: true })("dastyar conversations, curated and report", (it) => {
  it.effect("conversations list, show, export and delete by principal", () =>
    Effect.gen(function*() {
      const { env, send } = yield* shop
      const first = yield* send("alice", "Who painted the Mona Lisa?")
      yield* send("bob", "Hello")
      const listed = yield* runCli(["conversations", "list", "--json"], env)
      expect(listed.exitCode).toBe(0)
      expect(JSON.parse(listed.stdout)).toMatchObject({ list: [{ principal: "bob" }, { principal: "alice" }] })
      const attention = yield* runCli(["conversations", "list", "--needs-attention", "--json"], env)
      expect(JSON.parse(attention.stdout).list).toHaveLength(2)
      const shown = yield* runCli(["conversations", "show", first.conversationId], env)
      expect(shown.stdout).toContain("Customer")
      expect(shown.stdout).toContain("Mona Lisa")
      const exported = yield* runCli(["conversations", "export", "--format", "csv"], env)
      expect(exported.stdout.split("\r\n")[0]).toMatch(/^conversation_id,/)
      const report = yield* runCli(["report", "unanswered", "--json"], env)
      expect(JSON.parse(report.stdout).count).toBe(2)
      const deleted = yield* runCli(["conversations", "delete", "--principal", "alice", "--json"], env)
      expect(JSON.parse(deleted.stdout)).toEqual({ deleted: 1 })
    }))

  it.effect(
    "the export is written as it arrives: one larger than the command's whole heap completes",
    () =>
      Effect.gen(function*() {
        const { accountId, assistantId, key } = yield* accountWithAssistant
        yield* seedConversations(accountId, assistantId, 60_000)
        const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_API_KEY: key, DASTYAR_ASSISTANT: assistantId }
        const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-export-")), "export.ndjson")
        const run = yield* runCliToFile(["conversations", "export"], env, file, heapCapMb)
        expect(run.exitCode).toBe(0)
        expect(fs.readFileSync(file, "utf8").split("\n").length - 1).toBe(60_000)
        // A command that read the export whole, as text or parsed, would not have fitted in its heap.
        expect(fs.statSync(file).size).toBeGreaterThan(heapCapMb * 1024 * 1024)
      }),
    180_000
  )

  it.effect("curated add, import, list and export", () =>
    Effect.gen(function*() {
      const { env } = yield* shop
      const added = yield* runCli(["curated", "add", "-q", "Do you sell gift cards?", "Yes.", "--json"], env)
      expect(added.exitCode).toBe(0)
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-curated-")), "curated.csv")
      fs.writeFileSync(file, "questions,answer,language\nDo you ship to Kish? | Kish shipping?,In 3 days.,en\n")
      const imported = yield* runCli(["curated", "import", file, "--json"], env)
      expect(JSON.parse(imported.stdout)).toEqual({ created: 1, updated: 0 })
      const listed = yield* runCli(["curated", "list", "--json"], env)
      expect(JSON.parse(listed.stdout).count).toBe(2)
      const exported = yield* runCli(["curated", "export"], env)
      expect(exported.stdout).toContain("Do you ship to Kish? | Kish shipping?,In 3 days.,en")
    }))
})
