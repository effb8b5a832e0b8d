/**
 * Web connections as the operator and the shop owner manage them: create, list, change settings, delete, and
 * a preview token for the console's own page. The owner's routes check the assistant is the key's first.
 */
import { Channels, Web, WebSettings } from "@dastyar/domain"
import * as DateTime from "effect/DateTime"
import * as Effect from "effect/Effect"
import { Connections } from "../Connections"
import { applyUpdate } from "./Settings"
import { WebKeys } from "./WebKeys"
import { WebRepo } from "./WebRepo"

export class WebAdmin extends Effect.Service<WebAdmin>()("WebAdmin", {
  effect: Effect.gen(function*() {
    const connections = yield* Connections
    const repo = yield* WebRepo
    const keys = yield* WebKeys

    /** The assistant's web connection with its settings (404 for another assistant's, or another driver's). */
    const requireWeb = (assistantId: string, code: string) =>
      Effect.flatMap(connections.describe(assistantId, code), (connection) =>
        connection.web === undefined
          ? Effect.fail(new Channels.ConnectionNotFound())
          : Effect.succeed({ connection, settings: connection.web }))

    return {
      create: (assistantId: string, settings: WebSettings.WebSettingsCreate) =>
        connections.create(assistantId, { driver: "web", ...settings }).pipe(
          // A web connection calls no messenger and has no callback address.
          Effect.catchTags({
            TelegramRejected: Effect.die,
            TelegramUnavailable: Effect.die,
            MessengerRejected: Effect.die,
            MessengerUnavailable: Effect.die,
            CallbackUrlRefused: Effect.die
          })
        ),

      list: Effect.fn("WebAdmin.list")(function*(assistantId: string) {
        const all = yield* connections.list(assistantId)
        const list = all.list.filter((connection) => connection.driver === "web")
        return { list, count: list.length }
      }),

      remove: Effect.fn("WebAdmin.remove")(function*(assistantId: string, code: string) {
        yield* requireWeb(assistantId, code)
        yield* connections.remove(assistantId, code)
        return null
      }),

      update: Effect.fn("WebAdmin.update")(function*(
        assistantId: string,
        code: string,
        update: WebSettings.WebSettingsUpdate
      ) {
        const { settings } = yield* requireWeb(assistantId, code)
        yield* repo.save(code, applyUpdate(settings, update))
        return yield* connections.describe(assistantId, code)
      }),

      /** The origin may use the widget for a while; the connection's allowed origins stay as they are. */
      preview: Effect.fn("WebAdmin.preview")(function*(assistantId: string, code: string, origin: string) {
        yield* requireWeb(assistantId, code)
        const expiresAt = new Date(Date.now() + Web.previewTokenSeconds * 1000)
        return {
          previewToken: keys.preview(code, WebSettings.normaliseOrigin(origin) ?? origin, expiresAt),
          expiresAt: DateTime.unsafeFromDate(expiresAt)
        }
      })
    } as const
  }),
  dependencies: [WebRepo.Default, WebKeys.Default]
}) {}
