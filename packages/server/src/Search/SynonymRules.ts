/**
 * Synonyms applied to a query (the shop's, and the joined form of two
 * neighbouring words): a rule whose words occur in the query, one
 * after another, adds the words of its other terms as alternatives of each
 * query word it covers. The alternatives are expanded against the term
 * dictionary like the query's own words (stems, typos) and merged into the
 * word's terms as inexact matches, so a product holding the very query word
 * still ranks above one found through a synonym.
 */
import * as Effect from "effect/Effect"
import type { Expansion, QueryWord, TermMatch } from "./Query"
import { relatedTerm } from "./RelatedTerms"
import { stem } from "./Stemmer"
import { wordsOf } from "./TextNormalization"

/** A set or rule as stored: terms as written. */
export interface SynonymSet {
  readonly root: string | null
  readonly synonyms: ReadonlyArray<string>
}

/** One direction of a set: a query holding `from` also finds `to`. Words in normal form. */
export interface SynonymRule {
  readonly from: ReadonlyArray<string>
  readonly to: ReadonlyArray<ReadonlyArray<string>>
}

/** Alternative words added to one query at most (a long list of synonyms of every word is not a search). */
const maxAlternatives = 32

/** The rules of sets: a multi-way set gives one per term, a one-way rule one from its root. */
export const compileRules = (sets: ReadonlyArray<SynonymSet>): ReadonlyArray<SynonymRule> =>
  sets.flatMap((set) => {
    const terms = set.synonyms.map(wordsOf).filter((words) => words.length > 0)
    if (set.root !== null) {
      const from = wordsOf(set.root)
      return from.length === 0 ? [] : [{ from, to: terms }]
    }
    return terms.map((from, i) => ({ from, to: terms.filter((_, j) => j !== i) }))
  })

const sameWord = (a: string, b: string) => a === b || stem(a) === stem(b)

/** Per alternative word, the query word (its index) it stands for. */
export interface Alternative {
  readonly group: number
  readonly word: string
}

/** The alternatives the rules add to a query's words. */
export const alternativesOf = (
  words: ReadonlyArray<QueryWord>,
  rules: ReadonlyArray<SynonymRule>
): ReadonlyArray<Alternative> => {
  const seen = new Set<string>()
  const found: Array<Alternative> = []
  for (const rule of rules) {
    for (let start = 0; start + rule.from.length <= words.length; start++) {
      if (!rule.from.every((word, k) => sameWord(word, words[start + k]?.word ?? ""))) continue
      for (let group = start; group < start + rule.from.length; group++) {
        for (const word of rule.to.flat()) {
          const key = `${group} ${word}`
          if (seen.has(key) || word === words[group]?.word || found.length >= maxAlternatives) continue
          seen.add(key)
          found.push({ group, word })
        }
      }
    }
  }
  return found
}

/**
 * Two neighbouring query words also stand for the word they make joined:
 * Persian compounds are written with a space, a half-space or none ("هارد
 * دیسک", "هارددیسک"), English ones too ("power bank", "powerbank"), and
 * model numbers with or without a space ("a 54", "a54"). A half-space is
 * already a join in normal form; this finds the joined form from the spaced
 * one (the hidden field of products holds the other way, see
 * RelatedTerms.ts).
 */
export const compoundRules = (words: ReadonlyArray<QueryWord>): ReadonlyArray<SynonymRule> => {
  const pairs = words.slice(1).flatMap((next, i) => {
    const first = words[i]?.word ?? ""
    // A model number joins a one-letter part too ("a 54" is "a54").
    const joins = ([...first].length >= 2 && [...next.word].length >= 2) || /\p{N}/u.test(`${first}${next.word}`)
    return joins ? [{ from: [first, next.word], to: [[`${first}${next.word}`]] }] : []
  })
  // A Persian compound of three words ("برف پاک کن") is written joined too.
  const triples = words.slice(2).flatMap((last, i) => {
    const three = [words[i]?.word ?? "", words[i + 1]?.word ?? "", last.word]
    return /^[\u0600-\u06FF]+$/u.test(three.join("")) ? [{ from: three, to: [[three.join("")]] }] : []
  })
  return [...pairs, ...triples]
}

/**
 * Expands a query's words with `expand` (the term dictionary), together with
 * the alternatives the rules add, in one call; each alternative's terms join
 * its query word's as inexact matches. With `related` (products, whose
 * hidden field holds related terms, see RelatedTerms.ts) each query word and
 * each of its alternatives also stands for its related term.
 */
export const expandWithSynonyms = <E, R>(
  expand: (words: ReadonlyArray<QueryWord>) => Effect.Effect<Expansion, E, R>,
  words: ReadonlyArray<QueryWord>,
  rules: ReadonlyArray<SynonymRule>,
  options?: { readonly related: boolean }
): Effect.Effect<Expansion, E, R> => {
  const alternatives = alternativesOf(words, [...rules, ...compoundRules(words)])
  const withRelated = (expansion: Expansion): Expansion => {
    if (options?.related !== true) return expansion
    const related = expansion.map((terms) => new Map<string, TermMatch>(terms))
    const add = (group: number, word: string) => {
      const term = relatedTerm(word)
      if (!related[group]?.has(term)) related[group]?.set(term, { typos: 0, exact: false })
    }
    words.forEach(({ word }, group) => add(group, word))
    for (const { group, word } of alternatives) add(group, word)
    return related
  }
  if (alternatives.length === 0) return Effect.map(expand(words), withRelated)
  const extra = alternatives.map(({ word }): QueryWord => ({ word, counts: true, prefix: false, alternative: true }))
  return Effect.map(expand([...words, ...extra]), (all) => {
    const merged = all.slice(0, words.length).map((terms) => new Map<string, TermMatch>(terms))
    alternatives.forEach(({ group }, i) => {
      const target = merged[group]
      for (const [term, match] of all[words.length + i] ?? []) {
        if (target !== undefined && !target.has(term)) target.set(term, { typos: match.typos, exact: false })
      }
    })
    return withRelated(merged)
  })
}
