/**
 * The typed openapi-fetch client over the generated `paths`, for every route
 * (including those the promise client has no method for). It sends the API key
 * to `/v1`, the operator token to `/admin/v1` and the preferred language.
 */
import createClient, { type Client, type Middleware } from "openapi-fetch"
import type { paths } from "./generated/openapi"
import { type Fetch, retryOn429, type RetryOptions } from "./RetryOn429"

export type RawClient = Client<paths>

export interface RawClientOptions {
  readonly baseUrl: string
  /** Bearer token for `/v1/*`. */
  readonly apiKey?: string | undefined
  /** Bearer token for `/admin/v1/*`. */
  readonly adminToken?: string | undefined
  /** Sent as `Accept-Language`; messages and validation texts come back in it. */
  readonly language?: string | undefined
  /** Wait out 429s (`true`: up to 3 retries) instead of returning them. Default: off. */
  readonly retryOn429?: boolean | RetryOptions | undefined
  readonly fetch?: Fetch | undefined
}

/** Picks the credential by the route template, so one client serves both APIs. */
const credentialsAndLanguage = (options: RawClientOptions): Middleware => ({
  onRequest({ request, schemaPath }) {
    const token = schemaPath.startsWith("/admin/v1/")
      ? options.adminToken
      : schemaPath.startsWith("/v1/")
      ? options.apiKey
      : undefined
    // A header given on the call itself wins.
    if (token !== undefined && !request.headers.has("authorization")) {
      request.headers.set("authorization", `Bearer ${token}`)
    }
    if (options.language !== undefined && !request.headers.has("accept-language")) {
      request.headers.set("accept-language", options.language)
    }
    return request
  }
})

export const createRawClient = (options: RawClientOptions): RawClient => {
  // Resolved per call, so tests and polyfills may replace `globalThis.fetch` later.
  const baseFetch: Fetch = options.fetch ?? ((request) => globalThis.fetch(request))
  const retry = options.retryOn429 ?? false
  const client = createClient<paths>({
    baseUrl: options.baseUrl,
    fetch: retry === false ? baseFetch : retryOn429(baseFetch, retry === true ? {} : retry)
  })
  client.use(credentialsAndLanguage(options))
  return client
}
