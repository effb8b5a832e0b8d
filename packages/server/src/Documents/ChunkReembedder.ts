/**
 * After the embedder changes, chunks keep their old vectors (found only by
 * their words meanwhile, since vectors of two models are never compared).
 * This background pass embeds them again with the current embedder, in small
 * batches locked with SKIP LOCKED, so several instances share the work.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Worker from "../Platform/Worker"
import { Embedder, vectorLiteral } from "../Search/Embedder"

const batchSize = 64

export const layer = Layer.scopedDiscard(
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const embedder = yield* Embedder

    /** Re-embeds one batch of stale chunks; the number done (0 when none is left). */
    const reembedBatch = Effect.gen(function*() {
      const stale = yield* sql<{ readonly fileId: string; readonly chunk: number; readonly text: string }>`
        SELECT file_id, chunk, text FROM document_chunks WHERE model_id <> ${embedder.modelId}
        LIMIT ${batchSize} FOR UPDATE SKIP LOCKED`
      if (stale.length === 0) return 0
      const { vectors } = yield* embedder.embed(stale.map((row) => row.text))
      const records = stale.map((row, i) => ({
        file_id: row.fileId,
        chunk: row.chunk,
        embedding: vectorLiteral(vectors[i] ?? [])
      }))
      yield* sql`
        UPDATE document_chunks c SET embedding = x.embedding::halfvec, model_id = ${embedder.modelId}
        FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS x(file_id text, chunk integer, embedding text)
        WHERE c.file_id = x.file_id AND c.chunk = x.chunk`
      return stale.length
    }).pipe(sql.withTransaction)

    const pass = Effect.gen(function*() {
      let done = 0
      while (true) {
        const count = yield* reembedBatch
        if (count === 0) break
        done += count
      }
      if (done > 0) {
        yield* Effect.logInfo("document chunks embedded again with the current embedder").pipe(
          Effect.annotateLogs({ chunks: done, embedder: embedder.modelId })
        )
      }
    })

    yield* Worker.every("chunk-reembedder", pass, {
      interval: "30 seconds",
      span: "Documents.reembedChunks",
      failureMessage: "re-embedding document chunks failed; retrying later"
    })
  })
)
