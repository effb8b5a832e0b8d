import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"

/** Site content: articles of the blog, guides and changelog, with their rendered HTML (issue 7). */
export default Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  yield* sql`
    CREATE TABLE articles (
      type text NOT NULL,
      slug text NOT NULL,
      title text NOT NULL,
      summary text,
      markdown text NOT NULL,
      html text NOT NULL,
      category text,
      language text NOT NULL,
      tags jsonb NOT NULL DEFAULT '[]',
      cover_image_url text,
      status text NOT NULL,
      published_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now(),
      PRIMARY KEY (type, slug)
    )`
  // The public list: published, newest first, per type (and language or category).
  yield* sql`CREATE INDEX articles_public_idx ON articles (type, published_at DESC, slug) WHERE status = 'published'`
  yield* sql`CREATE INDEX articles_updated_idx ON articles (updated_at DESC)`
})
