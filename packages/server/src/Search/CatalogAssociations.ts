/**
 * Meaning from the shop's own catalog: a product's description is kept, as
 * described terms, in a hidden field of its own that only the second look
 * for meaning reads (for a query word no title or classification names as
 * typed), and
 * the words a query word's described products share in their
 * classification, or in their titles, are words the query word predicts:
 * "soothes a teething baby" in one product's description brings the other
 * products of its category. Nothing is kept beyond each product's own
 * terms, so the associations follow the catalog as it is at every search
 * and a change re-indexes only the product changed.
 */
import { type Expansion, type QueryWord, type TermMatch, withoutPersianEnding } from "./Query"
import { stem, withoutEnclitic } from "./Stemmer"
import { questionStopWords } from "./StopWords"

/**
 * The described term of a word: `~^` and its stem, a form neither a query
 * word nor a related term (`~` and a stem) takes, so only the second look
 * reaches the description field.
 */
export const describedTerm = (word: string): string => `~^${stem(word)}`

/**
 * The described terms a query word looks for: its own, and without the
 * Persian endings the stemmer keeps on short words or a spoken ending
 * ("دستام" → "دست"), which the dictionary's other relaxations do not reach
 * in a hidden field.
 */
export const describedTermsOf = (word: string): ReadonlyArray<string> => {
  const bare = withoutEnclitic(word)
  const forms = [word, withoutPersianEnding(word), bare, bare === undefined ? undefined : withoutPersianEnding(bare)]
  return [...new Set(forms.filter((form) => form !== undefined).map(describedTerm))]
}

/** Described terms of one product at most: the field is scanned for every candidate of a second look. */
const maxDescribedTerms = 32

/** Where the searched fields put each part of a product (SearchKeys.ts): title, then its classification. */
const titleField = 0
const classificationField = 1
/** The description's field, after the related terms' (Ranking.ts weighs it). */
export const descriptionField = 5

/**
 * Whether a word says something: not a number, more than one letter, and
 * neither it nor its stem a stop word or filler of questions (a light verb
 * every description uses, "می‌کند" as "کرد", says nothing of the product).
 */
const telling = (word: string) =>
  !questionStopWords.has(word) && !questionStopWords.has(stem(word)) && [...word].length > 1 && !/\p{N}/u.test(word)

/**
 * The described terms of a product: its description's telling words, by
 * stem, each once, without those its searched fields already hold (a query
 * word they answer names the product).
 */
export const describedField = (
  description: ReadonlyArray<string>,
  searched: ReadonlyArray<string>
): ReadonlyArray<string> => {
  const own = new Set(searched.map(describedTerm))
  const field: Array<string> = []
  for (const word of description) {
    if (!telling(word)) continue
    // A Persian word also without an ending the stemmer keeps on short words ("زردی" is also "زرد").
    for (const form of [word, withoutPersianEnding(word)]) {
      if (form === undefined) continue
      const term = describedTerm(form)
      if (field.length < maxDescribedTerms && !own.has(term) && !field.includes(term)) field.push(term)
    }
  }
  return field
}

/** Words one query word is associated with at most, and one query at most. */
const maxPerWord = 3
const maxPerQuery = 8
/** A query word's described products read at most: enough to see what most of them share. */
const maxDescribed = 64

/** How an associated word matches: below the query word's own described products and its meanings. */
const associatedMatch: TermMatch = { typos: 2, exact: false }

/**
 * The words each counted query word predicts in `candidates` (a second
 * look's, as field lines): among the products whose description holds the
 * word, the words at least half of them share, in the classification of one
 * or more, or in the titles of two or more (a single title's words name that
 * product, not a kind of product), the commonest first. Null when there are
 * none.
 */
export const associations = (
  words: ReadonlyArray<QueryWord>,
  candidates: ReadonlyArray<{ readonly fields: string }>
): Expansion | null => {
  let added = 0
  const expansion = words.map((query) => {
    const found = new Map<string, TermMatch>()
    if (!query.counts || !telling(query.word) || added >= maxPerQuery) return found
    const terms = describedTermsOf(query.word)
    // Only the few candidates holding a term are split into words (a substring test first).
    const described = candidates.flatMap(({ fields }) => {
      if (!terms.some((term) => fields.includes(term))) return []
      const lines = fields.split("\n").map((line) => line.split(" "))
      return terms.some((term) => lines[descriptionField]?.includes(term) === true) ? [lines] : []
    }).slice(0, maxDescribed)
    const support = new Map<string, { products: number; classified: boolean }>()
    for (const lines of described) {
      const classification = new Set(lines[classificationField] ?? [])
      for (const word of new Set([...(lines[titleField] ?? []), ...classification])) {
        if (!telling(word) || word === query.word) continue
        const seen = support.get(word)
        support.set(word, {
          products: (seen?.products ?? 0) + 1,
          classified: seen?.classified === true || classification.has(word)
        })
      }
    }
    const least = Math.ceil(described.length / 2)
    const predicted = [...support.entries()]
      .filter(([, { classified, products }]) => (classified || products >= 2) && products >= least)
      .sort((a, b) => b[1].products - a[1].products || Number(b[1].classified) - Number(a[1].classified))
      .slice(0, Math.min(maxPerWord, maxPerQuery - added))
    for (const [word] of predicted) found.set(word, associatedMatch)
    added += found.size
    return found
  })
  return added === 0 ? null : expansion
}

/**
 * Products found only through associations, those holding more of the
 * associated words in their title or classification first (the whole of a
 * classification, "matcha tools", over a word it shares with others,
 * "tools"); ties keep their order.
 */
export const byAssociations = <A extends { readonly id: string }>(
  found: ReadonlyArray<A>,
  fieldsOf: ReadonlyMap<string, string>,
  associated: Expansion
): ReadonlyArray<A> => {
  const wanted = new Set(associated.flatMap((terms) => [...terms.keys()]))
  const held = (id: string) => {
    const [title = "", classification = ""] = (fieldsOf.get(id) ?? "").split("\n")
    return new Set([...title.split(" "), ...classification.split(" ")].filter((word) => wanted.has(word))).size
  }
  return found.map((item) => ({ item, held: held(item.id) }))
    .sort((a, b) => b.held - a.held)
    .map(({ item }) => item)
}
