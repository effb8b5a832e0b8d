/** What the migrations leave that no route shows. */
import { SqlClient } from "@effect/sql"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { TestApp } from "../support/TestApp"

layer(TestApp(), { excludeTestServices: true })("migrations", (it) => {
  it.effect("chunk texts are compressed with lz4 where Postgres has it, and with its default (pglz) where not", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const columns = yield* sql<{ readonly name: string; readonly compression: string }>`
        SELECT attname AS name, attcompression::text AS compression FROM pg_attribute
        WHERE attrelid = 'document_chunks'::regclass AND attname IN ('text', 'search_text', 'search_terms')
        ORDER BY attname`
      // The embedded database (PGlite) is built without lz4; the suite's Postgres (Debian's) with it.
      const expected = process.env.DATABASE_URL === undefined ? "" : "l"
      expect(columns).toEqual([
        { name: "search_terms", compression: expected },
        { name: "search_text", compression: expected },
        { name: "text", compression: expected }
      ])
    }))
})
