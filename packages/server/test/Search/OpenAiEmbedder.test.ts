import { FetchHttpClient } from "@effect/platform"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as OpenAiEmbedder from "../../src/Search/OpenAiEmbedder"
import { fakeEmbeddings } from "../support/FakeEmbeddings"

const embedderFor = (baseUrl: string, batchSize: number) =>
  OpenAiEmbedder.make({
    baseUrl,
    model: "test-embed",
    apiKey: Option.some(Redacted.make("emb-key")),
    dimensions: Option.some(64),
    batchSize,
    timeout: "5 seconds"
  }).pipe(Effect.provide(FetchHttpClient.layer))

describe("OpenAI-compatible embedder", () => {
  it.scopedLive("batches inputs, keeps their order, normalises vectors and sums tokens", () =>
    Effect.gen(function*() {
      const fake = yield* fakeEmbeddings()
      const embedder = yield* embedderFor(fake.baseUrl, 4)
      expect(embedder.modelId).toBe("openai-compatible:test-embed:64")
      const texts = Array.from({ length: 10 }, (_, i) => `product number ${i}`)
      const result = yield* embedder.embed(texts)
      expect(fake.batches).toEqual([4, 4, 2])
      expect(result.vectors).toHaveLength(10)
      expect(result.tokens).toBe(20)
      for (const vector of result.vectors) {
        expect(Math.abs(Math.hypot(...vector) - 1)).toBeLessThan(1e-9)
      }
      // Order follows the input even though the server answers in reverse.
      const again = yield* embedder.embed([texts[3]!])
      expect(again.vectors[0]).toEqual(result.vectors[3])
    }))

  it.scopedLive("retries 429 and 5xx, then succeeds", () =>
    Effect.gen(function*() {
      const fake = yield* fakeEmbeddings()
      fake.failures.push(429, 503, 500)
      const embedder = yield* embedderFor(fake.baseUrl, 8)
      const result = yield* embedder.embed(["hello"])
      expect(result.vectors).toHaveLength(1)
      expect(fake.requests()).toBe(4)
    }))

  it.scopedLive("a 4xx other than 429 fails at once as a permanent error", () =>
    Effect.gen(function*() {
      const fake = yield* fakeEmbeddings()
      fake.failures.push(400)
      const embedder = yield* embedderFor(fake.baseUrl, 8)
      const error = yield* Effect.flip(embedder.embed(["hello"]))
      expect(error.transient).toBe(false)
      expect(fake.requests()).toBe(1)
    }))

  it.scopedLive("an unreachable provider is a transient error after retries", () =>
    Effect.gen(function*() {
      const embedder = yield* embedderFor("http://127.0.0.1:9/v1", 8)
      const error = yield* Effect.flip(embedder.embed(["hello"]))
      expect(error.transient).toBe(true)
    }), 60_000)
})
