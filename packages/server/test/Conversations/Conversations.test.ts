/** The conversation-log, feedback and curated-answer routes, one rule per test, and tenant isolation. */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { addDocument, chat, shippingDoc } from "../Chat/support/ChatSetup"
import { adminToken, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"

const get = (key: string, url: string) => call("GET", url, { token: key })

/** An account whose assistant knows shipping, with one conversation of two turns. */
const withConversation = Effect.gen(function*() {
  const account = yield* setupAccount()
  yield* addDocument(account.key, account.assistantId, "shipping.md", shippingDoc)
  const first = yield* chat(account.key, account.assistantId, { principal: "alice", message: "Do you ship to Shiraz?" })
  const conversationId = pickString(first.json, "data", "conversationId")
  yield* chat(account.key, account.assistantId, {
    principal: "alice",
    message: "Who painted the Mona Lisa?",
    conversationId
  })
  const thread = yield* get(account.key, `/v1/assistants/${account.assistantId}/conversations/${conversationId}`)
  const answerId = pickString(thread.json, "data", "messages", 1, "id")
  // The chat reply names its answer, so a client can rate it.
  expect(pick(first.json, "data", "messageId")).toBe(answerId)
  const declinedId = pickString(thread.json, "data", "messages", 3, "id")
  return { ...account, conversationId, answerId, declinedId, base: `/v1/assistants/${account.assistantId}` }
})

layer(TestApp(), { excludeTestServices: true })("conversations", (it) => {
  it.effect("a conversation reads back with each answer's sources, passages, model, cost and flags", () =>
    Effect.gen(function*() {
      const { base, conversationId, key } = yield* withConversation
      const thread = yield* get(key, `${base}/conversations/${conversationId}`)
      expect(thread.status).toBe(200)
      expect(pick(thread.json, "data")).toMatchObject({
        id: conversationId,
        principal: "alice",
        channel: "api",
        title: "Do you ship to Shiraz?",
        messageCount: 4,
        needsAttention: true,
        negativeFeedback: false
      })
      const [question, answer, , declined] = pick(thread.json, "data", "messages") as Array<unknown>
      expect(question).toMatchObject({ role: "user", content: "Do you ship to Shiraz?", model: null, usage: null })
      expect(answer).toMatchObject({
        role: "assistant",
        model: "dastyar-local",
        degraded: false,
        declined: false,
        sources: [{ path: "shipping.md", chunk: 0, text: expect.stringContaining("Shiraz") }],
        usage: {
          promptTokens: expect.any(Number),
          completionTokens: expect.any(Number),
          embeddingTokens: expect.any(Number)
        },
        feedback: null
      })
      expect(declined).toMatchObject({ role: "assistant", declined: true, sources: [] })
    }))

  it.effect("the list filters by channel, principal, date, attention and negative feedback", () =>
    Effect.gen(function*() {
      const { answerId, assistantId, base, conversationId, key } = yield* withConversation
      yield* chat(key, assistantId, { principal: "bob", message: "Do you ship to Tabriz?" })
      const ids = (reply: { readonly json: unknown }) =>
        (pick(reply.json, "data", "list") as Array<unknown>).map((row) => pick(row, "id"))
      expect(ids(yield* get(key, `${base}/conversations`))).toHaveLength(2)
      expect(ids(yield* get(key, `${base}/conversations?principal=alice`))).toEqual([conversationId])
      expect(ids(yield* get(key, `${base}/conversations?needsAttention=true`))).toEqual([conversationId])
      expect(ids(yield* get(key, `${base}/conversations?channel=telegram`))).toEqual([])
      expect(ids(yield* get(key, `${base}/conversations?from=2999-01-01T00:00:00Z`))).toEqual([])
      expect(ids(yield* get(key, `${base}/conversations?to=2999-01-01T00:00:00Z`))).toHaveLength(2)
      expect(ids(yield* get(key, `${base}/conversations?negativeFeedback=true`))).toEqual([])
      yield* call("PUT", `${base}/conversations/${conversationId}/messages/${answerId}/feedback`, {
        token: key,
        body: { rating: "down" }
      })
      expect(ids(yield* get(key, `${base}/conversations?negativeFeedback=true`))).toEqual([conversationId])
      const bad = yield* get(key, `${base}/conversations?channel=fax`)
      expect(bad.status).toBe(400)
    }))

  it.effect("a date filter outside the years 1970 to 9999 is a validation error naming the field", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const base = `/v1/assistants/${assistantId}`
      const cases = [
        ["from", `${base}/conversations?from=-006263-05-25T21:15:41.908Z`],
        ["to", `${base}/conversations/export?to=%2B275760-09-13T00:00:00.000Z`],
        ["to", `${base}/unanswered?to=-271821-04-20T00:00:00.029Z`],
        ["from", `${base}/unanswered?from=1969-12-31T23:59:59Z&to=2026-01-01T00:00:00Z`]
      ] as const
      for (const [field, url] of cases) {
        const reply = yield* get(key, url)
        expect(reply.status, url).toBe(400)
        expect(pick(reply.json, "fields", 0, "property"), url).toBe(field)
      }
      expect((yield* get(key, `${base}/unanswered?from=1970-01-01T00:00:00Z&to=9999-12-31T23:59:59Z`)).status)
        .toBe(200)
    }))

  it.effect("a tampered cursor or one of another assistant's list is 400 conversations.invalid_cursor", () =>
    Effect.gen(function*() {
      const { assistantId, base, key } = yield* withConversation
      yield* chat(key, assistantId, { principal: "bob", message: "Hello" })
      const page = yield* get(key, `${base}/conversations?limit=1`)
      const cursor = pickString(page.json, "data", "nextCursor")
      const tampered = yield* get(key, `${base}/conversations?cursor=${encodeURIComponent(`x${cursor}`)}`)
      expect(tampered.json).toMatchObject({ response: { code: "conversations.invalid_cursor" } })
      const other = yield* setupAccount()
      const foreign = yield* get(
        other.key,
        `/v1/assistants/${other.assistantId}/conversations?cursor=${encodeURIComponent(cursor)}`
      )
      expect(foreign.json).toMatchObject({ response: { code: "conversations.invalid_cursor" } })
    }))

  it.effect("one vote per answer, the last counts; a question's message is not an answer (404)", () =>
    Effect.gen(function*() {
      const { answerId, base, conversationId, key } = yield* withConversation
      const url = `${base}/conversations/${conversationId}/messages/${answerId}/feedback`
      const down = yield* call("PUT", url, { token: key, body: { rating: "down", comment: "wrong city" } })
      expect(down.json).toMatchObject({ data: { rating: "down", comment: "wrong city" } })
      const up = yield* call("PUT", url, { token: key, body: { rating: "up" } })
      expect(up.json).toMatchObject({ data: { rating: "up", comment: null } })
      const thread = yield* get(key, `${base}/conversations/${conversationId}`)
      expect(pick(thread.json, "data", "messages", 1, "feedback")).toMatchObject({ rating: "up" })
      expect(pick(thread.json, "data", "negativeFeedback")).toBe(false)
      const questionId = pickString(thread.json, "data", "messages", 0, "id")
      const onQuestion = yield* call("PUT", `${base}/conversations/${conversationId}/messages/${questionId}/feedback`, {
        token: key,
        body: { rating: "down" }
      })
      expect(onQuestion.json).toMatchObject({ response: { code: "conversations.message_not_found" } })
      const invalid = yield* call("PUT", url, { token: key, body: { rating: "meh" } })
      expect(invalid.status).toBe(400)
    }))

  it.effect("an answer rated down joins the report; answer this better makes a curated answer of its question", () =>
    Effect.gen(function*() {
      const { answerId, base, conversationId, key } = yield* withConversation
      yield* call("PUT", `${base}/conversations/${conversationId}/messages/${answerId}/feedback`, {
        token: key,
        body: { rating: "down" }
      })
      const report = yield* get(key, `${base}/unanswered`)
      expect(pick(report.json, "data", "list")).toEqual(expect.arrayContaining([
        expect.objectContaining({ examples: ["Do you ship to Shiraz?"], reasons: { negative_feedback: 1 } })
      ]))
      const better = yield* call("POST", `${base}/conversations/${conversationId}/messages/${answerId}/curated`, {
        token: key,
        body: { answer: "Yes, Shiraz in 3 days.", questions: ["Shipping to Shiraz?"] }
      })
      expect(better.status).toBe(201)
      expect(pick(better.json, "data")).toMatchObject({
        questions: ["Do you ship to Shiraz?", "Shipping to Shiraz?"],
        answer: "Yes, Shiraz in 3 days.",
        hitCount: 0,
        lastHitAt: null
      })
    }))

  it.effect("the export streams NDJSON (a conversation per line) and CSV (a message per row)", () =>
    Effect.gen(function*() {
      const { base, conversationId, key } = yield* withConversation
      const ndjson = yield* get(key, `${base}/conversations/export`)
      expect(ndjson.status).toBe(200)
      expect(ndjson.headers["content-type"]).toContain("application/x-ndjson")
      const lines = ndjson.text.trim().split("\n").map((line) => JSON.parse(line))
      expect(lines).toHaveLength(1)
      expect(lines[0]).toMatchObject({ id: conversationId, messages: [{ role: "user" }, {}, {}, {}] })
      const csv = yield* get(key, `${base}/conversations/export?format=csv`)
      expect(csv.headers["content-type"]).toContain("text/csv")
      const rows = csv.text.trim().split("\r\n")
      expect(rows[0]).toMatch(/^conversation_id,principal,channel/)
      expect(rows).toHaveLength(5)
    }))

  it.effect("deleting a conversation removes it; again is 404", () =>
    Effect.gen(function*() {
      const { base, conversationId, key } = yield* withConversation
      const deleted = yield* call("DELETE", `${base}/conversations/${conversationId}`, { token: key })
      expect(deleted.status).toBe(200)
      const again = yield* call("DELETE", `${base}/conversations/${conversationId}`, { token: key })
      expect(again.json).toMatchObject({ response: { code: "conversations.not_found" } })
    }))

  it.effect("another account's conversation, feedback, curated answer and report are 404", () =>
    Effect.gen(function*() {
      const mine = yield* withConversation
      const curated = yield* call("POST", `${mine.base}/curated`, {
        token: mine.key,
        body: { questions: ["Do you sell gift cards?"], answer: "Yes." }
      })
      const curatedId = pickString(curated.json, "data", "id")
      const other = yield* setupAccount()
      // Through my assistant's code: the assistant is not theirs.
      for (
        const url of [
          `${mine.base}/conversations`,
          `${mine.base}/conversations/${mine.conversationId}`,
          `${mine.base}/unanswered`,
          `${mine.base}/curated/${curatedId}`
        ]
      ) {
        const reply = yield* get(other.key, url)
        expect(reply.status).toBe(404)
      }
      const vote = yield* call(
        "PUT",
        `${mine.base}/conversations/${mine.conversationId}/messages/${mine.answerId}/feedback`,
        { token: other.key, body: { rating: "down" } }
      )
      expect(vote.status).toBe(404)
      // Through their own assistant: my ids are not there.
      const theirs = `/v1/assistants/${other.assistantId}`
      const conversation = yield* get(other.key, `${theirs}/conversations/${mine.conversationId}`)
      expect(conversation.json).toMatchObject({ response: { code: "conversations.not_found" } })
      const feedback = yield* call(
        "PUT",
        `${theirs}/conversations/${mine.conversationId}/messages/${mine.answerId}/feedback`,
        { token: other.key, body: { rating: "down" } }
      )
      expect(feedback.json).toMatchObject({ response: { code: "conversations.not_found" } })
      const answer = yield* get(other.key, `${theirs}/curated/${curatedId}`)
      expect(answer.json).toMatchObject({ response: { code: "curated.not_found" } })
      const deletion = yield* call("DELETE", `${theirs}/conversations?principal=alice`, { token: other.key })
      expect(pick(deletion.json, "data", "deleted")).toBe(0)
      const still = yield* get(mine.key, `${mine.base}/conversations/${mine.conversationId}`)
      expect(still.status).toBe(200)
    }))

  it.effect("curated answers: create, update, list, CSV export and import (replacing by first question), delete", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const base = `/v1/assistants/${assistantId}`
      const created = yield* call("POST", `${base}/curated`, {
        token: key,
        body: {
          questions: ["Do you sell gift cards?", "Gift cards?"],
          answer: "Yes, from 1,000,000 rials.",
          language: "en"
        }
      })
      expect(created.status).toBe(201)
      const id = pickString(created.json, "data", "id")
      const updated = yield* call("PATCH", `${base}/curated/${id}`, { token: key, body: { answer: "Yes." } })
      expect(pick(updated.json, "data")).toMatchObject({
        answer: "Yes.",
        questions: ["Do you sell gift cards?", "Gift cards?"]
      })
      const exported = yield* get(key, `${base}/curated/export`)
      expect(exported.text).toBe("questions,answer,language\r\nDo you sell gift cards? | Gift cards?,Yes.,en\r\n")
      const csv = [
        "questions,answer,language",
        "Do you sell gift cards?,\"Yes, online and in store.\",en",
        "هزینه ارسال به کیش چقدر است؟ | ارسال به کیش,\"رایگان است\",fa"
      ].join("\n")
      const imported = yield* call("POST", `${base}/curated/import`, { token: key, body: { csv } })
      expect(imported.json).toMatchObject({ data: { created: 1, updated: 1 } })
      const list = yield* get(key, `${base}/curated`)
      expect(pick(list.json, "data", "count")).toBe(2)
      const bad = yield* call("POST", `${base}/curated/import`, { token: key, body: { csv: "questions,answer\n,x" } })
      expect(bad.json).toMatchObject({ response: { code: "curated.csv_invalid" } })
      const removed = yield* call("DELETE", `${base}/curated/${id}`, { token: key })
      expect(removed.status).toBe(200)
      const gone = yield* get(key, `${base}/curated/${id}`)
      expect(gone.status).toBe(404)
    }))

  it.effect("the operator lists, reads and deletes conversations of any account", () =>
    Effect.gen(function*() {
      const { accountId, conversationId } = yield* withConversation
      const headers = { token: adminToken }
      const list = yield* call("GET", `/admin/v1/conversations?accountId=${accountId}`, headers)
      expect(pick(list.json, "data", "list", 0)).toMatchObject({ id: conversationId, accountId })
      const one = yield* call("GET", `/admin/v1/conversations/${conversationId}`, headers)
      expect(pick(one.json, "data", "messages")).toHaveLength(4)
      const deleted = yield* call("DELETE", `/admin/v1/conversations/${conversationId}`, headers)
      expect(deleted.status).toBe(200)
      const gone = yield* call("GET", `/admin/v1/conversations/${conversationId}`, headers)
      expect(gone.status).toBe(404)
      const missing = yield* call("PUT", `/admin/v1/accounts/acc_missing/retention`, { ...headers, body: { days: 3 } })
      expect(missing.status).toBe(404)
    }))

  it.effect("the operator reads back each account's own retention; an API key reads none", () =>
    Effect.gen(function*() {
      const mine = yield* setupAccount()
      const other = yield* setupAccount()
      const headers = { token: adminToken }
      const retention = (accountId: string) => `/admin/v1/accounts/${accountId}/retention`
      const unset = yield* call("GET", retention(mine.accountId), headers)
      expect(unset.json).toMatchObject({ data: { days: null } })
      yield* call("PUT", retention(mine.accountId), { ...headers, body: { days: 45 } })
      yield* call("PUT", retention(other.accountId), { ...headers, body: { days: 7 } })
      expect((yield* call("GET", retention(mine.accountId), headers)).json).toMatchObject({ data: { days: 45 } })
      expect((yield* call("GET", retention(other.accountId), headers)).json).toMatchObject({ data: { days: 7 } })
      yield* call("PUT", retention(mine.accountId), { ...headers, body: { days: null } })
      expect((yield* call("GET", retention(mine.accountId), headers)).json).toMatchObject({ data: { days: null } })
      const missing = yield* call("GET", retention("acc_missing"), headers)
      expect(missing.json).toMatchObject({ response: { code: "accounts.not_found" } })
      // A shop's key opens no operator route: neither another account's retention nor its own.
      for (const accountId of [other.accountId, mine.accountId]) {
        const reply = yield* call("GET", retention(accountId), { token: mine.key })
        expect(reply.status).toBe(401)
      }
    }))
})
