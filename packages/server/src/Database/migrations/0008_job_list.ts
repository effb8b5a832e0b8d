import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/** The assistant's ingest jobs, newest first (`GET /documents/jobs`), without scanning every assistant's jobs. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE INDEX document_jobs_assistant_created_idx ON document_jobs (assistant_id, created_at DESC, id DESC)`
})
