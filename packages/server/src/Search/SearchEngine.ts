/**
 * The search engine shared by product search and chunk retrieval, ranking the
 * way Meilisearch and Typesense do, on Postgres:
 *
 * 1. Each query word is expanded against the assistant's term dictionary
 *    (`search_terms`, filled from what is indexed: by a trigger for products,
 *    once per document by the ingest for chunks): the word itself,
 *    words of the same stem ("kettles" → "kettle"), words within its typo
 *    budget (Damerau–Levenshtein: 1 typo from 5 letters, 2 from 9, a transposition counts as one,
 *    never on a word with digits, never on the first letter), and for the last
 *    word every word it begins (search as you type).
 * 2. The caller fetches the documents holding the expanded terms (a GIN
 *    index, filters applied in the same query): any of them, or first those
 *    holding every counted word (they rank above all others, see HybridSearch.ts).
 * 3. `rankDocuments` orders them by bucketed ranking rules, in order: more
 *    query words matched (each word weighted by its inverse document
 *    frequency among the matches, BM25's idf, so a rare word outweighs a
 *    common one; a word more than half the documents hold counts as a stop
 *    word), fewer typos, words closer together, the better field (title,
 *    classification, attribute values, externalId; then matched in more
 *    fields), exactness (a whole word beats a stem or a prefix), then earlier
 *    in the field, fewer unmatched title words, and finally catalog order.
 * 4. `fuse` merges the keyword ranking with the meaning side's by weighted
 *    reciprocal rank (`semanticRatio`); the meaning side only adds.
 *
 * Each step lives in its own module; this one names them for the callers.
 */
export { makeCollectionSizes, sizeFreshness } from "./CollectionSizes"
export { type ExpansionCache, expansionTtl, makeExpansionCache } from "./ExpansionCache"
export { fuse, type Fused, maxMeaningOnlyWithoutWords, meaningCutoff, rrfK } from "./Fusion"
export { expandedTerms, type Expansion, matchTerm, parseQuery, type QueryWord, type TermMatch } from "./Query"
export { commonWordLimit, rankDocuments, type Ranked, type RankInput } from "./Ranking"
export { stopWords } from "./StopWords"
export { type Besides, expand } from "./TermDictionary"
export { typoBudget, typoDistance } from "./Typos"
