/** The synonym routes: ownership of `:assistantCode`, then the assistant's synonyms. */
import { Auth, DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import { Assistants } from "../Assistants/Assistants"
import { Synonyms } from "../Search/Synonyms"

export const SynonymsHttpLive = HttpApiBuilder.group(DastyarApi, "synonyms", (handlers) =>
  Effect.gen(function*() {
    const assistants = yield* Assistants
    const synonyms = yield* Synonyms

    /** The assistant behind `:assistantCode` if the caller's account owns it, or 404 `assistants.not_found`. */
    const owned = (assistantCode: string) =>
      Effect.flatMap(Auth.CurrentAccount, (caller) => assistants.requireOwnership(caller, assistantCode))

    return handlers
      .handle("list", ({ path }) =>
        owned(path.assistantCode).pipe(
          Effect.flatMap(synonyms.list),
          Effect.map((list) => ({ list, count: list.length }))
        ))
      .handle("replace", ({ path, payload }) =>
        owned(path.assistantCode).pipe(
          Effect.flatMap((assistantId) => synonyms.replace(assistantId, payload.synonyms)),
          Effect.map((list) => ({ list, count: list.length }))
        ))
      .handle("add", ({ path, payload }) =>
        owned(path.assistantCode).pipe(Effect.flatMap((assistantId) =>
          synonyms.add(assistantId, payload)
        )))
      .handle("delete", ({ path }) =>
        owned(path.assistantCode).pipe(
          Effect.flatMap((assistantId) => synonyms.remove(assistantId, path.synonymId)),
          Effect.as(null)
        ))
  }))
