import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/** Accounts, their API keys, assistants and folders. */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`CREATE EXTENSION IF NOT EXISTS vector`
  yield* sql`CREATE EXTENSION IF NOT EXISTS pg_trgm`
  yield* sql`
    CREATE TABLE accounts (
      id text PRIMARY KEY,
      name text NOT NULL,
      plan text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`
    CREATE TABLE api_keys (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text,
      secret_hash bytea NOT NULL UNIQUE,
      created_at timestamptz NOT NULL DEFAULT now(),
      revoked_at timestamptz
    )`
  yield* sql`CREATE INDEX api_keys_account_idx ON api_keys (account_id)`
  yield* sql`
    CREATE TABLE assistants (
      id text PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL,
      instruction text,
      model text NOT NULL,
      reasoning text NOT NULL,
      status text NOT NULL,
      status_reason text,
      description text,
      personality text,
      language text,
      identity_settings jsonb NOT NULL,
      rag_k integer,
      max_output_tokens integer,
      image_detail text,
      operators_can_view_customer_files boolean NOT NULL DEFAULT false,
      avatar_url text,
      accept_voice boolean NOT NULL DEFAULT false,
      product_search boolean NOT NULL DEFAULT true,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX assistants_account_idx ON assistants (account_id, created_at)`
  yield* sql`
    CREATE TABLE folders (
      id char(32) PRIMARY KEY,
      account_id text NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
      name text NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now(),
      UNIQUE (account_id, name)
    )`
})
