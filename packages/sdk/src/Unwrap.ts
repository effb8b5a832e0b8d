/** Turns openapi-fetch results into the envelope's `data`, or throws `DastyarApiError`. */
import { DastyarApiError } from "./DastyarApiError"

/** The shape of an openapi-fetch result whose success body is an envelope. */
export type FetchResult<Data> =
  | { readonly data: { readonly data: Data }; readonly error?: never; readonly response: Response }
  | { readonly data?: never; readonly error?: unknown; readonly response: Response }

/** Any openapi-fetch result, whatever its success body's type. */
export interface AnyFetchResult {
  readonly data?: unknown
  readonly error?: unknown
  readonly response: Response
}

/** `await unwrap(client.raw.GET("/v1/models"))` gives the model list, as the promise client's methods do. */
export const unwrap = async <Data>(pending: Promise<FetchResult<Data>>): Promise<Data> => {
  const result = await pending
  if (result.data === undefined || !result.response.ok) {
    throw DastyarApiError.fromResponse(result.response, result.error)
  }
  return result.data.data
}

/**
 * For routes whose success `data` is always null (deletions). openapi-fetch's
 * response types drop properties typed exactly `null` (openapi-typescript-helpers
 * 0.1 `Readable`), so `unwrap` could not infer `Data` for them.
 */
export const unwrapNull = async (pending: Promise<AnyFetchResult>): Promise<null> => {
  const result = await pending
  if (result.data === undefined || !result.response.ok) {
    throw DastyarApiError.fromResponse(result.response, result.error)
  }
  return null
}
