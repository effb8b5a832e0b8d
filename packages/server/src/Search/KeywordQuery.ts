/** Postgres full-text query terms, the same for product and document search. */

/**
 * One `to_tsquery` term. Words from `wordsOf` are letters and digits only, so
 * quoting is safe; words of three letters or more also match as prefixes.
 */
export const tsqueryTerm = (word: string): string => (word.length >= 3 ? `'${word}':*` : `'${word}'`)
