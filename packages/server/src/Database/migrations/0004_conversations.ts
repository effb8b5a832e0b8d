import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/** Chat: conversations, their messages and the per-account cost ledger (issue 6). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  // One conversation belongs to one assistant and one principal of one account; every lookup names all three.
  yield* sql`
    CREATE TABLE conversations (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      assistant_id text NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
      principal text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX conversations_owner_idx ON conversations (account_id, assistant_id, principal, updated_at)`
  yield* sql`
    CREATE TABLE chat_messages (
      id bigserial PRIMARY KEY,
      conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      role text NOT NULL CHECK (role IN ('user', 'assistant')),
      content text NOT NULL,
      -- estimated tokens of content, so the history budget needs no re-count
      tokens integer NOT NULL,
      -- user: attachment kinds and sizes (never the bytes); assistant: sources, products, model, reasoning, degraded
      meta jsonb NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX chat_messages_conversation_idx ON chat_messages (conversation_id, id)`
  // No foreign key to assistants: what was spent stays on the account after an assistant is deleted.
  yield* sql`
    CREATE TABLE cost_ledger (
      id bigserial PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      assistant_id text NOT NULL,
      conversation_id text,
      model text NOT NULL,
      prompt_tokens integer NOT NULL,
      completion_tokens integer NOT NULL,
      embedding_tokens integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX cost_ledger_account_idx ON cost_ledger (account_id, created_at)`
})
