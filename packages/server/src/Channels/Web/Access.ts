/**
 * The gate of the browser routes (`Web.WebAccess`): the connection by its code
 * (404), the page's `Origin` among its allowed origins or a console preview
 * token (403), then its limits per client IP and per connection (429). Nothing
 * after it runs for a refused request, so nothing is billed for one.
 */
import { Web, WebSettings } from "@dastyar/domain"
import { HttpApp, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { AssistantsRepo } from "../../Assistants/AssistantsRepo"
import { AppConfig } from "../../Config"
import { clientAddress } from "../../Platform/ClientAddress"
import { RateLimit } from "../../Platform/RateLimit"
import { annotateRoute } from "../../Platform/RequestLog"
import { Connections, type OpenConnection } from "../Connections"
import { originAllowed } from "./Settings"
import { WebKeys } from "./WebKeys"
import { WebRepo } from "./WebRepo"

/** Headers the widget reads from answers (its own origin's page cannot see them otherwise). */
const exposedHeaders = "retry-after, x-ratelimit-limit, x-ratelimit-remaining, x-ratelimit-reset"

/**
 * CORS for the page that asked, on every answer (the refusals too, so the widget can read and show
 * them; a refused origin still gets no preflight, so it can only make simple GETs, which change nothing).
 */
const allowOrigin = (origin: string) =>
  HttpApp.appendPreResponseHandler((_, response) =>
    Effect.succeed(HttpServerResponse.setHeaders(response, {
      "access-control-allow-origin": origin,
      "access-control-expose-headers": exposedHeaders,
      vary: "Origin"
    }))
  )

/** An active web connection with its settings and secret; none otherwise. */
export const findWebConnection = (code: string) =>
  Effect.gen(function*() {
    const connections = yield* Connections
    const repo = yield* WebRepo
    const found = yield* connections.findActive("web", code).pipe(
      Effect.catchTag("SecretKeyMissing", () => Effect.succeed(Option.none<OpenConnection>()))
    )
    if (Option.isNone(found) || found.value.secrets._tag !== "web") return Option.none()
    const settings = (yield* repo.settingsOf([code])).get(code)
    if (settings === undefined) return Option.none()
    return Option.some({ row: found.value.row, secret: found.value.secrets.secret, settings })
  })

export const WebAccessLive = Layer.effect(
  Web.WebAccess,
  Effect.gen(function*() {
    const context = yield* Effect.context<Connections | WebRepo>()
    const assistants = yield* AssistantsRepo
    const rateLimit = yield* RateLimit
    const keys = yield* WebKeys
    const config = yield* AppConfig
    return Effect.gen(function*() {
      yield* annotateRoute
      const request = yield* HttpServerRequest.HttpServerRequest
      const { params } = yield* HttpRouter.RouteContext
      const code = params.connectionCode ?? ""
      const origin = request.headers.origin
      if (origin !== undefined) yield* allowOrigin(origin)

      const found = yield* findWebConnection(code).pipe(Effect.provide(context))
      if (Option.isNone(found)) return yield* new Web.WebConnectionNotFound()
      const { row, secret, settings } = found.value
      const normalised = origin === undefined ? undefined : WebSettings.normaliseOrigin(origin) ?? origin
      const allowed = originAllowed(settings, origin) ||
        keys.previewHolds(code, request.headers[Web.webHeaders.preview], normalised, new Date())
      if (!allowed) return yield* new Web.OriginRefused()

      const address = yield* clientAddress.pipe(Effect.provideService(AppConfig, config))
      yield* rateLimit.consumeIn("web-ip", `${code}:${address}`, settings.rateLimits.perIpPerMinute)
      yield* rateLimit.consumeIn("web", code, settings.rateLimits.perConnectionPerMinute)

      const assistant = yield* assistants.findById(row.assistantId)
      if (Option.isNone(assistant)) return yield* new Web.WebConnectionNotFound()
      yield* Effect.annotateCurrentSpan({ "dastyar.connection_code": code, "dastyar.driver": "web" })
      return {
        connectionCode: code,
        assistantId: row.assistantId,
        accountId: assistant.value.accountId,
        settings,
        secret
      }
    })
  })
)
