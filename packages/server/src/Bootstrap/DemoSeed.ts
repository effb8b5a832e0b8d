/**
 * On an empty embedded database, a first start creates a demo account, an API
 * key and an active assistant, and prints the key and assistant id once so a
 * newcomer can call the API right away.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { Assistants } from "../Assistants/Assistants"
import { AppConfig } from "../Config"
import { isEmbedded } from "../Database/Database"
import { ModelCatalog } from "../Models/ModelCatalog"

const seed = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const accounts = yield* AccountsRepo
  const assistants = yield* Assistants
  const catalog = yield* ModelCatalog
  const config = yield* AppConfig
  const [{ count }] = yield* sql<{ readonly count: number }>`SELECT count(*)::int AS count FROM accounts`
  if (count > 0) return
  const account = yield* accounts.create({ name: "Demo", plan: catalog.defaultPlan })
  const key = yield* accounts.createKey(account.id, "demo")
  const assistant = yield* assistants.create(account.id, {
    name: "Demo assistant",
    instruction: "You are a helpful shop assistant. Answer from the knowledge base and the product catalog.",
    personality: "friendly"
  }).pipe(Effect.orDie)
  // Wait for the lifecycle worker so the printed assistant can chat at once.
  yield* assistants.get(assistant.id).pipe(
    Effect.orDie,
    Effect.repeat({ until: (a) => a.status !== "provisioning", schedule: Schedule.spaced("100 millis"), times: 100 })
  )
  const base = `http://localhost:${config.port}`
  yield* Effect.sync(() =>
    console.log([
      "",
      "Demo account created (shown once):",
      `  API key:      ${key.key}`,
      `  Assistant id: ${assistant.id}`,
      `  Try:          curl -H 'Authorization: Bearer ${key.key}' ${base}/v1/assistants`,
      ""
    ].join("\n"))
  )
})

export const layer = Layer.effectDiscard(
  Effect.gen(function*() {
    const config = yield* AppConfig
    if (config.seedDemo && (yield* isEmbedded)) yield* seed
  })
)
