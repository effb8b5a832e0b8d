/**
 * The built-in embedder: no download, no network. Feature hashing of word
 * stems and character trigrams into a fixed-size, L2-normalised vector, so
 * texts that share words, word stems or most of a misspelt word land close.
 * It knows nothing of synonyms or translation (see the README).
 */
import * as Effect from "effect/Effect"
import type { EmbedderShape } from "./Embedder"
import { stem } from "./Stemmer"
import { wordsOf } from "./TextNormalization"

export const dimensions = 512
export const modelId = `offline-hash-v2:${dimensions}`

const offset = 0x811c9dc5

/** FNV-1a, 32 bits, continued from `h` over `text[from, to)` (no substring is made: this runs per trigram). */
const fnv = (h: number, text: string, from = 0, to = text.length): number => {
  for (let i = from; i < to; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h
}

/** The hashes of the feature prefixes, computed once. */
const wordPrefix = fnv(offset, "w:")
const trigramPrefix = fnv(offset, "c:")

/** Adds a feature by its FNV-1a hash: the bucket from the low bits, the sign from the top bit. */
const add = (vector: Float64Array, hash: number, weight: number) => {
  const h = hash >>> 0
  vector[h % dimensions] += h & 0x80000000 ? -weight : weight
}

export const embedOne = (text: string): ReadonlyArray<number> => {
  const vector = new Float64Array(dimensions)
  for (const word of wordsOf(text)) {
    const root = stem(word)
    add(vector, fnv(wordPrefix, root), 1)
    const padded = `<${root}>`
    const weight = 1 / Math.sqrt(Math.max(1, padded.length - 2))
    for (let i = 0; i + 3 <= padded.length; i++) add(vector, fnv(trigramPrefix, padded, i, i + 3), weight)
  }
  let norm = 0
  for (const x of vector) norm += x * x
  if (norm === 0) {
    // pgvector's cosine distance of a zero vector is NaN; an empty text points nowhere in particular.
    vector[0] = 1
    norm = 1
  }
  const scale = 1 / Math.sqrt(norm)
  return Array.from(vector, (x) => x * scale)
}

export const make: EmbedderShape = {
  modelId,
  embed: (texts) =>
    Effect.sync(() => ({
      vectors: texts.map(embedOne),
      tokens: texts.reduce((sum, text) => sum + wordsOf(text).length, 0)
    }))
}
