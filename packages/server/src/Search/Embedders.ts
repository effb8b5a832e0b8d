/** The configured `Embedder`: the OpenAI-compatible provider when its base URL is set, else the offline one. */
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { AppConfig } from "../Config"
import * as Outbound from "../Platform/Outbound"
import { Embedder } from "./Embedder"
import * as OfflineEmbedder from "./OfflineEmbedder"
import * as OpenAiEmbedder from "./OpenAiEmbedder"

export const layer = Layer.effect(
  Embedder,
  Effect.gen(function*() {
    const { embeddings } = yield* AppConfig
    return yield* Option.match(embeddings.baseUrl, {
      onNone: () => Effect.succeed(OfflineEmbedder.make),
      onSome: (baseUrl) => OpenAiEmbedder.make({ ...embeddings, baseUrl })
    })
  })
).pipe(Layer.provide(Outbound.layer))
