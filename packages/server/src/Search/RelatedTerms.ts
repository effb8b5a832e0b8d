/**
 * Meaning without an embeddings provider: each product carries a last,
 * hidden field of words related to its title (WordNet's synonyms, kinds,
 * definition words and derived verbs of its English words, see
 * WordNet.ts; its compounds written apart, joined; and the parts of its
 * compound words, see WordParts.ts), computed when it is indexed. Each is stored as a related
 * term, `~` and its stem, a form no query word takes by itself, so related
 * terms stay out of the typo and prefix expansions of the term dictionary
 * and a query word reaches them only by its stem (`relatedTerm`).
 */
import { stem } from "./Stemmer"
import { stopWords } from "./StopWords"
import { isNoun, relatedWords } from "./WordNet"
import { wordParts } from "./WordParts"

/** The related term of a word: what the hidden field holds and what a query word adds to its terms. */
export const relatedTerm = (word: string): string => `~${stem(word)}`

/** Related terms of one product at most: the field is scanned for every keyword candidate of a search. */
const maxRelatedTerms = 40

/**
 * The hidden field of a product: every two neighbouring title words joined
 * into one, then the parts of its compound title words (and `parts`, those
 * the title writes with a half-space), then the related terms of its title's
 * words (and of two neighbouring words WordNet knows as one, "running
 * shoe"), taken in turns, each word's closest related word before any
 * word's next, without those of words any searched field already holds.
 */
export const relatedField = (
  title: ReadonlyArray<string>,
  searched: ReadonlyArray<string>,
  parts: ReadonlyArray<string> = []
): ReadonlyArray<string> => {
  const own = new Set(searched.map(relatedTerm))
  const field: Array<string> = []
  const add = (word: string) => {
    const term = relatedTerm(word)
    if (field.length < maxRelatedTerms && !own.has(term) && !field.includes(term)) field.push(term)
  }
  const content = title.filter((word) => !stopWords.has(word))
  // A compound the title writes apart, joined: a query writing it as one word finds it ("هارددیسک").
  for (const [i, word] of title.slice(1).entries()) {
    const previous = title[i] ?? ""
    if (!stopWords.has(previous) && !stopWords.has(word)) add(`${previous}${word}`)
  }
  // And a Persian one of three ("برف پاک کن").
  for (const [i, word] of title.slice(2).entries()) {
    const three = `${title[i] ?? ""}${title[i + 1] ?? ""}${word}`
    if (/^[\u0600-\u06FF]+$/u.test(three)) add(three)
  }
  // A compound's parts: "ضدزنگ" is found by "زنگ", "lunchbox" by "box".
  const compounds = [...new Set([...content.flatMap(wordParts), ...parts])]
  for (const part of compounds) add(part)
  const pairs = content.slice(1).map((word, i) => `${content[i]}_${word}`).filter(isNoun)
  // In turns, each word's closest first: the head noun of an English title comes last, after its modifiers.
  const lists = [...pairs, ...content].map(relatedWords)
  const longest = Math.max(0, ...lists.map((list) => list.length))
  for (let rank = 0; rank < longest; rank++) {
    for (const list of lists) {
      const word = list[rank]
      if (word !== undefined) add(word)
    }
  }
  return field
}
