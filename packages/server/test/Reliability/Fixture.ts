/**
 * What the reliability tests share: the service with limits high enough for
 * thousands of requests a minute, its port, an account with one of each
 * resource (ids by path-parameter name, for `Routes`), a fingerprint of the
 * stored data a rejected write must not change, and the one-line figures
 * each part prints.
 */
import { HttpServer } from "@effect/platform"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as fs from "node:fs"
import { startFakeTelegram } from "../Channels/FakeTelegram"
import { admin, adminToken, call, pickString, setupAccount, TestApp } from "../support/TestApp"
import type { Fixture } from "./Routes"

/** The service, with Telegram's API answered by a local fake (unknown bot tokens get its 401, never a network wait). */
export const ReliabilityApp = (env: Record<string, string> = {}) =>
  Layer.unwrapScoped(
    Effect.map(
      Effect.acquireRelease(Effect.promise(() => startFakeTelegram("")), (telegram) =>
        Effect.promise(() => telegram.close())),
      (telegram) =>
        TestApp({
          DASTYAR_RATE_LIMIT_PER_MINUTE: "100000000",
          DASTYAR_CONTENT_RATE_LIMIT_PER_MINUTE: "100000000",
          DASTYAR_HOOK_RATE_LIMIT_PER_MINUTE: "100000000",
          DASTYAR_SECRET_KEY: "a".repeat(64),
          DASTYAR_TELEGRAM_API_BASE: telegram.url,
          DASTYAR_LOG_LEVEL: process.env.RELIABILITY_LOG_LEVEL ?? "Fatal",
          ...env
        })
    )
  )

export const portOf = Effect.map(
  HttpServer.HttpServer,
  (server) => server.address._tag === "TcpAddress" ? server.address.port : 0
)

/** A number from the environment (the long run sets them), or the CI default. */
export const setting = (name: string, fallback: number): number => {
  const value = Number(process.env[name])
  return Number.isFinite(value) && value > 0 ? value : fallback
}

/** An account with an assistant holding one product, one text document, a folder and a conversation. */
export const makeFixture = (marker: string) =>
  Effect.gen(function*() {
    const account = yield* setupAccount()
    const products = `/v1/assistants/${account.assistantId}/products`
    const externalId = `${marker}-product`
    yield* call("POST", products, { token: account.key, body: { externalId, title: `${marker} product title` } })
    const upload = yield* call("POST", `/v1/assistants/${account.assistantId}/documents/text`, {
      token: account.key,
      body: { filename: `${marker}.md`, content: `# ${marker}\nThe ${marker} document body.` }
    })
    const jobId = pickString(upload.json, "data", "list", 0, "id")
    const folder = yield* admin("POST", `/accounts/${account.accountId}/folders`, { name: `${marker}-folder` })
    const chat = yield* call("POST", `/v1/assistants/${account.assistantId}/chat`, {
      token: account.key,
      body: { principal: `${marker}-user`, message: `hello ${marker}` }
    })
    const fixture: Fixture & { readonly accountId: string; readonly assistantId: string } = {
      key: account.key,
      adminToken,
      accountId: account.accountId,
      assistantId: account.assistantId,
      ids: {
        assistantCode: account.assistantId,
        assistantId: account.assistantId,
        accountId: account.accountId,
        keyId: account.keyId,
        externalId,
        jobId,
        folderId: pickString(folder.json, "data", "id"),
        conversationId: pickString(chat.json, "data", "conversationId"),
        type: "blog",
        slug: `${marker}-article`,
        driver: "webhook"
      }
    }
    return fixture
  })

/**
 * What a request can change and a worker does not: accounts, keys, assistant
 * settings, folders, products (by `updated_at`), articles, connections,
 * conversations and messages. Index states, job states and the queue are left
 * out, since workers move them while the suite runs.
 */
export const fingerprint = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ readonly fingerprint: string }>`
    SELECT md5(concat_ws('|',
      (SELECT string_agg(id || name || plan, ',' ORDER BY id) FROM accounts),
      (SELECT string_agg(id || coalesce(revoked_at::text, ''), ',' ORDER BY id) FROM api_keys),
      (SELECT string_agg(id || name || coalesce(instruction, '') || model || reasoning || coalesce(description, '')
        || coalesce(personality, '') || coalesce(language, ''), ',' ORDER BY id) FROM assistants),
      (SELECT string_agg(id || name, ',' ORDER BY id) FROM folders),
      (SELECT string_agg(id || updated_at::text || title, ',' ORDER BY id) FROM products),
      (SELECT string_agg(type || slug || updated_at::text, ',' ORDER BY type, slug) FROM articles),
      (SELECT string_agg(code, ',' ORDER BY code) FROM channel_connections),
      (SELECT count(*)::text FROM conversations),
      (SELECT count(*)::text FROM chat_messages)
    )) AS fingerprint`
  return rows[0]?.fingerprint ?? ""
}).pipe(Effect.orDie)

/**
 * One line per part, in one form, for `pnpm test:reliability` to gather; also
 * appended to the file `RELIABILITY_REPORT` names (`.ci/run` prints it, since
 * vitest shows no output of passed tests).
 */
export const report = (part: string, figures: Readonly<Record<string, string | number>>) =>
  Effect.sync(() => {
    const line = `reliability ${part}: ${Object.entries(figures).map(([name, value]) => `${name}=${value}`).join(" ")}`
    console.log(line)
    const file = process.env.RELIABILITY_REPORT
    if (file !== undefined && file !== "") fs.appendFileSync(file, `${line}\n`)
  })
