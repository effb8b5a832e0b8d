/**
 * Which `ChatModel` answers for a catalog model key: the built-in offline
 * model for `local` bindings, an OpenAI-compatible provider otherwise (its
 * key read from the environment variable the catalog names). Also fits an
 * assistant's reasoning level to what the model supports.
 */
import { Models } from "@dastyar/domain"
import { HttpClient } from "@effect/platform"
import * as Config from "effect/Config"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { ModelCatalog } from "../Models/ModelCatalog"
import * as Outbound from "../Platform/Outbound"
import type { ChatModelShape } from "./ChatModel"
import * as OfflineModel from "./OfflineModel"
import * as OpenAiCompatibleModel from "./OpenAiCompatibleModel"

const levels: ReadonlyArray<Models.Reasoning> = Models.reasoningLevels

/**
 * The level a model runs at: the requested one when supported; else the
 * highest supported level below it; else (e.g. `none` on a model that always
 * thinks) its lowest level.
 */
export const fitReasoning = (
  requested: Models.Reasoning,
  supported: ReadonlyArray<Models.Reasoning> | null
): Models.Reasoning => {
  if (supported === null || supported.length === 0 || supported.includes(requested)) return requested
  const rank = (level: Models.Reasoning) => levels.indexOf(level)
  const ordered = [...supported].sort((a, b) => rank(a) - rank(b))
  const below = ordered.filter((level) => rank(level) < rank(requested))
  return below[below.length - 1] ?? ordered[0] ?? requested
}

export class ChatModels extends Effect.Service<ChatModels>()("ChatModels", {
  effect: Effect.gen(function*() {
    const catalog = yield* ModelCatalog
    const client = yield* HttpClient.HttpClient

    return {
      offline: OfflineModel.make,
      /** What a reply names as `model` when the offline model answered as a fallback. */
      offlineKey: Option.getOrElse(catalog.localModelKey, () => "dastyar-local"),
      /** The runnable model for `key`, or none when the catalog has no provider for it. */
      forModel: (key: string, options: { readonly imageDetail: "low" | "high" | "auto" | null }) =>
        Effect.gen(function*() {
          const provider = Option.flatMap(catalog.findModel(key), (model) => Option.fromNullable(model.provider))
          if (Option.isNone(provider)) return Option.none<ChatModelShape>()
          const binding = provider.value
          if (binding._tag === "local") return Option.some(OfflineModel.make)
          const apiKey = yield* Config.option(Config.redacted(binding.apiKeyEnv)).pipe(
            Effect.orElseSucceed(() => Option.none())
          )
          const model = yield* OpenAiCompatibleModel.make({
            ...binding,
            apiKey,
            imageDetail: options.imageDetail ?? undefined
          }).pipe(Effect.provideService(HttpClient.HttpClient, client))
          return Option.some<ChatModelShape>(model)
        })
    } as const
  }),
  dependencies: [ModelCatalog.Default, Outbound.layer]
}) {}
