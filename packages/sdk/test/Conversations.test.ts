import { seedConversations } from "@dastyar/server/Testing"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { DastyarApiError } from "../src/DastyarApiError"
import { createDastyarClient } from "../src/PromiseClient"
import type { Fetch } from "../src/RetryOn429"
import { againstServer, rejectionOf, serverUrl, setupAccount, TestApp } from "./support/Server"

const collect = async (records: AsyncIterable<string>): Promise<Array<string>> => {
  const all: Array<string> = []
  for await (const record of records) all.push(record)
  return all
}

const pickId = (value: unknown): string => {
  if (typeof value === "object" && value !== null && "id" in value && typeof value.id === "string") return value.id
  throw new Error("an exported conversation without an id")
}

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
      expect(await client.curated.exportText(assistant.id)).toMatch(/^questions,answer,language\r\n/)
      expect((await client.curated.import(assistant.id, "questions,answer,language\nHi?,Hello.,en\n")).created).toBe(1)
      const ndjson = await client.conversations.exportText(assistant.id)
      expect(ndjson.trim().split("\n")).toHaveLength(3)
      const curatedRecords = await collect(client.curated.export(assistant.id))
      expect(curatedRecords).toHaveLength(4)
      expect(curatedRecords[0]).toBe("questions,answer,language")
      expect((await client.conversations.deletePrincipal(assistant.id, "a")).deleted).toBe(1)
      const gone = await rejectionOf(client.conversations.get(assistant.id, thread.id))
      expect(gone).toBeInstanceOf(DastyarApiError)
      const exportError = await rejectionOf(client.conversations.export("ast_not_mine").next())
      expect(exportError).toBeInstanceOf(DastyarApiError)
      expect(await rejectionOf(client.conversations.exportText("ast_not_mine"))).toBeInstanceOf(DastyarApiError)
    }))

  it.effect("the conversation export arrives record by record, long before its end", () =>
    Effect.gen(function*() {
      const baseUrl = yield* serverUrl
      const { account, assistant, key } = yield* Effect.promise(() => setupAccount(baseUrl))
      // Ten of the server's batches: the body arrives in many pieces.
      yield* seedConversations(account.id, assistant.id, 2_000)
      yield* Effect.promise(async () => {
        let received = 0
        const counting: Fetch = async (request) => {
          const response = await globalThis.fetch(request)
          if (response.body === null) return response
          const counted = response.body.pipeThrough(
            new TransformStream<Uint8Array, Uint8Array>({
              transform: (piece, controller) => {
                received += piece.byteLength
                controller.enqueue(piece)
              }
            })
          )
          return new Response(counted, response)
        }
        const client = createDastyarClient({ baseUrl, apiKey: key.key, fetch: counting })
        const ids = new Set<string>()
        let receivedAtFirst = 0
        for await (const record of client.conversations.export(assistant.id)) {
          if (ids.size === 0) receivedAtFirst = received
          ids.add(pickId(JSON.parse(record)))
        }
        expect(ids.size).toBe(2_000)
        // The first conversation is handed over while most of the body has not been read.
        expect(receivedAtFirst).toBeLessThan(received / 4)
      })
    }))

  it.effect("a CSV record keeps the line breaks of its quoted cells", () =>
    againstServer(async (baseUrl) => {
      const { assistant, key } = await setupAccount(baseUrl)
      const client = createDastyarClient({ baseUrl, apiKey: key.key })
      await client.chat(assistant.id, { principal: "knitter", message: "Do you sell wool socks?\nIn size 44?" })
      const records = await collect(client.conversations.export(assistant.id, { format: "csv" }))
      expect(records).toHaveLength(3)
      expect(records[0]).toMatch(/^conversation_id,principal,/)
      expect(records[1]).toContain("\"Do you sell wool socks?\nIn size 44?\"")
      expect(records.every((record) => !record.endsWith("\r"))).toBe(true)
    }))
})
