/**
 * The web channel's HTTP side: the browser's routes (behind `WebAccess`), the
 * operator's, the CORS preflight of the browser's routes, and the widget's
 * script files.
 */
import { Auth, DastyarApi, Web } from "@dastyar/domain"
import { HttpApiBuilder, HttpRouter, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { Assistants } from "../../Assistants/Assistants"
import { Connections } from "../Connections"
import { findWebConnection, WebAccessLive } from "./Access"
import * as Assets from "./Assets"
import { originAllowed } from "./Settings"
import { WebAdmin } from "./WebAdmin"
import { WebChat } from "./WebChat"
import { WebKeys } from "./WebKeys"
import { WebRepo } from "./WebRepo"

const WebHttpLive = HttpApiBuilder.group(DastyarApi, "web", (handlers) =>
  Effect.gen(function*() {
    const chat = yield* WebChat
    return handlers
      .handle("config", () =>
        Effect.map(Web.CurrentWebConnection, ({ settings }) => ({
          title: settings.title,
          greeting: settings.greeting,
          colour: settings.colour,
          defaultLanguage: settings.defaultLanguage,
          showProducts: settings.showProducts,
          showSources: settings.showSources
        })))
      .handle("session", ({ payload }) => Effect.flatMap(Web.CurrentWebConnection, (web) => chat.session(web, payload)))
      .handle("messages", ({ headers }) =>
        Effect.flatMap(Web.CurrentWebConnection, (web) =>
          chat.transcript(web, headers[Web.webHeaders.visitor])))
      .handle("send", ({ headers, payload }) =>
        Effect.gen(function*() {
          const web = yield* Web.CurrentWebConnection
          const answer = yield* chat.send(web, headers[Web.webHeaders.visitor], payload)
          if (answer._tag === "Reply") {
            return answer.reply
          }
          return HttpServerResponse.stream(answer.body, {
            contentType: "text/event-stream",
            headers: { "cache-control": "no-cache", "x-accel-buffering": "no" }
          })
        }))
      .handle("feedback", ({ headers, path, payload }) =>
        Effect.flatMap(Web.CurrentWebConnection, (web) =>
          chat.feedback(web, headers[Web.webHeaders.visitor], path.messageId, payload)))
      .handle("newConversation", ({ headers }) =>
        Effect.flatMap(Web.CurrentWebConnection, (web) =>
          chat.newConversation(web, headers[Web.webHeaders.visitor])))
  }))

const AdminWebHttpLive = HttpApiBuilder.group(DastyarApi, "adminWeb", (handlers) =>
  Effect.gen(function*() {
    const admin = yield* WebAdmin
    return handlers
      .handle(
        "updateWebConnection",
        ({ path, payload }) => admin.update(path.assistantId, path.connectionCode, payload)
      )
      .handle(
        "previewWebConnection",
        ({ path, payload }) => admin.preview(path.assistantId, path.connectionCode, payload.origin)
      )
  }))

/** The shop owner's web connections: the same operations as the operator's, under an assistant of the key's account. */
const OwnerWebHttpLive = HttpApiBuilder.group(DastyarApi, "webConnections", (handlers) =>
  Effect.gen(function*() {
    const admin = yield* WebAdmin
    const assistants = yield* Assistants
    const owned = (assistantCode: string) =>
      Effect.flatMap(Auth.CurrentAccount, (caller) => assistants.requireOwnership(caller, assistantCode))
    return handlers
      .handle("create", ({ path, payload }) =>
        Effect.flatMap(owned(path.assistantCode), (assistantId) =>
          admin.create(assistantId, payload)))
      .handle("list", ({ path }) =>
        Effect.flatMap(owned(path.assistantCode), admin.list))
      .handle("update", ({ path, payload }) =>
        Effect.flatMap(owned(path.assistantCode), (assistantId) =>
          admin.update(assistantId, path.connectionCode, payload)))
      .handle("delete", ({ path }) =>
        Effect.flatMap(owned(path.assistantCode), (assistantId) =>
          admin.remove(assistantId, path.connectionCode)))
      .handle("preview", ({ path, payload }) =>
        Effect.flatMap(owned(path.assistantCode), (assistantId) =>
          admin.preview(assistantId, path.connectionCode, payload.origin)))
  }))

const allowedHeaders = ["content-type", Web.webHeaders.visitor, Web.webHeaders.preview].join(", ")

/**
 * The browser's preflight, answered per connection: only an allowed origin (or a page that will send a
 * preview token, checked on the request itself) may send JSON and the visitor header. Refused: 403
 * without CORS headers, so the browser sends nothing.
 */
const preflight = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const { params } = yield* HttpRouter.RouteContext
  const origin = request.headers.origin
  const found = yield* findWebConnection(params.connectionCode ?? "")
  const requested = (request.headers["access-control-request-headers"] ?? "").toLowerCase()
  const allowed = origin !== undefined && Option.isSome(found) &&
    (originAllowed(found.value.settings, origin) || requested.includes(Web.webHeaders.preview))
  if (!allowed) return HttpServerResponse.empty({ status: 403 })
  return HttpServerResponse.empty({
    status: 204,
    headers: {
      "access-control-allow-origin": origin,
      "access-control-allow-methods": "GET, POST",
      "access-control-allow-headers": allowedHeaders,
      "access-control-max-age": "600",
      vary: "Origin"
    }
  })
})

const PreflightLive = HttpApiBuilder.Router.use((router) =>
  Effect.gen(function*() {
    const context = yield* Effect.context<Connections | WebRepo>()
    yield* router.options("/v1/web/:connectionCode/*", Effect.provide(preflight, context))
  })
)

/** Needs `RateLimit` and the channel services (`Connections`) from the app. */
export const WebChannelHttpLive = Layer.mergeAll(
  WebHttpLive,
  AdminWebHttpLive,
  OwnerWebHttpLive,
  PreflightLive,
  Assets.layer
).pipe(
  Layer.provide(WebAccessLive),
  Layer.provide(Layer.mergeAll(WebChat.Default, WebAdmin.Default)),
  Layer.provide(Layer.mergeAll(WebKeys.Default, WebRepo.Default))
)
