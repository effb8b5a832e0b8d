/**
 * Related words of a query word from the shop vocabulary (ShopVocabulary.ts):
 * the other language's words for the same thing, and the same language's
 * other words for it. Chunk retrieval adds them to a query below the query's
 * own words, so an English question finds a passage written only in Persian
 * and the reverse. With a provider's embeddings the model relates languages
 * too; offline, this list is all there is.
 */
import { shopVocabulary } from "./ShopVocabulary"
import { stem } from "./Stemmer"
import { stopWords } from "./StopWords"
import { wordsOf } from "./TextNormalization"

/** Each line's words in normal form, stop words dropped ("cash on delivery" keeps "cash" and "delivery"). */
const groups: ReadonlyArray<ReadonlyArray<string>> = shopVocabulary.map((line) => [
  ...new Set(wordsOf(line.replace("|", " ")).filter((word) => !stopWords.has(word)))
])

/** Stem → the words of every line holding a word of that stem. */
const byStem = new Map<string, Set<string>>()
for (const group of groups) {
  for (const word of group) {
    const root = stem(word)
    const related = byStem.get(root) ?? new Set<string>()
    for (const other of group) related.add(other)
    byStem.set(root, related)
  }
}

/** Words meaning what `word` means, in either language, without words of its own stem. */
export const relatedWords = (word: string): ReadonlyArray<string> => {
  const root = stem(word)
  return [...byStem.get(root) ?? []].filter((other) => stem(other) !== root)
}

/** Whether the vocabulary knows `word` (by its stem). */
export const isShopTerm = (word: string): boolean => byStem.has(stem(word))
