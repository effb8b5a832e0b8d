/**
 * Which of the ranked sentences are quoted, or none: the decline rules.
 *
 * It declines when no sentence qualifies, when the best match covers too
 * little of the question, when it is weak while a weighty word of the
 * question is in no passage, or loose, outside a section about the question,
 * with such a word missing. A question asking for a kind of value is answered
 * by the best sentence stating it about its subject.
 */
import { normalizeText } from "../Search/TextNormalization"
import { type AnswerLanguage, detectLanguage } from "./Language"
import { type Line, quoteOf } from "./PassageLines"
import type { Ranking, Scored } from "./PassageSelection"
import { rootsOf } from "./QuestionAnalysis"
import { conditionMarks } from "./ValueStatements"

/**
 * A best match this weak is no answer when the question's own subject is
 * nowhere in the passages: one missing word carrying this share of the
 * question's weight, or missing words carrying this much together.
 */
const weakMatch = 0.5
const missingSubject = 0.3
const missingWords = 0.6
/** Below this, a missing weighty word declines unless the sentence's heading or label matches the question. */
const looseMatch = 0.6
const aboutSection = 0.3
/** The least share of the question a quoted sentence covers. */
const enough = 0.34
/** ...and one stating the value asked in the section or under the label the question names. */
const typedInSection = 0.25

/**
 * Best sentences: enough of the question covered, close to the best one, at
 * most three, no repeats; in the answer's language when any of those is.
 */
export const pickQuotes = (ranking: Ranking, language: AnswerLanguage): ReadonlyArray<Scored> => {
  const inLanguage = ranking.ranked.filter((scored) => detectLanguage(scored.sentence) === language)
  const ranked = inLanguage.length > 0 && (inLanguage[0]?.score ?? 0) >= enough ? inLanguage : ranking.ranked
  const typedBest = ranking.typed ? ranked[0] : undefined
  // A sentence stating the kind of value asked, about the subject, in the section or under the label the
  // question names, answers though it shares fewer of the question's words.
  if (
    typedBest !== undefined && typedBest.score < enough && typedBest.score >= typedInSection &&
    (typedBest.labelled || typedBest.underMatch || typedBest.sectionShare >= aboutSection)
  ) return distinct(ranked, typedBest, ranking.conditional)
  const best = ranked[0]
  if (best === undefined || best.score < enough) return []
  // A sentence stating the very kind of value asked, about its subject, answers though other words differ
  // ("reaches" for "delivery"); otherwise a weighty word in no passage says the passages speak of something else.
  if (ranking.typed) return distinct(ranked, best, ranking.conditional)
  if (best.score < weakMatch && (ranking.missingLargest >= missingSubject || ranking.missingTotal >= missingWords)) {
    return []
  }
  // A loose match while a weighty word of the question is in no passage, and the best sentence's section is about
  // none of the question, or the sentence holds only part of what the passages know of it: they speak of something
  // else.
  if (
    best.score < looseMatch && best.sectionShare < aboutSection && !best.labelled &&
    ranking.missingLargest >= missingSubject && (best.sectionShare === 0 || !best.coversKnown)
  ) return []
  return distinct(ranked, best)
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
const distinct = (ranked: ReadonlyArray<Scored>, best: Scored, conditional = false): ReadonlyArray<Scored> => {
  const chosen: Array<Scored> = []
  const quoted = (scored: Scored) => quoteOf(scored.lines, scored.at)
  for (const candidate of ranked) {
    if (chosen.length === 3 || candidate.score < Math.min(best.score, Math.max(enough, best.score * 0.6))) break
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
    const took = other === undefined ? quote.took : [...quote.took, other]
    took.forEach((at) => taken.add(key(at)))
    quotes.push({ ...scored, sentence: other === undefined ? quote.text : `${quote.text} ${scored.lines[other]?.text}` })
  }
  return quotes
}
