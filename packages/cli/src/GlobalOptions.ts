/**
 * The options every command takes. Each may be given before the subcommand
 * (`dastyar --json assistants list`) or after it (`dastyar assistants list --json`),
 * so they are declared on the root command and again on every leaf command;
 * `Session` merges them (nearer wins, then the environment, then the default).
 */
import { Options } from "@effect/cli"

export const defaultBaseUrl = "http://localhost:3000"

const optionalText = (name: string, description: string) =>
  Options.text(name).pipe(Options.withDescription(description), Options.optional)

// Secrets are `Redacted` so they never show up in logs or error dumps.
const optionalSecret = (name: string, description: string) =>
  Options.redacted(name).pipe(Options.withDescription(description), Options.optional)

const baseUrl = optionalText("base-url", `Server address (env DASTYAR_BASE_URL, default ${defaultBaseUrl})`)
const lang = optionalText("lang", "Language of the server's messages, sent as Accept-Language (e.g. en, fa)")
const json = Options.boolean("json").pipe(
  Options.withDescription("Print exactly the response data as one JSON document")
)
const apiKey = optionalSecret("api-key", "API key for the public API (env DASTYAR_API_KEY)")
const adminToken = optionalSecret("admin-token", "Operator token for `admin` commands (env DASTYAR_ADMIN_TOKEN)")

/** Options of the public-API commands (`assistants …`, `models …`). */
export const publicOptions = { baseUrl, lang, json, apiKey }

/** Options of the operator commands (`admin …`). */
export const adminOptions = { baseUrl, lang, json, adminToken }

/** Options accepted before any subcommand. */
export const rootOptions = { baseUrl, lang, json, apiKey, adminToken }
