/**
 * The outermost layer of every request: negotiates the response language
 * (read by the envelope schemas) and writes one structured log line per request
 * (route template, status, duration, assistant id; never a key or message text).
 */
import { I18n } from "@dastyar/domain"
import { HttpApp, HttpRouter, HttpServerRequest, type HttpServerResponse } from "@effect/platform"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import * as LogLevel from "effect/LogLevel"
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

/** Records the matched route template and assistant id for this request's log line (and span, when tracing is on). */
export const annotateRoute: Effect.Effect<void> = Effect.withFiberRuntime((fiber) => {
  const context = Context.getOption(fiber.currentContext, HttpRouter.RouteContext)
  if (Option.isNone(context)) return Effect.void
  const { params, route } = context.value
  const assistantId = params.assistantCode ?? params.assistantId
  const info = fiber.getFiberRef(CurrentRouteInfo)
  if (info !== undefined) {
    info.route = `${route.method} ${route.path}`
    info.assistantId = assistantId
  }
  return assistantId === undefined || !fiber.getFiberRef(FiberRef.currentTracerEnabled)
    ? Effect.void
    : Effect.annotateCurrentSpan("dastyar.assistant_id", assistantId)
})

export const requestMiddleware = <E, R>(app: HttpApp.Default<E, R>) =>
  Effect.withFiberRuntime<HttpServerResponse.HttpServerResponse, E, R | HttpServerRequest.HttpServerRequest>(
    (fiber) => {
      const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
      const locale = I18n.negotiate(request.headers["accept-language"])
      // Already the current language (the default, when the client names none): no fiber-local copy to make and undo.
      const localized = fiber.getFiberRef(I18n.CurrentLocale) === locale
        ? app
        : Effect.locally(app, I18n.CurrentLocale, locale)
      // Below INFO (e.g. `DASTYAR_LOG_LEVEL=Error`) the line is never written: skip its bookkeeping too.
      if (LogLevel.greaterThan(fiber.getFiberRef(FiberRef.currentMinimumLogLevel), LogLevel.Info)) return localized
      const info: RouteInfo = { route: undefined, assistantId: undefined }
      const started = performance.now()
      return localized.pipe(
        Effect.locally(CurrentRouteInfo, info),
        Effect.onExit((exit) =>
          Effect.logInfo("request").pipe(
            Effect.annotateLogs({
              method: request.method,
              route: info.route ?? "(unmatched)",
              status: Exit.isSuccess(exit) ? exit.value.status : 500,
              durationMs: Math.round((performance.now() - started) * 10) / 10,
              ...(info.assistantId === undefined ? {} : { assistantId: info.assistantId })
            })
          )
        )
      )
    }
  )
