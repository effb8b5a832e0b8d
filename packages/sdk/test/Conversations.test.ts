import { expect, layer } from "@effect/vitest"
import { DastyarApiError } from "../src/DastyarApiError"
import { createDastyarClient } from "../src/PromiseClient"
import { againstServer, rejectionOf, setupAccount, TestApp } from "./support/Server"

layer(TestApp(), { excludeTestServices: true })("promise client: conversations and curated answers", (it) => {
  it.effect("every page, one thread, feedback, the report, answer this better, the exports, forgetting", () =>
    againstServer(async (baseUrl) => {
      const { assistant, key } = await setupAccount(baseUrl)
      const client = createDastyarClient({ baseUrl, apiKey: key.key })
      for (const principal of ["a", "b", "c"]) {
        await client.chat(assistant.id, { principal, message: "Do you offer gift wrapping?" })
      }
      const seen: Array<string> = []
      for await (const conversation of client.conversations.all(assistant.id, { limit: 2 })) {
        seen.push(conversation.principal)
      }
      expect(seen).toEqual(["c", "b", "a"])
      const first = await client.conversations.list(assistant.id, { principal: "a" })
      const thread = await client.conversations.get(assistant.id, first.list[0]?.id ?? "")
      const answer = thread.messages[1]
      expect(answer).toMatchObject({ role: "assistant", declined: true })
      const vote = await client.conversations.feedback(assistant.id, thread.id, answer?.id ?? "", { rating: "down" })
      expect(vote.rating).toBe("down")
      const report = await client.conversations.unanswered(assistant.id)
      expect(report.list[0]).toMatchObject({ count: 3 })
      const curated = await client.conversations.answerGroup(assistant.id, report.list[0]?.id ?? "", {
        answer: "Yes, free."
      })
      expect(curated.questions).toEqual(["Do you offer gift wrapping?"])
      const better = await client.conversations.answerBetter(assistant.id, thread.id, answer?.id ?? "", {
        answer: "Yes."
      })
      expect(better.questions).toEqual(["Do you offer gift wrapping?"])
      expect((await client.curated.list(assistant.id)).count).toBe(2)
      expect(await client.curated.export(assistant.id)).toMatch(/^questions,answer,language\r\n/)
      expect((await client.curated.import(assistant.id, "questions,answer,language\nHi?,Hello.,en\n")).created).toBe(1)
      const ndjson = await client.conversations.export(assistant.id)
      expect(ndjson.trim().split("\n")).toHaveLength(3)
      expect((await client.conversations.deletePrincipal(assistant.id, "a")).deleted).toBe(1)
      const gone = await rejectionOf(client.conversations.get(assistant.id, thread.id))
      expect(gone).toBeInstanceOf(DastyarApiError)
      const exportError = await rejectionOf(client.conversations.export("ast_not_mine"))
      expect(exportError).toBeInstanceOf(DastyarApiError)
    }))
})
