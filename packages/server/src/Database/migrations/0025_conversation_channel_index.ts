import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * The conversation list filtered by channel reads its own index in the list's
 * keyset order, as the other filters do: a channel few conversations came
 * from would otherwise be found by reading the assistant's whole list.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE INDEX conversations_channel_list_idx
    ON conversations (assistant_id, channel, created_at DESC, id DESC)`
})
