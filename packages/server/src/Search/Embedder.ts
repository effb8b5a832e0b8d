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
 * components; formatting them was most of an import's cost here). Joined
 * once rather than appended: appending made a rope of a thousand strings per
 * vector, which the young generation's collections copied while an indexer
 * batch's literals waited for their statement.
 */
export const vectorLiteral = (vector: ReadonlyArray<number>): string => {
  const parts = new Array<string>(vector.length)
  for (let i = 0; i < vector.length; i++) {
    const x = vector[i] ?? 0
    parts[i] = x === 0 || !Number.isFinite(x) ? "0" : x.toPrecision(7)
  }
  return `[${parts.join(",")}]`
}

const float32 = new Float32Array(1)
const float32Bits = new Uint32Array(float32.buffer)

/** IEEE half-precision bits of `x` as Postgres gets them from text: rounded to float32 first, then to nearest even. */
const halfBits = (x: number): number => {
  float32[0] = x
  const bits = float32Bits[0] ?? 0
  const sign = (bits >>> 16) & 0x8000
  const exponent = ((bits >>> 23) & 0xff) - 127 + 15
  const mantissa = bits & 0x7fffff
  if (exponent >= 0x1f) return sign | 0x7c00 // beyond half's range (a unit vector never is): pgvector refuses it
  if (exponent <= 0) {
    // Subnormal (or zero): the implicit bit joins the mantissa, shifted down to 2^-24 steps.
    if (exponent < -10) return sign
    const shift = 14 - exponent
    const full = mantissa | 0x800000
    const rest = full & ((1 << shift) - 1)
    const halfway = 1 << (shift - 1)
    const half = full >>> shift
    return sign | (rest > halfway || (rest === halfway && (half & 1) === 1) ? half + 1 : half)
  }
  const half = (exponent << 10) | (mantissa >>> 13)
  const rest = mantissa & 0x1fff
  // A carry out of the mantissa steps the exponent up, as rounding should.
  return sign | (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1) ? half + 1 : half)
}

/**
 * pgvector's binary form of a `halfvec` (dimensions, a zero, then each component as a big-endian half):
 * a `Buffer` parameter goes to Postgres in binary and is read as is, where the text form of a chunk's vector
 * took most of its insert's time to print here and to parse there. Components that are not finite become 0,
 * as in `vectorLiteral`.
 */
export const halfvecBinary = (vector: ReadonlyArray<number>): Buffer => {
  const bytes = Buffer.allocUnsafe(4 + 2 * vector.length)
  bytes.writeUInt16BE(vector.length, 0)
  bytes.writeUInt16BE(0, 2)
  // Byte by byte: `writeUInt16BE` checked its arguments for each of a document's millions of components.
  for (let i = 0, at = 4; i < vector.length; i++, at += 2) {
    const x = vector[i] ?? 0
    const half = x === 0 || !Number.isFinite(x) ? 0 : halfBits(x)
    bytes[at] = half >>> 8
    bytes[at + 1] = half & 0xff
  }
  return bytes
}
