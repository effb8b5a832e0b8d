/**
 * On an empty embedded database, a first start creates a demo account, an API
 * key and an active assistant with a few documents and products to chat
 * about (`DemoContent`), and prints the key and assistant id once so a
 * newcomer can call the API right away.
 */
import * as Console from "effect/Console"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { Assistants } from "../Assistants/Assistants"
import { AppConfig } from "../Config"
import { isEmbedded } from "../Database/Database"
import { Documents } from "../Documents/Documents"
import { ModelCatalog } from "../Models/ModelCatalog"
import { Catalog } from "../Products/Catalog"
import { demoDocuments, demoProducts } from "./DemoContent"

const seed = Effect.gen(function*() {
  const accounts = yield* AccountsRepo
  const assistants = yield* Assistants
  const catalog = yield* ModelCatalog
  const config = yield* AppConfig
  const documents = yield* Documents
  const products = yield* Catalog
  if (yield* accounts.any) return
  const account = yield* accounts.create({ name: "Demo", plan: catalog.defaultPlan })
  const key = yield* accounts.createKey(account.id, "demo")
  const assistant = yield* assistants.create(account.id, {
    name: "Demo assistant",
    instruction: "You are a helpful shop assistant. Answer from the knowledge base and the product catalog.",
    personality: "friendly"
  }).pipe(Effect.orDie)
  // Something to chat about: ingest and indexing finish in the background within seconds.
  for (const document of demoDocuments) {
    yield* documents.uploadText(account.id, assistant.id, document).pipe(Effect.orDie)
  }
  yield* products.importAll({ accountId: account.id, assistantId: assistant.id }, demoProducts).pipe(Effect.orDie)
  // Wait for the lifecycle worker so the printed assistant can chat at once.
  yield* assistants.get(assistant.id).pipe(
    Effect.orDie,
    Effect.repeat({ until: (a) => a.status !== "provisioning", schedule: Schedule.spaced("100 millis"), times: 100 })
  )
  const base = `http://${config.host === "0.0.0.0" || config.host === "::" ? "localhost" : config.host}:${config.port}`
  // To the terminal, not the log: the key is shown once to whoever started the server.
  yield* Console.log([
    "",
    "Demo account created (shown once):",
    `  API key:      ${key.key}`,
    `  Assistant id: ${assistant.id}`,
    `  Try:          curl -H 'Authorization: Bearer ${key.key}' ${base}/v1/assistants`,
    `  Chat:         DASTYAR_BASE_URL=${base} DASTYAR_API_KEY=${key.key} ./dastyar chat ${assistant.id} -m 'Do you ship to Shiraz?'`,
    `  Console:      ${base}/console (sign in with the API key or the operator token)`,
    ""
  ].join("\n"))
})

export const layer = Layer.effectDiscard(
  Effect.gen(function*() {
    const config = yield* AppConfig
    if (config.seedDemo && (yield* isEmbedded)) yield* seed
  })
)
