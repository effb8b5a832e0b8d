import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/** Product catalog: products, their search representation and embeddings (issue 4). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`SELECT 1`
})
