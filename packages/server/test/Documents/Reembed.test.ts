/**
 * After the embedder changes, the background pass embeds every chunk again with
 * the current one. Two instances on one database: the first ingests; its chunks
 * are then made stale (another model's id, another vector); the second embeds
 * them again as it starts. Needs a shared Postgres (`DATABASE_URL`).
 */
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { freshPostgresDatabase } from "../../src/Testing"
import { setupAccount, TestApp } from "../support/TestApp"
import { jobIdsOf, uploadText, waitForJob } from "./support"

const baseUrl = process.env.DATABASE_URL

interface ChunkState {
  readonly modelId: string
  readonly embedding: string
}

const chunkStates = Effect.flatMap(
  SqlClient.SqlClient,
  (sql) => sql<ChunkState>`SELECT model_id, embedding::text AS embedding FROM document_chunks ORDER BY file_id, chunk`
)

describe("chunks of another embedder", () => {
  it.live.skipIf(baseUrl === undefined)(
    "are embedded again with the current embedder, to the vectors an ingest writes",
    () =>
      Effect.gen(function*() {
        const db = yield* freshPostgresDatabase(baseUrl ?? "")
        const app = TestApp({ DATABASE_URL: db.url }).pipe(Layer.orDie)

        const ingested = yield* Effect.gen(function*() {
          const { assistantId, key } = yield* setupAccount()
          const content = Array.from({ length: 40 }, (_, i) => `## Section ${i}\n\nThe kettle model ${i} boils water.`)
            .join("\n\n")
          const reply = yield* uploadText(key, assistantId, { filename: "kettles.md", content })
          const [jobId = ""] = jobIdsOf(reply)
          expect(yield* waitForJob(key, assistantId, jobId)).toMatchObject({ status: "ready" })
          const before = yield* chunkStates
          const sql = yield* SqlClient.SqlClient
          yield* sql`UPDATE document_chunks
            SET model_id = 'an-earlier-embedder', embedding = array_fill(0.5, ARRAY[vector_dims(embedding)])::halfvec`
          return before
        }).pipe(Effect.provide(app))
        expect(ingested.length).toBeGreaterThan(1)

        const after = yield* Effect.gen(function*() {
          for (let i = 0; i < 200; i++) {
            const states = yield* chunkStates
            if (states.every((state) => state.modelId !== "an-earlier-embedder")) return states
            yield* Effect.sleep("100 millis")
          }
          return yield* chunkStates
        }).pipe(Effect.provide(app))
        expect(after).toEqual(ingested)
      }).pipe(Effect.scoped),
    { timeout: 120_000 }
  )
})
