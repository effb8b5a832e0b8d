/** Implementations of the API key and operator token middlewares declared in the domain. */
import { Auth, Errors } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash, timingSafeEqual } from "node:crypto"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { AppConfig } from "../Config"
import { RecentWrites } from "../Database/RecentWrites"
import { AdminToken } from "../Platform/AdminToken"
import { clientAddress } from "../Platform/ClientAddress"
import { RateLimit } from "../Platform/RateLimit"
import { annotateRoute } from "../Platform/RequestLog"
import { withSpanWhenTracing } from "../Telemetry"

export const ApiKeyAuthLive = Layer.effect(
  Auth.ApiKeyAuth,
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const rateLimit = yield* RateLimit
    const recentWrites = yield* RecentWrites
    return Auth.ApiKeyAuth.of({
      bearer: (token) =>
        Effect.gen(function*() {
          const owner = yield* accounts.authenticate(Redacted.value(token))
          if (Option.isNone(owner)) return yield* new Errors.InvalidApiKey()
          yield* rateLimit.consume(`key:${owner.value.keyId}`)
          yield* accounts.markUsed(owner.value.keyId)
          // Replicas: the reads of an account that just wrote go to the primary (Database/RecentWrites.ts).
          yield* recentWrites.route(owner.value.accountId)
          return owner.value
        }).pipe(
          // No call-site capture: an `Error` per request on the hottest path, for one span attribute.
          withSpanWhenTracing("ApiKeyAuth", { captureStackTrace: false }),
          (authenticate) => Effect.zipRight(annotateRoute, authenticate)
        )
    })
  })
)

/** Compares digests, which have one length, so the comparison leaks neither content nor length. */
const sameSecret = (a: string, b: string) => {
  const digest = (secret: string) => createHash("sha256").update(secret).digest()
  return timingSafeEqual(digest(a), digest(b))
}

/** Wrong operator tokens a client IP may send in a minute; past them, it is refused (429) until the window ends. */
export const maxOperatorFailuresPerMinute = 10

/**
 * The operator token: never empty (a request without `Authorization` decodes to an empty bearer), compared in
 * constant time, and failures counted per client IP. An IP past the limit is refused whatever it sends, so a
 * correct guess cannot be told from a wrong one.
 */
export const AdminAuthLive = Layer.effect(
  Auth.AdminAuth,
  Effect.gen(function*() {
    const adminToken = yield* AdminToken
    const rateLimit = yield* RateLimit
    const config = yield* AppConfig
    return Auth.AdminAuth.of({
      adminToken: (token) =>
        Effect.gen(function*() {
          yield* annotateRoute
          const address = yield* clientAddress.pipe(Effect.provideService(AppConfig, config))
          const failures = rateLimit.failures("operator-failures", address, maxOperatorFailuresPerMinute)
          yield* failures.check
          const given = Redacted.value(token)
          if (given === "" || !sameSecret(given, Redacted.value(adminToken.token))) {
            yield* failures.count
            return yield* new Errors.InvalidAdminToken()
          }
        })
    })
  })
)
