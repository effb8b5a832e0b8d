/**
 * The improvement loop end to end, through the public and operator APIs:
 * customers ask, the shop reads the conversations and the report of what was
 * left unanswered, answers a group with a curated answer that then serves the
 * next customer, forgets a customer, and old conversations expire.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as TestClock from "effect/TestClock"
import * as TestContext from "effect/TestContext"
import { Retention } from "../../src/Conversations/Retention"
import { addDocument, chat, returnsDoc, shippingDoc } from "../Chat/support/ChatSetup"
import { adminToken, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"

const giftQuestions = ["Do you offer gift wrapping?", "Is gift wrapping available?", "Can you gift wrap my present?"]
const installmentQuestions = ["Can I pay in installments?", "Do you accept installment payments?"]
const answerable = [
  "Do you ship to Shiraz?",
  "How long does delivery to Shiraz take?",
  "Do you ship to Tabriz?",
  "Do you ship to Mashhad?",
  "When do orders leave the Tehran warehouse?",
  "Is shipping free for big orders?",
  "Which cities do you ship to?",
  "How many days does delivery to Shiraz take by Post?",
  "Can I return an unused item?",
  "How many days do I have to return an item?",
  "When are refunds paid?",
  "Do I get a full refund for a return?",
  "Are refunds paid to my card?",
  "What is your return policy for unused items?",
  "Do orders over 2,000,000 rials ship free?"
]

const get = (key: string, url: string) => call("GET", url, { token: key })

const withKnowledge = Effect.gen(function*() {
  const account = yield* setupAccount()
  yield* addDocument(account.key, account.assistantId, "shipping.md", shippingDoc)
  yield* addDocument(account.key, account.assistantId, "returns.md", returnsDoc)
  return account
})

const ask = (key: string, assistantId: string, principal: string, message: string) =>
  Effect.map(chat(key, assistantId, { principal, message }), (reply) => {
    expect(reply.status).toBe(200)
    return reply
  })

layer(TestApp(), { excludeTestServices: true })("the improvement loop", (it) => {
  it.effect("questions, the report, a curated answer, forgetting a customer and retention", () =>
    Effect.gen(function*() {
      const { accountId, assistantId, key } = yield* withKnowledge
      const base = `/v1/assistants/${assistantId}`
      const questions = [...answerable, ...giftQuestions, ...installmentQuestions]
      for (const [i, question] of questions.entries()) yield* ask(key, assistantId, `customer-${i % 7}`, question)

      // Every conversation is listed, newest first, one page after another.
      const first = yield* get(key, `${base}/conversations?limit=12`)
      expect(first.status).toBe(200)
      const cursor = pickString(first.json, "data", "nextCursor")
      const second = yield* get(key, `${base}/conversations?limit=12&cursor=${encodeURIComponent(cursor)}`)
      const listed = [pick(first.json, "data", "list"), pick(second.json, "data", "list")].flat()
      expect(listed).toHaveLength(20)
      expect(pick(second.json, "data", "nextCursor")).toBeNull()
      expect(pick(first.json, "data", "list", 0, "title")).toBe(questions[19])

      // The report: the two unanswered subjects, one row each, with their counts.
      const report = yield* get(key, `${base}/unanswered`)
      expect(report.status).toBe(200)
      const rows = pick(report.json, "data", "list")
      expect(rows).toEqual(expect.arrayContaining([
        // Every question of a group was declined; some may also count as weakly retrieved.
        expect.objectContaining({ count: 3, channels: { api: 3 }, reasons: expect.objectContaining({ declined: 3 }) }),
        expect.objectContaining({ count: 2, channels: { api: 2 }, reasons: expect.objectContaining({ declined: 2 }) })
      ]))
      expect(pick(report.json, "data", "count")).toBe(2)
      const giftRow = pick(report.json, "data", "list", 0)
      expect([...(pick(giftRow, "examples") as Array<string>)].sort()).toEqual([...giftQuestions].sort())

      // The group becomes a curated answer; the next customer's rewording gets it, without a model.
      const groupId = pickString(giftRow, "id")
      const created = yield* call("POST", `${base}/unanswered/${groupId}/curated`, {
        token: key,
        body: { answer: "Yes: gift wrapping is free, choose it at checkout." }
      })
      expect(created.status).toBe(201)
      const curatedId = pickString(created.json, "data", "id")
      const next = yield* ask(key, assistantId, "customer-new", "Is gift wrapping possible?")
      expect(pick(next.json, "data")).toMatchObject({
        text: "Yes: gift wrapping is free, choose it at checkout.",
        model: "curated",
        degraded: false,
        sources: [{ fileId: curatedId, path: `curated/${curatedId}`, chunk: 0, kind: "curated" }]
      })
      const counted = yield* get(key, `${base}/curated/${curatedId}`)
      expect(pick(counted.json, "data", "hitCount")).toBe(1)
      expect(pick(counted.json, "data", "lastHitAt")).toEqual(expect.any(String))
      // A curated hit is not unanswered: the report still has its two rows with the same counts.
      const after = yield* get(key, `${base}/unanswered`)
      expect(pick(after.json, "data", "list", 0, "count")).toBe(3)

      // Forgetting a customer removes their conversations, and only theirs.
      const forgotten = yield* call("DELETE", `${base}/conversations?principal=customer-3`, { token: key })
      expect(pick(forgotten.json, "data", "deleted")).toBe(3)
      const theirs = yield* get(key, `${base}/conversations?principal=customer-3`)
      expect(pick(theirs.json, "data", "list")).toEqual([])
      const remaining = yield* get(key, `${base}/conversations?limit=200`)
      expect(pick(remaining.json, "data", "list")).toHaveLength(18)

      // Retention: with a day's retention, two days later every conversation is gone.
      const kept = yield* call("PUT", `/admin/v1/accounts/${accountId}/retention`, {
        token: adminToken,
        body: { days: 1 }
      })
      expect(kept.json).toMatchObject({ data: { days: 1 } })
      const retention = yield* Retention
      expect(yield* retention.purge).toBe(0)
      const purged = yield* Effect.gen(function*() {
        yield* TestClock.setTime(Date.now() + 2 * 86_400_000)
        return yield* retention.purge
      }).pipe(Effect.provide(TestContext.TestContext))
      expect(purged).toBe(18)
      const gone = yield* get(key, `${base}/conversations`)
      expect(pick(gone.json, "data", "list")).toEqual([])
    }))
})
