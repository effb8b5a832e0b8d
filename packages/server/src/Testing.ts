/**
 * The real service for tests (this package's and the SDK's and CLI's): the
 * whole layer graph on a real database (a fresh Postgres database per test
 * file when `DATABASE_URL` is set, else embedded PGlite in a temporary
 * directory), served on a real loopback socket, with an `HttpClient` aimed at it.
 */
import { NodeHttpServer } from "@effect/platform-node"
import { SqlClient } from "@effect/sql"
import * as ConfigProvider from "effect/ConfigProvider"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import pg from "pg"
import { AppLive } from "./App"

/** As long as the server requires (`minAdminTokenLength`). */
export const adminToken = "test-admin-token-0123456789abcdef"

const tempDir = Effect.acquireRelease(
  Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-test-"))),
  (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
)

/** A new, empty database on the server of `DATABASE_URL`, dropped afterwards. */
export const freshPostgresDatabase = (baseUrl: string) =>
  Effect.acquireRelease(
    Effect.promise(async () => {
      const name = `dastyar_t_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`
      const client = new pg.Client({ connectionString: baseUrl })
      await client.connect()
      await client.query(`CREATE DATABASE ${name}`)
      await client.end()
      const url = new URL(baseUrl)
      url.pathname = `/${name}`
      return { name, url: url.toString() }
    }),
    ({ name }) =>
      Effect.promise(async () => {
        const client = new pg.Client({ connectionString: baseUrl })
        await client.connect()
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
        await client.end()
      }).pipe(Effect.ignore)
  )

/**
 * Settings that point several app instances, one after another or side by
 * side, at one database: a fresh Postgres database, or one PGlite directory
 * (PGlite allows one instance at a time).
 */
export const sharedDatabase = Effect.gen(function*() {
  const baseUrl = process.env.DATABASE_URL
  if (baseUrl) return { DATABASE_URL: (yield* freshPostgresDatabase(baseUrl)).url }
  return { DASTYAR_DATA_DIR: yield* tempDir }
})

/** The service with test settings; `env` overrides them (e.g. the rate limit), and an empty value removes one. */
export const TestApp = (env: Record<string, string> = {}) =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const dataDir = yield* tempDir
      const baseUrl = process.env.DATABASE_URL
      const database = baseUrl ? { DATABASE_URL: (yield* freshPostgresDatabase(baseUrl)).url } : {}
      const settings = new Map(
        Object.entries({
          DASTYAR_DATA_DIR: dataDir,
          DASTYAR_ADMIN_TOKEN: adminToken,
          DASTYAR_SEED_DEMO: "false",
          DASTYAR_LOG_LEVEL: "Warn",
          DASTYAR_DB_POOL_SIZE: "4",
          ...database,
          ...env
        }).filter(([, value]) => value !== "")
      )
      return AppLive.pipe(
        Layer.provideMerge(NodeHttpServer.layerTest),
        Layer.provide(Layer.setConfigProvider(ConfigProvider.fromMap(settings)))
      )
    })
  )

/**
 * `count` conversations of two messages each for the assistant, written straight to the database (with
 * `generate_series`), for tests of reading many: what chat would have stored, not made through chat.
 */
export const seedConversations = (accountId: string, assistantId: string, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql`
      INSERT INTO conversations (id, account_id, assistant_id, principal, channel, title, message_count,
        created_at, updated_at)
      SELECT 'conv_seed' || i, ${accountId}, ${assistantId}, 'customer-' || (i % 100), 'api',
        'Question number ' || i, 2, now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval
      FROM generate_series(1, ${count}) AS i`
    yield* sql`
      INSERT INTO chat_messages (assistant_id, conversation_id, role, content, tokens, meta, created_at)
      SELECT ${assistantId}, 'conv_seed' || i, CASE WHEN m = 1 THEN 'user' ELSE 'assistant' END,
        'Message ' || m || ' of conversation ' || i || ', long enough to look like a real question or answer.', 20,
        '{"sources":[],"products":[],"model":"dastyar-local","degraded":false}', now() - (i || ' seconds')::interval
      FROM generate_series(1, ${count}) AS i, generate_series(1, 2) AS m`
  }).pipe(Effect.orDie)
