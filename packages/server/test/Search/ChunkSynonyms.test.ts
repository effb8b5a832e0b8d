/** The shop's synonyms steer chunk retrieval as they steer product search, at once and without re-ingesting. */
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { ChunkSearch } from "../../src/Documents/ChunkSearch"
import { jobIdsOf, upload, waitForJob } from "../Documents/support"
import { call, setupAccount, TestApp } from "../support/TestApp"

const documents = [
  { name: "warranty.txt", text: "Every samovar carries a two year warranty. Keep the warranty card with the receipt." },
  { name: "care.txt", text: "Descale the kettle monthly with white vinegar, then rinse it twice with clean water." },
  { name: "hours.txt", text: "The shop opens at nine and closes at five; it is closed on Fridays." }
]

layer(TestApp(), { excludeTestServices: true, timeout: 120_000 })("chunk retrieval with synonyms", (it) => {
  it.effect("a word the documents never use finds the chunk of its synonym once the set exists", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const reply = yield* upload(
        key,
        assistantId,
        documents.map((doc) => ({ name: doc.name, bytes: new TextEncoder().encode(doc.text) }))
      )
      for (const jobId of jobIdsOf(reply)) {
        expect(yield* waitForJob(key, assistantId, jobId)).toMatchObject({ status: "ready" })
      }
      const search = yield* ChunkSearch
      const scoreOfWarranty = Effect.map(
        search.search({ assistantId, query: "urn", limit: 3 }),
        (hits) => ({ top: hits[0]?.path, score: hits.find((hit) => hit.path === "warranty.txt")?.score ?? 0 })
      )
      const before = yield* scoreOfWarranty
      const added = yield* call("POST", `/v1/assistants/${assistantId}/synonyms`, {
        token: key,
        body: { synonyms: ["samovar", "urn"] }
      })
      expect(added.status).toBe(201)
      const after = yield* scoreOfWarranty
      expect(after.top).toBe("warranty.txt")
      expect(after.score).toBeGreaterThan(before.score)
    }))
})
