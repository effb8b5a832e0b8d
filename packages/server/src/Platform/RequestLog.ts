/**
 * The outermost layer of every request: negotiates the response language
 * (read by the envelope schemas) and writes one structured log line per request
 * (route template, status, duration, assistant id; never a key or message text).
 */
import { I18n } from "@dastyar/domain"
import { HttpApp, HttpRouter, HttpServerRequest } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as Option from "effect/Option"

interface RouteInfo {
  route: string | undefined
  assistantId: string | undefined
}

/** Filled in from inside the matched route (see `annotateRoute`), read when the response is logged. */
const CurrentRouteInfo = globalValue(
  "@dastyar/server/CurrentRouteInfo",
  () => FiberRef.unsafeMake<RouteInfo | undefined>(undefined)
)

/** Records the matched route template and assistant id for this request's log line. */
export const annotateRoute = Effect.gen(function*() {
  const info = yield* FiberRef.get(CurrentRouteInfo)
  const context = yield* Effect.serviceOption(HttpRouter.RouteContext)
  if (info === undefined || Option.isNone(context)) return
  info.route = `${context.value.route.method} ${context.value.route.path}`
  info.assistantId = context.value.params.assistantCode ?? context.value.params.assistantId
  if (info.assistantId !== undefined) yield* Effect.annotateCurrentSpan("dastyar.assistant_id", info.assistantId)
})

export const requestMiddleware = <E, R>(app: HttpApp.Default<E, R>) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const info: RouteInfo = { route: undefined, assistantId: undefined }
    const started = performance.now()
    const locale = I18n.negotiate(request.headers["accept-language"])
    const logLine = (status: number) =>
      Effect.logInfo("request").pipe(
        Effect.annotateLogs({
          method: request.method,
          route: info.route ?? "(unmatched)",
          status,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          ...(info.assistantId === undefined ? {} : { assistantId: info.assistantId })
        })
      )
    return yield* app.pipe(
      Effect.locally(I18n.CurrentLocale, locale),
      Effect.locally(CurrentRouteInfo, info),
      Effect.tap((response) => logLine(response.status)),
      Effect.tapErrorCause(() => logLine(500))
    )
  })
