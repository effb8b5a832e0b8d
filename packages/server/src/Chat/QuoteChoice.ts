/**
 * Which of the ranked sentences are quoted, or none: the decline rule.
 *
 * Declining is the exception. The best sentences are quoted when they cover
 * the question well; otherwise the best passage's best one or two sentences
 * about the subject are, unless nothing retrieved bears on the question: a
 * weighty word of it is in no passage while the best sentence covers little
 * of it, or a follow-up's best sentence is not about what was asked before.
 * What the ranking already rules out (no subject word in any passage, a
 * sentence not stating the kind of value asked) is never quoted. A quote
 * carries the rest of its paragraph as far as it fits.
 */
import { normalizeText } from "../Search/TextNormalization"
import { type AnswerLanguage, detectLanguage } from "./Language"
import { type Line, quoteOf, withParagraph } from "./PassageLines"
import type { Ranking, Scored } from "./PassageSelection"
import { rootsOf } from "./QuestionAnalysis"
import { conditionMarks } from "./ValueStatements"

/**
 * The passages speak of something else when a word of the question in no passage carries this share of its
 * weight (or missing words this much together) and the best sentence covers less than `coveredWell`.
 */
const missingSubject = 0.2
const missingWords = 0.5
const coveredWell = 0.65
/**
 * Below these, with a word of the question weighing this much in no passage, the best sentences are not
 * quoted as several close answers but as the best passage's own (or none, above).
 */
const weakMatch = 0.5
const looseMatch = 0.6
const weightyMissing = 0.3
const weightyMissingTotal = 0.6
const aboutSection = 0.3
/** The least share of the question a sentence covers to be one of several quoted answers. */
const enough = 0.34
/** ...and one stating the value asked in the section or under the label the question names. */
const typedInSection = 0.25
/** A second sentence of the best passage is quoted when it scores this share of the best one. */
const secondShare = 0.7
/** Longest a quote grows with the rest of its paragraph. */
const paragraphQuote = 250

/** The best sentences when they cover enough of the question, with others close to them; else none. */
const strongQuotes = (ranking: Ranking, ranked: ReadonlyArray<Scored>): ReadonlyArray<Scored> => {
  const best = ranked[0]
  if (best === undefined) return []
  // A sentence stating the kind of value asked, about the subject, in the section or under the label the
  // question names, answers though it shares fewer of the question's words.
  if (
    ranking.typed && best.score < enough && best.score >= typedInSection &&
    (best.labelled || best.underMatch || best.sectionShare >= aboutSection)
  ) return distinct(ranked, best, ranking.conditional)
  if (best.score < enough) return []
  if (ranking.typed) return distinct(ranked, best, ranking.conditional)
  // A loose match while a weighty word of the question is in no passage, or outside a section about the
  // question: the best passage's own sentences answer, if any does.
  if (
    best.score < weakMatch &&
    (ranking.missingLargest >= weightyMissing || ranking.missingTotal >= weightyMissingTotal)
  ) return []
  if (
    best.score < looseMatch && best.sectionShare < aboutSection && !best.labelled &&
    ranking.missingLargest >= weightyMissing && (best.sectionShare === 0 || !best.coversKnown)
  ) return []
  return distinct(ranked, best)
}

/**
 * Nothing retrieved bears on the question, though a sentence mentions a word of its subject: a weighty word
 * of it is in no passage and the best sentence covers it loosely, or a follow-up's best sentence is not about
 * what was asked before it.
 */
const bearsOnNothing = (ranking: Ranking, best: Scored): boolean =>
  !best.continues ||
  ((ranking.missingLargest >= missingSubject || ranking.missingTotal >= missingWords) && best.score < coveredWell)

/** Sentences in the answer's language first, when the best of them covers enough. */
const inLanguageFirst = (ranked: ReadonlyArray<Scored>, language: AnswerLanguage) => {
  const inLanguage = ranked.filter((scored) => detectLanguage(scored.sentence) === language)
  return inLanguage.length > 0 && (inLanguage[0]?.score ?? 0) >= enough ? inLanguage : ranked
}

/**
 * The quotes answering the question: the best sentences when they cover it well, else the best passage's best
 * one or two; none when nothing retrieved bears on it.
 */
export const pickQuotes = (ranking: Ranking, language: AnswerLanguage): ReadonlyArray<Scored> => {
  const ranked = inLanguageFirst(ranking.ranked, language)
  const strong = strongQuotes(ranking, ranked)
  if (strong.length > 0) return strong
  const best = ranked[0]
  if (best === undefined || bearsOnNothing(ranking, best)) return []
  const second = ranked.find((scored) =>
    scored !== best && scored.passage === best.passage && scored.sentence !== best.sentence &&
    scored.score >= best.score * secondShare
  )
  return distinct(second === undefined ? [best] : [best, second], best, ranking.conditional, 0)
}

/**
 * The other case of a rule: the sentence after the quoted ones, in the same paragraph, that names a condition
 * too and shares a word with them ("Cancel early and we refund. Cancel later and we keep it."). A "what if"
 * question is answered by whichever case holds, which the customer judges.
 */
const otherCase = (lines: ReadonlyArray<Line>, took: ReadonlyArray<number>): number | undefined => {
  const last = Math.max(...took)
  const next = lines[last + 1]
  const current = lines[last]
  if (next === undefined || current === undefined || next.label || next.paragraph !== current.paragraph) {
    return undefined
  }
  const shared = rootsOf(next.text).filter((root) => rootsOf(current.text).includes(root)).length
  return conditionMarks.test(normalizeText(next.text)) && shared >= 2 ? last + 1 : undefined
}

/** The best sentences, at most three and close to the best one, each quoted once. */
const distinct = (
  ranked: ReadonlyArray<Scored>,
  best: Scored,
  conditional = false,
  floor = Math.min(best.score, Math.max(enough, best.score * 0.6))
): ReadonlyArray<Scored> => {
  const chosen: Array<Scored> = []
  const quoted = (scored: Scored) => quoteOf(scored.lines, scored.at)
  for (const candidate of ranked) {
    if (chosen.length === 3 || candidate.score < floor) break
    const twin = chosen.findIndex((taken) => taken.sentence === candidate.sentence)
    // The same sentence in two chunks (an overlap): the copy with the lines after it in its chunk.
    if (twin >= 0) {
      const kept = chosen[twin]
      if (kept !== undefined && quoted(kept).took.length === 1 && quoted(candidate).took.length > 1) {
        chosen[twin] = candidate
      }
      continue
    }
    chosen.push(candidate)
  }
  // The section's first sentence, where the answer to its heading usually starts, goes with a later one.
  const top = chosen[0]
  const opening = top?.underMatch && top.index > 0
    ? ranked.find((candidate) => candidate.passage === top.passage && candidate.index === 0)
    : undefined
  if (opening !== undefined && !chosen.includes(opening)) chosen.splice(Math.min(chosen.length, 2), 1, opening)
  // A quote that takes the lines around it makes a separate quote of one of them a repeat.
  const quotes: Array<Scored> = []
  const taken = new Set<string>()
  for (const scored of chosen) {
    const key = (at: number) => `${scored.passage.n}:${at}`
    if (taken.has(key(scored.at))) continue
    const quote = quoted(scored)
    const other = conditional ? otherCase(scored.lines, quote.took) : undefined
    const cased = other === undefined
      ? quote
      : { text: `${quote.text} ${scored.lines[other]?.text}`, took: [...quote.took, other] }
    const whole = withParagraph(scored.lines, cased, paragraphQuote, (at) => !taken.has(key(at)))
    whole.took.forEach((at) => taken.add(key(at)))
    quotes.push({ ...scored, sentence: whole.text })
  }
  return quotes
}
