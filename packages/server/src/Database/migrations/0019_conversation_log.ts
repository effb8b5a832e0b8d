import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * The conversation log the shop reads (issue 33): each conversation's channel,
 * title, size and flags kept on its row so a list page reads one index; feedback
 * per answer; the questions nobody answered, grouped as they are written;
 * per-account retention; when each key was last used.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    ALTER TABLE conversations
      ADD COLUMN channel text NOT NULL DEFAULT 'api',
      ADD COLUMN title text NOT NULL DEFAULT '',
      ADD COLUMN message_count integer NOT NULL DEFAULT 0,
      ADD COLUMN needs_attention boolean NOT NULL DEFAULT false,
      ADD COLUMN negative_feedback boolean NOT NULL DEFAULT false`
  // Newest first by start, with the id as tie-breaker: the list's keyset order.
  yield* sql`CREATE INDEX conversations_list_idx ON conversations (assistant_id, created_at DESC, id DESC)`
  yield* sql`
    CREATE INDEX conversations_principal_list_idx
    ON conversations (assistant_id, principal, created_at DESC, id DESC)`
  yield* sql`
    CREATE INDEX conversations_attention_idx ON conversations (assistant_id, created_at DESC, id DESC)
    WHERE needs_attention`
  yield* sql`
    CREATE INDEX conversations_negative_idx ON conversations (assistant_id, created_at DESC, id DESC)
    WHERE negative_feedback`
  // Retention deletes per account by last activity; the operator's list runs across accounts by start.
  yield* sql`CREATE INDEX conversations_account_age_idx ON conversations (account_id, updated_at)`
  yield* sql`CREATE INDEX conversations_age_idx ON conversations (created_at DESC, id DESC)`
  yield* sql`ALTER TABLE accounts ADD COLUMN conversation_retention_days integer`
  yield* sql`ALTER TABLE api_keys ADD COLUMN last_used_at timestamptz, ADD COLUMN key_prefix text`
  // One vote per answer: the row is replaced by the next vote.
  yield* sql`
    CREATE TABLE message_feedback (
      message_id bigint PRIMARY KEY REFERENCES chat_messages(id) ON DELETE CASCADE,
      conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      rating text NOT NULL CHECK (rating IN ('up', 'down')),
      comment text,
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX message_feedback_conversation_idx ON message_feedback (conversation_id)`
  // A group of similar unanswered questions: its vector is the sum of its members' (compared by cosine).
  yield* sql`
    CREATE TABLE question_groups (
      id bigserial PRIMARY KEY,
      assistant_id text NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
      model_id text NOT NULL,
      label text NOT NULL,
      terms text[] NOT NULL,
      vector vector NOT NULL,
      size integer NOT NULL DEFAULT 0,
      last_seen timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX question_groups_assistant_idx ON question_groups (assistant_id, last_seen DESC)`
  // One row per answer that left its question unanswered, keyed by the answer's message.
  yield* sql`
    CREATE TABLE unanswered_questions (
      message_id bigint PRIMARY KEY REFERENCES chat_messages(id) ON DELETE CASCADE,
      group_id bigint NOT NULL REFERENCES question_groups(id) ON DELETE CASCADE,
      assistant_id text NOT NULL,
      conversation_id text NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
      question text NOT NULL,
      reasons text[] NOT NULL,
      channel text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX unanswered_assistant_idx ON unanswered_questions (assistant_id, created_at)`
  yield* sql`CREATE INDEX unanswered_group_idx ON unanswered_questions (group_id, created_at DESC)`
  yield* sql`CREATE INDEX unanswered_conversation_idx ON unanswered_questions (conversation_id)`
})
