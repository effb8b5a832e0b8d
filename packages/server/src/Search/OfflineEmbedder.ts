/**
 * The built-in embedder: no download, no network. Feature hashing of word
 * stems and character trigrams into a fixed-size, L2-normalised vector, so
 * texts that share words, word stems or most of a misspelt word land close.
 * It knows nothing of synonyms or translation (see the README).
 */
import * as Effect from "effect/Effect"
import type { EmbedderShape } from "./Embedder"
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

const persianSuffixes = ["هایی", "های", "ها", "ترین", "تر", "ات"]

/** English plural, tense and adverb endings, then a final silent "e": "cables" and "cable" share "cabl". */
const stemEnglish = (word: string): string => {
  let root = word
  if (root.endsWith("'s")) root = root.slice(0, -2)
  else if (root.endsWith("ies") && root.length > 4) root = `${root.slice(0, -3)}y`
  else if (/(ss|x|z|ch|sh)es$/.test(root)) root = root.slice(0, -2)
  else if (root.endsWith("s") && !/(ss|us|is)$/.test(root) && root.length > 3) root = root.slice(0, -1)
  else if (root.endsWith("ing") && root.length > 5) root = root.slice(0, -3)
  else if (root.endsWith("ed") && root.length > 4) root = root.slice(0, -2)
  else if (root.endsWith("ly") && root.length > 4) root = root.slice(0, -2)
  return root.endsWith("e") && root.length > 3 ? root.slice(0, -1) : root
}

/** A light stemmer: plural and comparative endings go, so "teapots" meets "teapot" and "کتاب‌ها" meets "کتاب". */
export const stem = (word: string): string => {
  if (/[a-z]/.test(word)) return stemEnglish(word)
  for (const suffix of persianSuffixes) {
    if (word.length - suffix.length >= 3 && word.endsWith(suffix)) return word.slice(0, -suffix.length)
  }
  return word
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
