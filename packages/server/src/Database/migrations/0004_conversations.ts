import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/** Chat: conversations, messages and the cost ledger (issue 6). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT 1`
})
