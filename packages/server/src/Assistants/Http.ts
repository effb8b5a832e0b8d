import { Auth, DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { Assistants } from "./Assistants"

export const AssistantsHttpLive = HttpApiBuilder.group(DastyarApi, "assistants", (handlers) =>
  Effect.gen(function*() {
    const assistants = yield* Assistants
    return handlers.handle("list", () =>
      Effect.gen(function*() {
        const { accountId } = yield* Auth.CurrentAccount
        const list = yield* assistants.listForAccount(accountId)
        return { list, count: list.length }
      }))
  }))
