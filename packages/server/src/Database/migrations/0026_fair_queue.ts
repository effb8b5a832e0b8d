import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Fair claims across tenants (Queue/Queue.ts): each queue element records
 * whose work it is, and an offer finds its tenant's latest waiting element and
 * the queue's head through these indexes. The queue's table is made here as
 * the library makes it (it creates it on first use, after the migrations) so
 * that the column can be added on a new database too; on a populated one it
 * exists and only gains the nullable column.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE IF NOT EXISTS dastyar_queue (
      sequence SERIAL PRIMARY KEY,
      id VARCHAR(36) NOT NULL,
      queue_name VARCHAR(100) NOT NULL,
      element TEXT NOT NULL,
      completed BOOLEAN NOT NULL,
      attempts INTEGER NOT NULL DEFAULT 0,
      last_failure TEXT NULL,
      acquired_at TIMESTAMP NULL,
      acquired_by UUID NULL,
      created_at TIMESTAMP NOT NULL,
      updated_at TIMESTAMP NOT NULL
    )`
  yield* sql`ALTER TABLE dastyar_queue ADD COLUMN IF NOT EXISTS tenant_key text`
  yield* sql`
    CREATE INDEX IF NOT EXISTS dastyar_queue_tenant_idx ON dastyar_queue (queue_name, tenant_key, updated_at)
    WHERE NOT completed`
  yield* sql`CREATE INDEX IF NOT EXISTS dastyar_queue_head_idx ON dastyar_queue (queue_name, updated_at) WHERE NOT completed`
})
