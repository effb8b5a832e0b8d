/** Implementations of the API key and operator token middlewares declared in the domain. */
import { Auth, Errors } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import { createHash, timingSafeEqual } from "node:crypto"
import { AccountsRepo } from "../Accounts/AccountsRepo"
import { AdminToken } from "../Platform/AdminToken"
import { RateLimit } from "../Platform/RateLimit"
import { annotateRoute } from "../Platform/RequestLog"
import { withSpanWhenTracing } from "../Telemetry"

export const ApiKeyAuthLive = Layer.effect(
  Auth.ApiKeyAuth,
  Effect.gen(function*() {
    const accounts = yield* AccountsRepo
    const rateLimit = yield* RateLimit
    return Auth.ApiKeyAuth.of({
      bearer: (token) =>
        Effect.gen(function*() {
          const owner = yield* accounts.authenticate(Redacted.value(token))
          if (Option.isNone(owner)) return yield* new Errors.InvalidApiKey()
          yield* rateLimit.consume(`key:${owner.value.keyId}`)
          yield* accounts.markUsed(owner.value.keyId)
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

export const AdminAuthLive = Layer.effect(
  Auth.AdminAuth,
  Effect.gen(function*() {
    const adminToken = yield* AdminToken
    return Auth.AdminAuth.of({
      adminToken: (token) =>
        Effect.gen(function*() {
          yield* annotateRoute
          if (!sameSecret(Redacted.value(token), Redacted.value(adminToken.token))) {
            return yield* new Errors.InvalidAdminToken()
          }
        })
    })
  })
)
