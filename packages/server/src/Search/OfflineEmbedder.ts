/**
 * The built-in embedder: no download, no network. Feature hashing of word
 * stems and character trigrams into a fixed-size, L2-normalised vector, so
 * texts that share words, word stems or most of a misspelt word land close.
 * It knows nothing of synonyms or translation (see the README).
 */
import * as Effect from "effect/Effect"
import * as EventLoop from "../Platform/EventLoop"
import { boundedMemo } from "../Platform/Memo"
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

/** A word's features in the order they are added: the bucket of each and its weight, signed. */
interface Features {
  readonly buckets: Uint16Array
  readonly weights: Float64Array
}

/**
 * The word's stem, then the character trigrams of `<stem>`; each by its FNV-1a hash: the bucket from the low
 * bits, the sign from the top bit.
 */
const featuresOf = (word: string): Features => {
  const root = stem(word)
  const padded = `<${root}>`
  const trigrams = Math.max(0, padded.length - 2)
  const buckets = new Uint16Array(1 + trigrams)
  const weights = new Float64Array(1 + trigrams)
  const set = (at: number, hash: number, weight: number) => {
    const h = hash >>> 0
    buckets[at] = h % dimensions
    weights[at] = h & 0x80000000 ? -weight : weight
  }
  set(0, fnv(wordPrefix, root), 1)
  const weight = 1 / Math.sqrt(Math.max(1, padded.length - 2))
  for (let i = 0; i < trigrams; i++) set(1 + i, fnv(trigramPrefix, padded, i, i + 3), weight)
  return { buckets, weights }
}

/**
 * Features of recent words: a text repeats most of its words (stemming and hashing them was most of the
 * embedder's time). Bounded (a few MB at most); emptied when full.
 */
const cachedFeatures = boundedMemo(20_000, featuresOf)

const embedWords = (words: ReadonlyArray<string>): ReadonlyArray<number> => {
  const vector = new Float64Array(dimensions)
  // Each distinct word's features once, times its count: a text repeats many of its words.
  const counts = new Map<string, number>()
  for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1)
  for (const [word, count] of counts) {
    const { buckets, weights } = cachedFeatures(word)
    for (let i = 0; i < buckets.length; i++) vector[buckets[i] ?? 0] += (weights[i] ?? 0) * count
  }
  let norm = 0
  for (const x of vector) norm += x * x
  if (norm === 0) {
    // pgvector's cosine distance of a zero vector is NaN; an empty text points nowhere in particular.
    vector[0] = 1
    norm = 1
  }
  const scale = 1 / Math.sqrt(norm)
  // A plain loop: `Array.from` with a mapping function called it for each of a document's millions of components.
  const scaled = new Array<number>(dimensions)
  for (let i = 0; i < dimensions; i++) scaled[i] = (vector[i] ?? 0) * scale
  return scaled
}

export const embedOne = (text: string): ReadonlyArray<number> => embedWords(wordsOf(text))

/** Texts embedded between two turns of the event loop: a batch of them is CPU work that searches would wait for. */
const piece = 16

export const make: EmbedderShape = {
  modelId,
  embed: (texts) =>
    EventLoop.mapInPieces(texts, piece, (part) =>
      part.map((text) => {
        // Each text's words once, for its vector and the token estimate.
        const words = wordsOf(text)
        return { vector: embedWords(words), tokens: words.length }
      })).pipe(
        Effect.map((embedded) => ({
          vectors: embedded.map(({ vector }) => vector),
          tokens: embedded.reduce((sum, { tokens }) => sum + tokens, 0)
        }))
      )
}
