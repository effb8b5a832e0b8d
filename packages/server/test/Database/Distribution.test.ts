/**
 * The schema against the Citus plan (Database/Distribution.ts), read from the
 * catalog after every migration: a table the plan does not name, or a key,
 * unique index or foreign key Citus would refuse, fails here.
 */
import { NodeContext } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import { PgMigrator } from "@effect/sql-pg"
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { layerPostgres } from "../../src/Database/Database"
import { distribution, knownExceptions, type Placement } from "../../src/Database/Distribution"
import { migrations } from "../../src/Database/Migrator"
import { freshPostgresDatabase } from "../../src/Testing"
import { TestApp } from "../support/TestApp"

interface Constraint {
  readonly table: string
  readonly name: string
  readonly kind: "p" | "u" | "f" | "i"
  readonly columns: ReadonlyArray<string>
  readonly referenced: string | null
  readonly referencedColumns: ReadonlyArray<string> | null
}

const keyOf = (placement: Placement | undefined) =>
  placement !== undefined && "distributedBy" in placement ? placement.distributedBy : undefined

/** Why Citus would refuse this constraint under the plan, or undefined. */
const problem = (constraint: Constraint): string | undefined => {
  const key = keyOf(distribution[constraint.table])
  if (constraint.kind !== "f") {
    return key === undefined || constraint.columns.includes(key) ? undefined : `lacks ${key}`
  }
  const target = constraint.referenced ?? ""
  const targetPlacement = distribution[target]
  const targetKey = keyOf(targetPlacement)
  if (targetPlacement !== undefined && "reference" in targetPlacement) {
    return key === undefined && !("reference" in (distribution[constraint.table] ?? {}))
      ? `a coordinator table references the reference table ${target}`
      : undefined
  }
  if (key === undefined) return `references ${target}, which is not a reference table`
  if (targetKey !== key) return `references ${target}, distributed by ${targetKey ?? "nothing"}`
  const at = constraint.columns.indexOf(key)
  return at >= 0 && constraint.referencedColumns?.[at] === key ? undefined : `does not join ${target} on ${key}`
}

layer(TestApp(), { excludeTestServices: true })("a schema Citus can distribute", (it) => {
  const readSchema = Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const tables = yield* sql<{ readonly name: string }>`
      SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p') AND NOT c.relispartition`
    const constraints = yield* sql<Constraint>`
      SELECT t.relname AS table, k.conname AS name, k.contype AS kind,
        ARRAY(SELECT attname::text FROM unnest(k.conkey) WITH ORDINALITY u(n, o)
          JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = u.n ORDER BY u.o) AS columns,
        r.relname AS referenced,
        CASE WHEN k.contype = 'f' THEN ARRAY(SELECT attname::text FROM unnest(k.confkey) WITH ORDINALITY u(n, o)
          JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = u.n ORDER BY u.o) END AS referenced_columns
      FROM pg_constraint k JOIN pg_class t ON t.oid = k.conrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace LEFT JOIN pg_class r ON r.oid = k.confrelid
      WHERE n.nspname = current_schema() AND k.contype IN ('p', 'u', 'f')
      UNION ALL
      -- Unique indexes made without a constraint (partial ones among them) bind Citus the same way.
      SELECT t.relname, i.relname, 'i',
        ARRAY(SELECT attname::text FROM unnest(x.indkey) u(n) JOIN pg_attribute a ON a.attrelid = x.indrelid AND a.attnum = u.n),
        NULL, NULL
      FROM pg_index x JOIN pg_class i ON i.oid = x.indexrelid JOIN pg_class t ON t.oid = x.indrelid
      JOIN pg_namespace n ON n.oid = t.relnamespace
      WHERE n.nspname = current_schema() AND x.indisunique
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = x.indexrelid)`
    return { tables: tables.map((row) => row.name), constraints }
  })

  it.effect("every table has a place in the plan", () =>
    Effect.gen(function*() {
      const { tables } = yield* readSchema
      expect(tables.filter((table) => distribution[table] === undefined)).toEqual([])
    }))

  it.effect("every distributed table has its key column, not null", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const { tables } = yield* readSchema
      const columns = yield* sql<{ readonly table: string; readonly column: string; readonly nullable: string }>`
        SELECT table_name AS table, column_name AS column, is_nullable AS nullable
        FROM information_schema.columns WHERE table_schema = current_schema()`
      const missing = tables.flatMap((table) => {
        const key = keyOf(distribution[table])
        if (key === undefined) return []
        const column = columns.find((row) => row.table === table && row.column === key)
        return column?.nullable === "NO" ? [] : [table]
      })
      expect(missing).toEqual([])
    }))

  it.effect("every primary key, unique index and foreign key of a distributed table carries its key", () =>
    Effect.gen(function*() {
      const { constraints } = yield* readSchema
      const problems = constraints.flatMap((constraint) => {
        const why = problem(constraint)
        return why === undefined ? [] : [{ name: constraint.name, why: `${constraint.table}: ${why}` }]
      })
      // Only the documented exceptions remain, and each still is one (the list may only shrink).
      expect(problems.filter((entry) => !knownExceptions.includes(entry.name))).toEqual([])
      expect(knownExceptions.filter((name) => !problems.some((entry) => entry.name === name))).toEqual([])
    }))
})

describe("the tenant keys' migration", () => {
  const baseUrl = process.env.DATABASE_URL
  it.live.skipIf(baseUrl === undefined)("fills each new key from the row's parent on a populated database", () =>
    Effect.gen(function*() {
      const { url } = yield* freshPostgresDatabase(baseUrl ?? "")
      yield* Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const before = Effect.map(migrations, (all) => all.filter(([id]) => id < 23))
        yield* PgMigrator.run({ loader: before })
        yield* sql`INSERT INTO accounts (id, name, plan) VALUES ('acc', 'Shop', 'free')`
        yield* sql`
          INSERT INTO assistants (id, account_id, name, model, reasoning, status, identity_settings)
          VALUES ('asst', 'acc', 'Bot', 'm', 'none', 'ready', '{}')`
        yield* sql`INSERT INTO conversations (id, account_id, assistant_id, principal) VALUES ('conv', 'acc', 'asst', 'p')`
        yield* sql`INSERT INTO chat_messages (conversation_id, role, content, tokens) VALUES ('conv', 'user', 'hi', 1)`
        yield* sql`
          INSERT INTO document_jobs (id, assistant_id, path, filename, kind, file_kind, mime_type, size_bytes, status)
          VALUES ('job', 'asst', '/a.txt', 'a.txt', 'file', 'text', 'text/plain', 2, 'queued')`
        yield* sql`INSERT INTO document_upload_pieces (job_id, seq, bytes) VALUES ('job', 0, '\\x6869')`
        yield* sql`
          INSERT INTO channel_connections (code, assistant_id, driver, status, secrets)
          VALUES ('code', 'asst', 'telegram', 'active', '\\x00')`
        yield* sql`INSERT INTO channel_updates (connection_code, update_key) VALUES ('code', 'u1')`

        yield* PgMigrator.run({ loader: migrations })
        const keys = yield* sql<{ readonly assistantId: string }>`
          SELECT assistant_id FROM chat_messages UNION ALL SELECT assistant_id FROM document_upload_pieces
          UNION ALL SELECT assistant_id FROM channel_updates`
        expect(keys.map((row) => row.assistantId)).toEqual(["asst", "asst", "asst"])
      }).pipe(Effect.provide(Layer.merge(layerPostgres(Redacted.make(url), 2), NodeContext.layer)))
    }).pipe(Effect.scoped))
})
