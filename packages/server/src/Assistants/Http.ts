import { Assistants as Domain, Auth, DastyarApi, Envelope, WireEncoder } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Success from "../Platform/Success"
import { Assistants } from "./Assistants"

const encodeList = WireEncoder.make(Envelope.ListOf(Domain.Assistant))

export const AssistantsHttpLive = HttpApiBuilder.group(DastyarApi, "assistants", (handlers) =>
  Effect.gen(function*() {
    const assistants = yield* Assistants
    return handlers
      .handle("list", () =>
        Effect.gen(function*() {
          const { accountId } = yield* Auth.CurrentAccount
          const list = yield* assistants.listForAccount(accountId)
          // The service's own rows: written without the schema's re-checks (same bytes; see test/Http/WireEncoding).
          return yield* Success.json(encodeList({ list, count: list.length }))
        }))
      .handle("update", ({ path, payload }) =>
        Effect.gen(function*() {
          const { accountId } = yield* Auth.CurrentAccount
          return yield* assistants.updateOwned(accountId, path.assistantCode, payload)
        }))
  }))
