/**
 * Who is calling: the API key middleware of the public API (which also counts
 * the key's rate limit) and the operator token middleware of `/admin/v1`.
 */
import { HttpApiMiddleware, HttpApiSecurity } from "@effect/platform"
import * as Context from "effect/Context"
import * as Schema from "effect/Schema"
import { InvalidAdminTokenResponse, InvalidApiKeyResponse, TooManyRequestsResponse } from "./Errors"

export const AccountId = Schema.String.pipe(Schema.brand("AccountId"))
export type AccountId = typeof AccountId.Type
export const ApiKeyId = Schema.String.pipe(Schema.brand("ApiKeyId"))
export type ApiKeyId = typeof ApiKeyId.Type

/** The account behind the request's API key. */
export class CurrentAccount extends Context.Tag("@dastyar/domain/CurrentAccount")<CurrentAccount, {
  readonly accountId: AccountId
  readonly keyId: ApiKeyId
  readonly plan: string
  /**
   * Assistants of the account not being deleted, read with the key (possibly not all of them, and not one
   * created since): a code found here is the account's; any other is checked against the database.
   */
  readonly assistantIds: ReadonlyArray<string>
}>() {}

/**
 * Bearer API key, then the key's per-route rate limit: 401 before 429, and the
 * rate-limit headers on every response that got past it.
 */
export class ApiKeyAuth extends HttpApiMiddleware.Tag<ApiKeyAuth>()("ApiKeyAuth", {
  failure: Schema.Union(InvalidApiKeyResponse, TooManyRequestsResponse),
  provides: CurrentAccount,
  security: { bearer: HttpApiSecurity.bearer }
}) {}

/** Bearer operator token; a client IP that sent too many wrong ones is refused for a while (429). */
export class AdminAuth extends HttpApiMiddleware.Tag<AdminAuth>()("AdminAuth", {
  failure: Schema.Union(InvalidAdminTokenResponse, TooManyRequestsResponse),
  security: { adminToken: HttpApiSecurity.bearer }
}) {}
