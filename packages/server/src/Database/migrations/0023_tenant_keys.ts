import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * The tenant key on every row of a table that reached its assistant only
 * through a parent (see Database/Distribution.ts): Citus shards a table by a
 * column of its own rows. Each column is added nullable, filled from the
 * parent in one statement, then made NOT NULL, so it applies to a populated
 * database (the fill rewrites those tables once). Writers name the key from
 * now on.
 *
 * Primary keys and the foreign keys between distributed tables then carry
 * the key as their last column: lookups by id alone still use the index (its
 * leading columns), and ids, unique already, stay unique. Each step rebuilds
 * an index under a lock of its table, once.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const fill = [
    ["document_upload_pieces", "document_jobs", "job_id", "id"],
    ["document_chunks", "documents", "file_id", "id"],
    ["chat_messages", "conversations", "conversation_id", "id"],
    ["message_feedback", "conversations", "conversation_id", "id"],
    ["channel_updates", "channel_connections", "connection_code", "code"],
    ["channel_conversations", "channel_connections", "connection_code", "code"],
    ["channel_unanswered", "channel_connections", "connection_code", "code"]
  ] as const
  for (const [table, parent, column, parentColumn] of fill) {
    yield* sql`ALTER TABLE ${sql(table)} ADD COLUMN assistant_id text`
    yield* sql`
      UPDATE ${sql(table)} AS t SET assistant_id = p.assistant_id
      FROM ${sql(parent)} AS p WHERE p.${sql(parentColumn)} = t.${sql(column)}`
    yield* sql`ALTER TABLE ${sql(table)} ALTER COLUMN assistant_id SET NOT NULL`
  }

  // Foreign keys that point at a primary key being widened go first, and come back widened.
  const references = [
    ["document_upload_pieces", "job_id", "document_jobs"],
    ["document_chunks", "file_id", "documents"],
    ["chat_messages", "conversation_id", "conversations"],
    ["message_feedback", "message_id", "chat_messages"],
    ["message_feedback", "conversation_id", "conversations"],
    ["unanswered_questions", "message_id", "chat_messages"],
    ["unanswered_questions", "group_id", "question_groups"],
    ["unanswered_questions", "conversation_id", "conversations"]
  ] as const
  for (const [table, column] of references) {
    yield* sql`ALTER TABLE ${sql(table)} DROP CONSTRAINT ${sql(`${table}_${column}_fkey`)}`
  }
  const keys = [
    ["products", ["id"], "assistant_id"],
    ["document_jobs", ["id"], "assistant_id"],
    ["document_upload_pieces", ["job_id", "seq"], "assistant_id"],
    ["documents", ["id"], "assistant_id"],
    ["document_chunks", ["file_id", "chunk"], "assistant_id"],
    ["conversations", ["id"], "assistant_id"],
    ["chat_messages", ["id"], "assistant_id"],
    ["message_feedback", ["message_id"], "assistant_id"],
    ["question_groups", ["id"], "assistant_id"],
    ["unanswered_questions", ["message_id"], "assistant_id"],
    ["curated_answers", ["id"], "assistant_id"],
    ["channel_updates", ["connection_code", "update_key"], "assistant_id"],
    ["channel_conversations", ["connection_code", "chat_key"], "assistant_id"],
    ["channel_unanswered", ["connection_code", "message_key"], "assistant_id"],
    ["cost_ledger", ["id"], "account_id"]
  ] as const
  for (const [table, columns, key] of keys) {
    yield* sql`
      ALTER TABLE ${sql(table)} DROP CONSTRAINT ${sql(`${table}_pkey`)},
        ADD PRIMARY KEY (${sql.literal([...columns, key].join(", "))})`
  }
  for (const [table, column, parent] of references) {
    yield* sql`
      ALTER TABLE ${sql(table)} ADD CONSTRAINT ${sql(`${table}_${column}_fkey`)}
        FOREIGN KEY (${sql(column)}, assistant_id) REFERENCES ${sql(parent)} (id, assistant_id) ON DELETE CASCADE`
  }
})
