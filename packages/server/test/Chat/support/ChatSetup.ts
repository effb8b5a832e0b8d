/** Knowledge, products and a model catalog for the chat tests, all made through the real API. */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { call, pick, pickString } from "../../support/TestApp"

/**
 * A `DASTYAR_CONFIG` catalog: the built-in local model, a provider model aimed
 * at the fake server (short timeout, one retry), a reasoning-only model, a
 * coming-soon model, and a plan with a one-token monthly allowance.
 */
export const writeCatalog = (providerBaseUrl: string): string => {
  const provider = (upstreamModel: string) => ({
    _tag: "openai-compatible",
    baseUrl: providerBaseUrl,
    apiKeyEnv: "FAKE_PROVIDER_KEY",
    upstreamModel,
    timeoutMs: 800,
    maxRetries: 1
  })
  const catalog = {
    companies: [{ slug: "dastyar", title: "Dastyar" }, { slug: "acme", title: "Acme AI" }],
    models: [
      {
        key: "dastyar-local",
        name: "Dastyar Local",
        company: "dastyar",
        supportedReasoning: ["none"],
        provider: { _tag: "local" }
      },
      {
        key: "acme-chat",
        name: "Acme Chat",
        company: "acme",
        supportedReasoning: ["none"],
        provider: provider("acme-chat-1")
      },
      {
        key: "acme-thinker",
        name: "Acme Thinker",
        company: "acme",
        supportedReasoning: ["low", "medium", "high"],
        provider: provider("acme-thinker-1")
      },
      { key: "acme-next", name: "Acme Next", company: "acme", comingSoon: true }
    ],
    plans: [
      { key: "free", models: "*" },
      { key: "tiny", models: "*", monthlyTokens: 1 }
    ],
    defaultPlan: "free",
    defaultModel: "dastyar-local"
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-chat-")), "catalog.json")
  fs.writeFileSync(file, JSON.stringify(catalog))
  return file
}

/** Adds a text document and waits until its job is `ready`. */
export const addDocument = (key: string, assistantId: string, filename: string, content: string) =>
  Effect.gen(function*() {
    const created = yield* call("POST", `/v1/assistants/${assistantId}/documents/text`, {
      token: key,
      body: { filename, content }
    })
    const jobId = pickString(created.json, "data", "list", 0, "id")
    for (let attempt = 0; attempt < 300; attempt++) {
      const job = yield* call("GET", `/v1/assistants/${assistantId}/documents/jobs/${jobId}`, { token: key })
      const status = pick(job.json, "data", "status")
      if (status === "ready") return pickString(job.json, "data", "resultFileId")
      if (status === "failed") return yield* Effect.die(new Error(`ingest of ${filename} failed: ${job.text}`))
      yield* Effect.sleep("50 millis")
    }
    return yield* Effect.die(new Error(`ingest of ${filename} never finished`))
  })

/** Writes a product and waits until it is searchable. */
export const putProduct = (key: string, assistantId: string, externalId: string, product: Record<string, unknown>) =>
  Effect.gen(function*() {
    const url = `/v1/assistants/${assistantId}/products/${externalId}`
    const written = yield* call("PUT", url, { token: key, body: product })
    if (written.status !== 200) return yield* Effect.die(new Error(`product write failed: ${written.text}`))
    for (let attempt = 0; attempt < 300; attempt++) {
      const read = yield* call("GET", url, { token: key })
      if (pick(read.json, "data", "indexState") === "synced") return
      yield* Effect.sleep("50 millis")
    }
    return yield* Effect.die(new Error(`product ${externalId} never became searchable`))
  })

/** One chat turn over HTTP. */
export const chat = (key: string, assistantId: string, body: Record<string, unknown>) =>
  call("POST", `/v1/assistants/${assistantId}/chat`, { token: key, body })

/** Server-sent events of a streamed answer: name and parsed data of each. */
export const parseEvents = (text: string): ReadonlyArray<{ readonly event: string; readonly data: unknown }> =>
  text
    .split("\n\n")
    .filter((block) => block.trim().length > 0)
    .map((block) => {
      const lines = block.split("\n")
      const event = lines.find((line) => line.startsWith("event: "))?.slice(7) ?? "message"
      const data = lines.filter((line) => line.startsWith("data: ")).map((line) => line.slice(6)).join("\n")
      return { event, data: JSON.parse(data) }
    })

export const shippingDoc = [
  "# Shipping",
  "We ship to every city in Iran, including Shiraz, Tabriz and Mashhad.",
  "Orders leave our Tehran warehouse within one working day.",
  "Delivery to Shiraz takes three to five working days by Post.",
  "Orders over 2,000,000 rials ship free of charge."
].join("\n")

export const returnsDoc = [
  "# Returns",
  "You can return any unused item within 14 days of delivery for a full refund.",
  "Refunds are paid to the original card within seven working days."
].join("\n")
