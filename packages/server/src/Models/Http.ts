import { Auth, DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { cacheFor } from "../Platform/Caching"
import { ModelCatalog } from "./ModelCatalog"

export const ModelsHttpLive = HttpApiBuilder.group(DastyarApi, "models", (handlers) =>
  Effect.gen(function*() {
    const catalog = yield* ModelCatalog
    return handlers.handle("list", () =>
      Effect.gen(function*() {
        const { plan } = yield* Auth.CurrentAccount
        yield* cacheFor({ seconds: 60, scope: "private" })
        const list = catalog.listFor(plan)
        return { list, count: list.length }
      }))
  }))
