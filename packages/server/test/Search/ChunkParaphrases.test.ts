/**
 * A question worded otherwise than the document finds its passage through the answerer's paraphrases, and a
 * passage holding the question's own word still ranks above one holding only a paraphrase of it.
 */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ChunkSearch } from "../../src/Documents/ChunkSearch"
import { jobIdsOf, upload, waitForJob } from "../Documents/support"
import { setupAccount, TestApp } from "../support/TestApp"

const documents = [
  { name: "suspend.txt", text: "You may suspend it for up to two months each year." },
  { name: "fees.txt", text: "A membership costs twenty pounds, paid on the first day of each month." },
  { name: "pool.txt", text: "The pool opens at seven and closes at ten; it is closed on public holidays." }
]

const uploadAll = (key: string, assistantId: string, docs: ReadonlyArray<{ name: string; text: string }>) =>
  Effect.gen(function*() {
    const reply = yield* upload(
      key,
      assistantId,
      docs.map((doc) => ({ name: doc.name, bytes: new TextEncoder().encode(doc.text) }))
    )
    for (const jobId of jobIdsOf(reply)) {
      expect(yield* waitForJob(key, assistantId, jobId)).toMatchObject({ status: "ready" })
    }
  })

layer(TestApp(), { excludeTestServices: true, timeout: 120_000 })("chunk retrieval with paraphrases", (it) => {
  it.effect("a verb the documents never use finds the passage of its paraphrase, below the literal word", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      yield* uploadAll(key, assistantId, documents)
      const search = yield* ChunkSearch
      const scores = Effect.map(
        search.search({ assistantId, query: "Can I pause my membership?", limit: 4 }),
        (hits) => hits.map((hit) => ({ path: hit.path, score: hit.score }))
      )
      const scoreOf = (found: ReadonlyArray<{ path: string; score: number }>, path: string) =>
        found.find((hit) => hit.path === path)?.score ?? 0
      // Half the question's subject is found, as a paraphrase: more than the trigrams it shares with it.
      const before = yield* scores
      expect(scoreOf(before, "suspend.txt")).toBeGreaterThan(0.2)
      expect(scoreOf(before, "suspend.txt")).toBeGreaterThan(scoreOf(before, "pool.txt"))
      // A passage holding the question's own verb outranks the one holding only its paraphrase.
      yield* uploadAll(key, assistantId, [
        { name: "pause.txt", text: "You may pause it once a year, by asking at the desk." }
      ])
      const after = yield* scores
      expect(scoreOf(after, "pause.txt")).toBeGreaterThan(scoreOf(after, "suspend.txt"))
    }))
})
