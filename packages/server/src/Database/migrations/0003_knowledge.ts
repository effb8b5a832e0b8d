import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/**
 * Knowledge base: ingest jobs with their uploaded bytes, documents and their
 * chunks (vector + keyword). A document row is written `staging` while its
 * chunks are inserted and turns `ready` in the transaction that finishes its
 * job, so list and search (which read `ready` rows only) see it all at once.
 */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE document_jobs (
      id text PRIMARY KEY,
      assistant_id text NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
      folder_id char(32) REFERENCES folders(id) ON DELETE SET NULL,
      path text NOT NULL,
      filename text NOT NULL,
      kind text NOT NULL,
      file_kind text NOT NULL,
      mime_type text NOT NULL,
      size_bytes integer NOT NULL,
      status text NOT NULL,
      attempts integer NOT NULL DEFAULT 0,
      result_file_id text,
      result_n_chunks integer,
      result_size_bytes integer,
      error_message text,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE INDEX document_jobs_in_flight_idx ON document_jobs (assistant_id, path) WHERE status IN ('queued', 'processing')`
  yield* sql`CREATE INDEX document_jobs_open_idx ON document_jobs (updated_at) WHERE status IN ('queued', 'processing')`
  // Uploaded bytes in 1 MiB pieces until the job ends: any instance's worker can read them; they commit with the job.
  yield* sql`
    CREATE TABLE document_upload_pieces (
      job_id text NOT NULL REFERENCES document_jobs(id) ON DELETE CASCADE,
      seq integer NOT NULL,
      bytes bytea NOT NULL,
      PRIMARY KEY (job_id, seq)
    )`
  yield* sql`
    CREATE TABLE documents (
      id text PRIMARY KEY,
      assistant_id text NOT NULL REFERENCES assistants(id) ON DELETE CASCADE,
      folder_id char(32) REFERENCES folders(id) ON DELETE CASCADE,
      job_id text NOT NULL,
      path text NOT NULL,
      state text NOT NULL,
      n_chunks integer NOT NULL,
      size_bytes integer NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`
  yield* sql`CREATE UNIQUE INDEX documents_ready_path_idx ON documents (assistant_id, path) WHERE state = 'ready'`
  yield* sql`CREATE INDEX documents_job_idx ON documents (job_id)`
  yield* sql`
    CREATE TABLE document_chunks (
      file_id text NOT NULL REFERENCES documents(id) ON DELETE CASCADE,
      chunk integer NOT NULL,
      text text NOT NULL,
      search_text text NOT NULL,
      search_vector tsvector GENERATED ALWAYS AS (to_tsvector('simple', search_text)) STORED,
      model_id text NOT NULL,
      embedding vector NOT NULL,
      PRIMARY KEY (file_id, chunk)
    )`
  // Vectors stay in the row, like the products' (see 0002).
  yield* sql`ALTER TABLE document_chunks ALTER COLUMN embedding SET STORAGE MAIN`
  yield* sql`CREATE INDEX document_chunks_search_idx ON document_chunks USING gin (search_vector)`
  yield* sql`CREATE INDEX document_chunks_model_idx ON document_chunks (model_id)`
})
