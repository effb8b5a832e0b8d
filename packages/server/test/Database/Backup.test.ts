/**
 * Backup and restore, both storage modes: a populated service is backed up
 * while it runs, restored into a fresh one, and the fresh one has every
 * account, key, product, document, chunk and conversation, and answers search
 * and chat the same. Postgres: `pg_dump` / `pg_restore` (skipped without
 * `DATABASE_URL` or the tools). Embedded: `GET /admin/v1/backup`, extracted
 * into an empty data directory.
 */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { SqlClient } from "@effect/sql"
import { expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { execFileSync } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { freshPostgresDatabase } from "../../src/Testing"
import { addDocument, chat, putProduct, shippingDoc } from "../Chat/support/ChatSetup"
import { adminToken, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"

const secretKey = "5a".repeat(32)
const hasTool = (name: string) => {
  try {
    execFileSync(name, ["--version"], { stdio: "ignore" })
    return true
  } catch {
    return false
  }
}
const postgres = process.env.DATABASE_URL !== undefined && hasTool("pg_dump") && hasTool("pg_restore")

/** Runs `program` against a whole app instance started with `env`, then stops it. */
const withApp = <A, E, R>(env: Record<string, string>, program: Effect.Effect<A, E, R>) =>
  Effect.scoped(Effect.flatMap(Layer.build(TestApp(env)), (context) => Effect.provide(program, context)))

interface Shop {
  readonly key: string
  readonly assistantId: string
}

/** Rows of every table a restore must bring back. */
const counts = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const [row] = yield* sql`
    SELECT (SELECT count(*) FROM accounts)::int AS accounts,
           (SELECT count(*) FROM api_keys)::int AS keys,
           (SELECT count(*) FROM assistants)::int AS assistants,
           (SELECT count(*) FROM products)::int AS products,
           (SELECT count(*) FROM documents)::int AS documents,
           (SELECT count(*) FROM document_chunks)::int AS chunks,
           (SELECT count(*) FROM conversations)::int AS conversations,
           (SELECT count(*) FROM chat_messages)::int AS messages,
           (SELECT count(*) FROM cost_ledger)::int AS ledger`
  return row
})

const listAt = (json: unknown, ...at: ReadonlyArray<string>): ReadonlyArray<unknown> => {
  const found = pick(json, ...at)
  return Array.isArray(found) ? found : []
}

/** What the shop's key sees: its assistants, a product search and a chat answer with its sources. */
const answers = (shop: Shop) =>
  Effect.gen(function*() {
    const assistants = yield* call("GET", "/v1/assistants", { token: shop.key })
    const search = yield* call("POST", `/v1/assistants/${shop.assistantId}/products/search`, {
      token: shop.key,
      body: { query: "copper kettle" }
    })
    const reply = yield* chat(shop.key, shop.assistantId, { principal: "later", message: "Do you ship to Shiraz?" })
    return {
      assistants: pick(assistants.json, "data", "count"),
      hits: listAt(search.json, "data", "list").map((hit) => pick(hit, "externalId")),
      text: pick(reply.json, "data", "text"),
      sources: listAt(reply.json, "data", "sources").map((source) => pick(source, "text")),
      counts: yield* counts
    }
  })

/** An account with a key, products, a document and a conversation. */
const populate = Effect.gen(function*() {
  const { assistantId, key } = yield* setupAccount()
  yield* putProduct(key, assistantId, "k-1", { title: "Copper kettle", price: 1200000 })
  yield* putProduct(key, assistantId, "k-2", { title: "Linen apron", price: 300000 })
  yield* addDocument(key, assistantId, "shipping.md", shippingDoc)
  const first = yield* chat(key, assistantId, { principal: "p", message: "Do you ship to Shiraz?" })
  expect(first.status).toBe(200)
  return { assistantId, key }
})

it.scopedLive.skipIf(!postgres)(
  "Postgres: pg_dump of the running service, pg_restore into a fresh database",
  () =>
    Effect.gen(function*() {
      const source = yield* freshPostgresDatabase(process.env.DATABASE_URL ?? "")
      const target = yield* freshPostgresDatabase(process.env.DATABASE_URL ?? "")
      const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-backup-")), "dastyar.dump")
      const env = { DATABASE_URL: source.url, DASTYAR_SECRET_KEY: secretKey }
      const { before, shop } = yield* withApp(
        env,
        Effect.gen(function*() {
          const shop = yield* populate
          // Taken while the service runs: pg_dump reads one snapshot.
          execFileSync("pg_dump", ["--format=custom", "--file", file, source.url])
          return { shop, before: yield* answers(shop) }
        })
      )
      execFileSync("pg_restore", ["--no-owner", "--dbname", target.url, file])
      const after = yield* withApp({ DATABASE_URL: target.url, DASTYAR_SECRET_KEY: secretKey }, answers(shop))
      expect(after.hits).toEqual(["k-1"])
      expect(after.sources.length).toBeGreaterThan(0)
      // The restored service ran one more chat turn than the copy held when taken, like the source did.
      expect(after).toEqual(before)
    }),
  240_000
)

it.scopedLive(
  "embedded: GET /admin/v1/backup of the running service, extracted into an empty data directory",
  () =>
    Effect.gen(function*() {
      const sourceDir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-embedded-"))
      const targetDir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-restored-"))
      // DATABASE_URL "" removes it: embedded mode whatever the environment.
      const env = { DATABASE_URL: "", DASTYAR_DATA_DIR: sourceDir, DASTYAR_SECRET_KEY: secretKey }
      const { before, shop } = yield* withApp(
        env,
        Effect.gen(function*() {
          const shop = yield* populate
          const client = yield* HttpClient.HttpClient
          const response = yield* client.execute(
            HttpClientRequest.get("/admin/v1/backup").pipe(HttpClientRequest.bearerToken(adminToken))
          )
          expect(response.status).toBe(200)
          expect(response.headers["content-type"]).toContain("application/gzip")
          fs.writeFileSync(path.join(targetDir, "backup.tar.gz"), new Uint8Array(yield* response.arrayBuffer))
          return { shop, before: yield* answers(shop) }
        }).pipe(Effect.scoped)
      )
      // The archive holds the database directory's contents: they go to `<data dir>/pgdata`.
      fs.mkdirSync(path.join(targetDir, "pgdata"))
      execFileSync("tar", ["-xzf", "../backup.tar.gz"], { cwd: path.join(targetDir, "pgdata") })
      fs.rmSync(path.join(targetDir, "backup.tar.gz"))
      const after = yield* withApp({ ...env, DASTYAR_DATA_DIR: targetDir }, answers(shop))
      expect(after.hits).toEqual(["k-1"])
      expect(after.sources.length).toBeGreaterThan(0)
      expect(after).toEqual(before)
      fs.rmSync(sourceDir, { recursive: true, force: true })
      fs.rmSync(targetDir, { recursive: true, force: true })
    }),
  240_000
)

it.scopedLive.skipIf(process.env.DATABASE_URL === undefined)("on Postgres the backup route answers 409", () =>
  withApp(
    {},
    Effect.gen(function*() {
      const reply = yield* call("GET", "/admin/v1/backup", { token: adminToken })
      expect(reply.status).toBe(409)
      expect(pickString(reply.json, "response", "code")).toBe("backup.not_embedded")
    })
  ), 120_000)
