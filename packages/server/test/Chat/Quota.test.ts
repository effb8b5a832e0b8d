/**
 * The monthly allowance is exact under concurrency: a turn is admitted by a
 * reservation written before the model runs, so concurrent turns see each
 * other, and the ledger ends equal to what the answered turns spent.
 */
import { SqlClient } from "@effect/sql"
import { afterAll, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import { fakeEmbeddings } from "../support/FakeEmbeddings"
import { call, pick, setupAccount, TestApp } from "../support/TestApp"
import { addDocument, chat, writeCatalog } from "./support/ChatSetup"
import { startFakeOpenAi } from "./support/FakeOpenAi"

const provider = await startFakeOpenAi()
afterAll(() => provider.close())

/**
 * A turn reserves its prompt, its query's embedding and all the output it may write: with 10,000 output tokens
 * and a short prompt a turn reserves between 10,000 and 12,499 tokens, so an allowance of 50,000 admits five
 * turns at once and no sixth (a turn is admitted while the month is under the allowance).
 */
const maxOutputTokens = 10_000
const fiveTurns = 50_000

const catalogFile = writeCatalog(provider.baseUrl)
const catalog = JSON.parse(fs.readFileSync(catalogFile, "utf8"))
catalog.plans.push({ key: "five-turns", models: "*", monthlyTokens: fiveTurns })
// The provider model of the burst waits for the held answers without timing out or retrying (a retry would be
// counted as another admitted turn by the wait below).
catalog.models.push({
  key: "acme-patient",
  name: "Acme Patient",
  company: "acme",
  supportedReasoning: ["none"],
  provider: {
    _tag: "openai-compatible",
    baseUrl: provider.baseUrl,
    apiKeyEnv: "FAKE_PROVIDER_KEY",
    upstreamModel: "acme-chat-1",
    timeoutMs: 60_000,
    maxRetries: 0
  }
})
fs.writeFileSync(catalogFile, JSON.stringify(catalog))

const turnTokens = (reply: unknown) =>
  ["promptTokens", "completionTokens", "embeddingTokens", "transcriptionTokens"]
    .map((field) => Number(pick(reply, "data", "quota", "turn", field) ?? 0))
    .reduce((a, b) => a + b, 0)

layer(TestApp({ DASTYAR_CONFIG: catalogFile, FAKE_PROVIDER_KEY: "sk-fake" }), { excludeTestServices: true })(
  "quota",
  (it) => {
    it.effect(
      "20 concurrent turns against an allowance of five: five answered, the rest 402, the ledger their sum",
      () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const { accountId, assistantId, key } = yield* setupAccount({
            plan: "five-turns",
            assistant: { model: "acme-chat", productSearch: false, maxOutputTokens }
          })
          // The provider answers none until every turn is admitted or refused: no settled turn frees room early.
          const release = provider.hold()
          let refused = 0
          const turns = yield* Effect.fork(Effect.forEach(
            Array.from({ length: 20 }, (_, i) => i),
            (i) =>
              chat(key, assistantId, { principal: `p${i}`, message: "Do you ship to Shiraz?" }).pipe(
                Effect.tap((reply) => Effect.sync(() => reply.status === 402 && refused++))
              ),
            { concurrency: "unbounded" }
          ))
          const start = Date.now()
          while (provider.requests.length + refused < 20 && Date.now() - start < 30_000) {
            yield* Effect.sleep("10 millis")
          }
          release()
          const replies = yield* turns.await.pipe(Effect.flatten)
          const answered = replies.filter((reply) => reply.status === 200)
          expect(answered).toHaveLength(5)
          expect(replies.filter((reply) => reply.status === 402)).toHaveLength(15)
          expect(replies.find((reply) => reply.status === 402)?.json).toMatchObject({
            response: { status: "payment_required", code: "chat.quota_exhausted" }
          })
          const [ledger] = yield* sql<{ readonly spent: number; readonly reserved: number; readonly rows: number }>`
          SELECT sum(prompt_tokens + completion_tokens + embedding_tokens + transcription_tokens)::int AS spent,
                 sum(reserved_tokens)::int AS reserved, count(*)::int AS rows
          FROM cost_ledger WHERE account_id = ${accountId}`
          expect(ledger).toEqual({
            spent: answered.map((reply) => turnTokens(reply.json)).reduce((a, b) => a + b, 0),
            reserved: 0,
            rows: 5
          })
        }),
      120_000
    )

    it.effect(
      "a turn cut off by the client's disconnect is billed for what it asked for",
      () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const { accountId, assistantId, key } = yield* setupAccount({
            assistant: { model: "acme-chat", productSearch: false, maxOutputTokens: 300 }
          })
          provider.queue({ kind: "hang" })
          // The client gives up while the provider has not answered.
          const cut = yield* chat(key, assistantId, { principal: "p", message: "Do you ship to Shiraz?" }).pipe(
            Effect.timeoutOption("300 millis")
          )
          expect(cut._tag).toBe("None")
          const start = Date.now()
          let rows: ReadonlyArray<{ readonly reserved: number; readonly completion: number; readonly prompt: number }> =
            []
          while (Date.now() - start < 10_000) {
            rows = yield* sql<{ readonly reserved: number; readonly completion: number; readonly prompt: number }>`
            SELECT reserved_tokens AS reserved, completion_tokens AS completion, prompt_tokens AS prompt
            FROM cost_ledger WHERE account_id = ${accountId}`
            if (rows.length === 1 && rows[0]?.reserved === 0) break
            yield* Effect.sleep("10 millis")
          }
          expect(rows).toEqual([{ reserved: 0, completion: 300, prompt: expect.any(Number) }])
          expect(rows[0]?.prompt).toBeGreaterThan(0)
          const conversations = yield* sql`SELECT id FROM conversations WHERE assistant_id = ${assistantId}`
          expect(conversations).toHaveLength(0)
        }),
      60_000
    )
  }
)

it.scopedLive(
  "embeddings made by a provider for products and documents are billed to the account",
  () =>
    Effect.gen(function*() {
      const fake = yield* fakeEmbeddings({ dimensions: 64 })
      const app = yield* Layer.build(TestApp({
        DASTYAR_EMBEDDINGS_BASE_URL: fake.baseUrl,
        DASTYAR_EMBEDDINGS_API_KEY: "emb-key",
        DASTYAR_EMBEDDINGS_MODEL: "fake-embed",
        DASTYAR_EMBEDDINGS_DIMENSIONS: "64"
      }))
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const { accountId, assistantId, key } = yield* setupAccount()
        yield* call("POST", `/v1/assistants/${assistantId}/products/import`, {
          token: key,
          body: {
            products: [{ externalId: "k-1", title: "Copper kettle" }, { externalId: "k-2", title: "Linen apron" }]
          }
        })
        yield* addDocument(key, assistantId, "care.md", "Copper kettles need a soft cloth and lemon juice.")
        // The fake counts two tokens per text; every text it embedded was this account's.
        const start = Date.now()
        let billed = -1
        while (Date.now() - start < 20_000) {
          const [row] = yield* sql<{ readonly tokens: number }>`
          SELECT coalesce(sum(embedding_tokens), 0)::int AS tokens FROM cost_ledger
          WHERE account_id = ${accountId} AND kind = 'embedding'`
          billed = row?.tokens ?? 0
          if (billed === 6) break
          yield* Effect.sleep("20 millis")
        }
        expect(fake.batches.reduce((sum, n) => sum + n, 0)).toBe(3)
        expect(billed).toBe(6)
      }).pipe(Effect.provide(app))
    }),
  120_000
)
