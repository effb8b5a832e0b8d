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

/** FNV-1a, 32 bits. */
const hash = (feature: string): number => {
  let h = 0x811c9dc5
  for (let i = 0; i < feature.length; i++) {
    h ^= feature.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

const add = (vector: Float64Array, feature: string, weight: number) => {
  const h = hash(feature)
  vector[h % dimensions] += h & 0x80000000 ? -weight : weight
}

export const embedOne = (text: string): ReadonlyArray<number> => {
  const vector = new Float64Array(dimensions)
  for (const word of wordsOf(text)) {
    const root = stem(word)
    add(vector, `w:${root}`, 1)
    const padded = `<${root}>`
    const trigrams = Math.max(1, padded.length - 2)
    for (let i = 0; i + 3 <= padded.length; i++) add(vector, `c:${padded.slice(i, i + 3)}`, 1 / Math.sqrt(trigrams))
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
