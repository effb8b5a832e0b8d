import { Auth, DastyarApi, I18n } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { cacheFor } from "../Platform/Caching"
import { ModelCatalog } from "./ModelCatalog"

export const ModelsHttpLive = HttpApiBuilder.group(DastyarApi, "models", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* ModelCatalog
    return handlers.handle("list", () =>
      Effect.gen(function*() {
        const { plan } = yield* Auth.CurrentAccount
        yield* cacheFor({ seconds: 60, scope: "private" })
        const list = catalog.listFor(plan, yield* FiberRef.get(I18n.CurrentLocale))
        return { list, count: list.length }
      }))
  }))
