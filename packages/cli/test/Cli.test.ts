import { Admin, Assistants, Envelope, Models } from "@dastyar/domain"
import { makeEffectClient } from "@dastyar/sdk"
import { adminToken, TestApp } from "@dastyar/server/Testing"
import { describe, expect, it, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { closedPort, runCli, serverUrl } from "./support/Cli"

/** Decodes `--json` output with the API's own data schema: it must be exactly the response's `data`. */
const parsed = <A, I>(schema: Schema.Schema<A, I>, stdout: string) =>
  Schema.decodeUnknownSync(Schema.parseJson(schema))(stdout)

/** An account with an API key, made directly through the Effect client (no subprocess). */
const accountWithKey = Effect.gen(function*() {
  // The test server's HttpClient already prefixes the server's address.
  const admin = yield* makeEffectClient({ baseUrl: "", token: adminToken })
  const account = yield* admin.admin.createAccount({ payload: { name: "Shop" } })
  const created = yield* admin.admin.createKey({ path: { accountId: account.id }, payload: {} })
  return { accountId: account.id, key: created.key }
}).pipe(Effect.orDie)

layer(TestApp(), { excludeTestServices: true })("dastyar CLI against the real server", (it) => {
  it.effect(
    "admin creates an account, key, assistant and folder; the new key lists the assistant",
    () =>
      Effect.gen(function*() {
        const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_ADMIN_TOKEN: adminToken }

        const accountRun = yield* runCli(["admin", "accounts", "create", "--name", "Acme", "--json"], env)
        expect(accountRun).toMatchObject({ exitCode: 0, stderr: "" })
        const account = parsed(Admin.Account, accountRun.stdout)
        expect(account.name).toBe("Acme")

        // The operator finds the account again without its id.
        const accountsRun = yield* runCli(["admin", "accounts", "list", "--limit", "500", "--json"], env)
        expect(accountsRun).toMatchObject({ exitCode: 0, stderr: "" })
        expect(parsed(Envelope.ListOf(Admin.Account), accountsRun.stdout).list.map(({ id }) => id)).toContain(
          account.id
        )
        const accountsTable = yield* runCli(["admin", "accounts", "list", "--limit", "500"], env)
        expect(accountsTable.stdout).toMatch(/^id\s+name\s+plan\s+createdAt$/m)
        expect(accountsTable.stdout).toMatch(new RegExp(`^${account.id}\\s+Acme\\s`, "m"))

        const keyRun = yield* runCli(["admin", "keys", "create", account.id, "--name", "ci", "--json"], env)
        expect(keyRun.exitCode).toBe(0)
        const key = parsed(Admin.CreatedApiKey, keyRun.stdout)
        expect(key.name).toBe("ci")

        const assistantRun = yield* runCli(
          ["admin", "assistants", "create", account.id, "--name", "Helper", "--language", "fa", "--json"],
          env
        )
        expect(assistantRun.exitCode).toBe(0)
        const assistant = parsed(Assistants.Assistant, assistantRun.stdout)
        expect(assistant).toMatchObject({ name: "Helper", language: "fa" })

        const folderRun = yield* runCli(["admin", "folders", "create", account.id, "--name", "manuals", "--json"], env)
        expect(folderRun.exitCode).toBe(0)
        expect(parsed(Admin.Folder, folderRun.stdout).name).toBe("manuals")

        const withKey = { ...env, DASTYAR_API_KEY: key.key }
        const listRun = yield* runCli(["assistants", "list", "--json"], withKey)
        expect(listRun.exitCode).toBe(0)
        const list = parsed(Envelope.ListOf(Assistants.Assistant), listRun.stdout)
        expect(list.count).toBe(1)
        expect(list.list.map(({ id }) => id)).toEqual([assistant.id])

        // Human output: an aligned table with a header row.
        const tableRun = yield* runCli(["assistants", "list"], withKey)
        expect(tableRun.exitCode).toBe(0)
        const [header, row, ...rest] = tableRun.stdout.trimEnd().split("\n")
        expect(header).toMatch(/^id\s+name\s+model\s+status\s+createdAt$/)
        expect(row).toMatch(new RegExp(`^${assistant.id}\\s+Helper\\s+\\S+\\s+\\w+\\s+\\d{4}-`))
        expect(header?.indexOf("name")).toBe(row?.indexOf("Helper"))
        expect(rest).toEqual([])
      }),
    180_000
  )

  it.effect(
    "models list --json is the models data; human keys output shows the raw key once",
    () =>
      Effect.gen(function*() {
        const { accountId, key } = yield* accountWithKey
        const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_ADMIN_TOKEN: adminToken }
        const [models, issued] = yield* Effect.all([
          runCli(["models", "list", "--json", "--api-key", key], env),
          runCli(["admin", "keys", "create", accountId], env)
        ], { concurrency: "unbounded" })
        expect(models.exitCode).toBe(0)
        const data = parsed(Envelope.ListOf(Models.Model), models.stdout)
        expect(data.count).toBe(data.list.length)
        expect(data.list.length).toBeGreaterThan(0)
        expect(issued.exitCode).toBe(0)
        expect(issued.stdout).toMatch(/shown only once/)
        expect(issued.stdout).toMatch(/^ {4}\S+$/m)
      }),
    60_000
  )

  it.effect(
    "a bad API key (given before the command): exit 1 and exactly one line on stderr",
    () =>
      Effect.gen(function*() {
        const run = yield* runCli(["--api-key", "not-a-key", "assistants", "list"], {
          DASTYAR_BASE_URL: yield* serverUrl
        })
        expect(run).toEqual({
          exitCode: 1,
          stdout: "",
          stderr: "error: 401 api_key.invalid: Invalid or revoked API key\n"
        })
      }),
    30_000
  )

  it.effect(
    "an API error in the chosen language: exit 1 with the server's code and message",
    () =>
      Effect.gen(function*() {
        const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_ADMIN_TOKEN: adminToken }
        const run = yield* runCli([
          "admin",
          "accounts",
          "create",
          "--name",
          "X",
          "--plan",
          "no-such-plan",
          "--lang",
          "fa"
        ], env)
        expect(run).toEqual({ exitCode: 1, stdout: "", stderr: "error: 400 plans.not_found: چنین طرحی وجود ندارد\n" })
      }),
    30_000
  )

  it.effect(
    "invalid fields: exit 2 and one line listing them, worded as the server words them",
    () =>
      Effect.gen(function*() {
        const env = { DASTYAR_BASE_URL: yield* serverUrl, DASTYAR_ADMIN_TOKEN: adminToken }
        const run = yield* runCli(["admin", "accounts", "create", "--name", ""], env)
        expect(run).toEqual({
          exitCode: 2,
          stdout: "",
          stderr: "error: Validation failed: name: must be at least 1 character long\n"
        })
      }),
    30_000
  )
})

// No server here: a closed port stands in for it, so a command that called the
// server anyway would fail with the connection error (exit 3) instead.
describe("dastyar CLI failures before or without a server", () => {
  it.live("a refused connection: exit 3 and one line naming the base URL", () =>
    Effect.gen(function*() {
      const baseUrl = `http://127.0.0.1:${yield* closedPort}`
      const run = yield* runCli(["models", "list"], { DASTYAR_BASE_URL: baseUrl, DASTYAR_API_KEY: "any" })
      expect(run.exitCode).toBe(3)
      expect(run.stdout).toBe("")
      expect(run.stderr).toMatch(
        new RegExp(`^error: cannot reach the Dastyar server at ${baseUrl} \\(.*ECONNREFUSED.*\\).*\\n$`)
      )
    }), 30_000)

  it.live("no API key, no operator token, bad usage: exit 2 without calling the server", () =>
    Effect.gen(function*() {
      const env = { DASTYAR_BASE_URL: `http://127.0.0.1:${yield* closedPort}` }
      const [noKey, noToken, missingFlag] = yield* Effect.all([
        runCli(["assistants", "list"], env),
        runCli(["admin", "accounts", "create", "--name", "X"], env),
        runCli(["admin", "accounts", "create"], { ...env, DASTYAR_ADMIN_TOKEN: adminToken })
      ], { concurrency: "unbounded" })
      expect(noKey).toEqual({
        exitCode: 2,
        stdout: "",
        stderr: "error: no API key: pass --api-key or set DASTYAR_API_KEY\n"
      })
      expect(noToken).toEqual({
        exitCode: 2,
        stdout: "",
        stderr: "error: no operator token: pass --admin-token or set DASTYAR_ADMIN_TOKEN\n"
      })
      expect(missingFlag.exitCode).toBe(2)
      expect(missingFlag.stderr).toMatch(/--name/)
    }), 30_000)
})
