import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Upload pieces stored out of line without compression: they live for the
 * few seconds until their job ends, and compressing a text upload on the way
 * in and inflating it on the way out were on every text job's path to ready.
 * Applies to pieces written from now on.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`ALTER TABLE document_upload_pieces ALTER COLUMN bytes SET STORAGE EXTERNAL`
})
