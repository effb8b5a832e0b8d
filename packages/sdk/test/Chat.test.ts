import { expect, layer } from "@effect/vitest"
import type { ChatStreamEvent } from "../src/Chat"
import { DastyarApiError } from "../src/DastyarApiError"
import { createDastyarClient } from "../src/PromiseClient"
import { againstServer, rejectionOf, setupAccount, TestApp } from "./support/Server"

const shipping =
  "We ship to every city in Iran, including Shiraz.\nDelivery to Shiraz takes three to five working days."

const collect = async (events: AsyncIterable<ChatStreamEvent>) => {
  const seen: Array<ChatStreamEvent> = []
  for await (const event of events) seen.push(event)
  return seen
}

/** A client for an account whose assistant knows about shipping. */
const shop = async (baseUrl: string) => {
  const { assistant, key } = await setupAccount(baseUrl)
  const client = createDastyarClient({ baseUrl, apiKey: key.key })
  const job = await client.documents.uploadText(assistant.id, { filename: "shipping.md", content: shipping })
  const ready = await client.documents.waitForJob(assistant.id, job.id, { initialDelayMs: 50, maxDelayMs: 200 })
  return { client, assistantId: assistant.id, fileId: ready.resultFileId }
}

layer(TestApp(), { excludeTestServices: true })("sdk chat", (it) => {
  it.effect("chat() answers with sources; a conversation keeps its id between turns", () =>
    againstServer(async (baseUrl) => {
      const { assistantId, client, fileId } = await shop(baseUrl)
      const reply = await client.chat(assistantId, { principal: "u1", message: "Do you ship to Shiraz?" })
      expect(reply).toMatchObject({
        model: "dastyar-local",
        degraded: false,
        sources: [{ fileId, path: "shipping.md", chunk: 0 }]
      })
      expect(reply.text).toContain("Shiraz")

      const conversation = client.conversation(assistantId, "u2")
      expect(conversation.id).toBeUndefined()
      const first = await conversation.send("Do you ship to Shiraz?")
      expect(conversation.id).toBe(first.conversationId)
      const second = await conversation.send("How many days does delivery to Shiraz take?")
      expect(second.conversationId).toBe(first.conversationId)
      expect(second.text).toContain("three to five working days")
    }))

  it.effect("chatStream() yields deltas then one done event whose text is the deltas joined", () =>
    againstServer(async (baseUrl) => {
      const { assistantId, client } = await shop(baseUrl)
      const events = await collect(
        client.chatStream(assistantId, { principal: "u1", message: "Do you ship to Shiraz?" })
      )
      const last = events.at(-1)
      if (last?.type !== "done") throw new Error("the stream did not end with done")
      const deltas = events.slice(0, -1).map((event) => (event.type === "delta" ? event.text : ""))
      expect(deltas.length).toBeGreaterThan(1)
      expect(deltas.join("")).toBe(last.reply.text)
      expect(last.reply.sources[0]?.path).toBe("shipping.md")

      const conversation = client.conversation(assistantId, "u3")
      await collect(conversation.stream("Do you ship to Shiraz?"))
      expect(conversation.id).toBe((await conversation.send("Thanks")).conversationId)
    }))

  it.effect("errors before the answer are thrown as DastyarApiError, streamed or not", () =>
    againstServer(async (baseUrl) => {
      const { assistantId, client } = await shop(baseUrl)
      const missing = await rejectionOf(client.chat("ast_missing", { principal: "u", message: "Hi" }))
      expect(missing).toBeInstanceOf(DastyarApiError)
      expect(missing).toMatchObject({ httpStatus: 404, code: "chat.assistant_not_found" })
      const foreign = await rejectionOf(
        collect(client.chatStream(assistantId, { principal: "u", message: "Hi", conversationId: "conv_nope" }))
      )
      expect(foreign).toMatchObject({ httpStatus: 404, status: "not_found", code: "chat.conversation_not_found" })
      const invalid = await rejectionOf(client.chat(assistantId, { principal: "", message: "Hi" }))
      expect(invalid).toMatchObject({ httpStatus: 400, fields: [{ property: "principal" }] })
    }))
})
