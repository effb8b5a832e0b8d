/**
 * Text embeddings behind one service. Every vector is stored with the
 * `modelId` that made it and only vectors of the current `modelId` are ever
 * compared, so changing the embedder re-indexes instead of mixing two spaces.
 */
import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"

export class EmbedderError extends Schema.TaggedError<EmbedderError>()("EmbedderError", {
  message: Schema.String,
  /** True when retrying later may succeed (429, 5xx, network). */
  transient: Schema.Boolean
}) {}

export interface Embeddings {
  /** One vector per input text, in input order, each of length 1 (cosine-ready). */
  readonly vectors: ReadonlyArray<ReadonlyArray<number>>
  /** Tokens the provider counted (estimated for the offline embedder); feeds the cost ledger. */
  readonly tokens: number
}

export interface EmbedderShape {
  /** Names the vector space: provider, model and dimensions. */
  readonly modelId: string
  readonly embed: (texts: ReadonlyArray<string>) => Effect.Effect<Embeddings, EmbedderError>
}

export class Embedder extends Context.Tag("Embedder")<Embedder, EmbedderShape>() {}

/**
 * pgvector's text form of a vector, for `${literal}::halfvec` parameters: 7
 * significant digits, and a bare "0" for zeros (most of an offline vector's
 * components; formatting them was most of an import's cost here).
 */
export const vectorLiteral = (vector: ReadonlyArray<number>): string => {
  let literal = "["
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i] ?? 0
    literal += (i === 0 ? "" : ",") + (x === 0 || !Number.isFinite(x) ? "0" : x.toPrecision(7))
  }
  return `${literal}]`
}
