/**
 * Which sentences of the retrieved passages answer a question, or none.
 *
 * Sentences are ranked by the share of the question's weight they cover (a
 * word's weight is its rarity among the candidate sentences; a follow-up's
 * inherited words weigh half). A passage's heading counts for the sentences
 * under it, fully when it matches the question well (an FAQ's question
 * heading); a label line counts for the line under it. A sentence is a
 * candidate only when it states the kind of value asked (a number of the
 * unit counted, a duration, a price) and is about the question's subject
 * (one of its subject words, not only its frame: a passage on repair days
 * does not answer a question on shipping days). A sentence speaking of every
 * city, any province or all countries covers a place the question names.
 *
 * It declines when nothing qualifies, when the best match is weak while a
 * weighty word of the question is in no passage, or when the best match is
 * loose, outside a section about the question, with such a word missing.
 */
import { isProductKind } from "../Search/Lexicon"
import { readNumbers } from "../Search/Numbers"
import { stem } from "../Search/Stemmer"
import { wordsOf } from "../Search/TextNormalization"
import type { Passage } from "./ChatModel"
import { type AnswerLanguage, detectLanguage } from "./Language"
import { type Line, linesOf, quoteOf, splitHeading } from "./PassageLines"
import {
  addressWords,
  bareForm,
  contains,
  freeWords,
  mentions,
  moneyUnits,
  promptWords,
  type Question,
  rootsOf,
  sameWord,
  timeUnits,
  unitsOfMeasure
} from "./QuestionAnalysis"

/** Share of a term's weight a heading match earns, against a match in the sentence itself. */
const headingCredit = 0.6
/** ...and all of it under a heading that covers this much of the question: the section answers it. */
const matchingHeadingCredit = 1
const matchingHeading = 0.5
/** The first sentences under a matching heading are where an FAQ or manual answers it. */
const leadBonus = 0.04
/** A sentence that opens with the question's subject ("lintian - this is the package checker") defines it. */
const subjectBonus = 0.05
/** A footnote ("[75] You do not need…") is a side remark. */
const footnotePenalty = 0.03
/** What a follow-up inherits from the question before it weighs this much of its own words. */
const contextWeight = 0.5

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

/** Words so common that a sentence made of the question's words and these says nothing new. */
const fillers = new Set(
  wordsOf("a an the this these those that of to for in on at is are be it its و در به از را این آن که است")
)

/** A question of its own, or nothing but the words of the question or the heading: no answer. */
const restates = (sentence: string, question: ReadonlySet<string>, heading: ReadonlySet<string>) => {
  if (/[?؟]["”»)]?$/u.test(sentence)) return true
  const words = wordsOf(sentence).filter((word) => !fillers.has(word))
  return words.every((word) => question.has(word)) || words.every((word) => heading.has(word))
}

export interface Scored {
  readonly sentence: string
  readonly passage: Passage
  readonly score: number
  readonly order: number
  /** Position of the sentence among its passage body's quotable lines. */
  readonly index: number
  /** Under a heading that matches the question. */
  readonly underMatch: boolean
  /** Share of the question's weight its own section's title covers (the last heading of the path). */
  readonly sectionShare: number
  /** Its label names something the question asks about. */
  readonly labelled: boolean
  /** The sentence (with its label) holds every word of the question that some passage holds. */
  readonly coversKnown: boolean
  /** The passage body's lines and this sentence's place among them. */
  readonly lines: ReadonlyArray<Line>
  readonly at: number
}

const nothing: Ranking = { ranked: [], typed: false, missingLargest: 0, missingTotal: 0 }

interface Ranking {
  readonly ranked: ReadonlyArray<Scored>
  /** The question asks for a kind of value (a count, a duration, a price) that every ranked sentence states. */
  readonly typed: boolean
  /** Weight shares of the question's words found in no passage: the largest one and their sum. */
  readonly missingLargest: number
  readonly missingTotal: number
}

interface Term {
  readonly root: string
  readonly weight: number
}

/** Footnote marks, manual sections ("dpkg(1)") and section numbers ("5.9.5") are not quantities. */
const withoutReferences = (sentence: string) =>
  sentence.replace(/\[\d+\]|\(\d\w?\)|\b\d+(?:\.\d+){2,}\b|(?:Section|Chapter)\s+[\d.]+/gu, "")

/** "روز" and "روزه", "day" and "days": one stem the start of the other. */
const sameThing = (a: string, b: string) =>
  sameWord(a, b) || (Math.min(a.length, b.length) >= 3 && (a.startsWith(b) || b.startsWith(a)))

/** Words that say how often without a number. */
const frequencyWords = new Set(
  wordsOf("daily weekly monthly yearly annually regularly each every روزانه هفتگی ماهانه سالانه مرتب").map(stem)
)

/** The sentence states the kind of value the question asks for. */
const statesValue = (sentence: string, question: Question): boolean => {
  if (question.expected === "any") return true
  const { quantities, tokens } = readNumbers(withoutReferences(sentence))
  const roots = tokens.map(stem)
  const followedBy = (test: (root: string) => boolean) =>
    quantities.some((quantity) => roots.slice(quantity.end, quantity.end + 3).some(test))
  switch (question.expected) {
    case "duration":
      return followedBy((root) =>
        question.unit === undefined
          ? [...timeUnits].some((unit) => sameThing(root, unit))
          : sameThing(root, question.unit) || timeUnits.has(root)
      ) || roots.some((root) => promptWords.has(root))
    case "price":
      return followedBy((root) => moneyUnits.has(root)) || roots.some((root) => freeWords.has(root)) ||
        /[£$€¥]\s?\d|\d\s?[£$€¥]/u.test(sentence) ||
        quantities.some((quantity) => quantity.value >= 1000)
    case "measure": {
      // A number with a unit of the measure's kind ("3.2 kg", "1.5 litres", "۹۰ سانتیمتر"), also joined ("800W").
      const units = unitsOfMeasure(question.unit ?? "")
      return followedBy((root) => units.has(root)) ||
        tokens.some((token) => /^\d[\d.,]*\p{L}+$/u.test(token) && units.has(stem(token.replace(/^[\d.,]+/u, ""))))
    }
    case "address":
      return roots.some((root) => addressWords.has(root)) ||
        /\b\d+\s+\p{Lu}\p{Ll}+\s+(?:Street|Road|Avenue|Lane)\b/u.test(sentence)
    case "frequency":
      // "every month", "once a week", "ماهی یک بار" (read as "often"), "monthly", or a number of time units.
      return roots.some((root) => frequencyWords.has(root)) || rootsOf(sentence).includes("often") ||
        followedBy((root) => [...timeUnits].some((unit) => sameThing(root, unit)))
    case "count": {
      const unit = question.unit
      return unit === undefined ? quantities.length > 0 : followedBy((root) => sameThing(root, unit))
    }
  }
}

/** "every city", "all provinces", "هر شهری", "سراسر کشور": a statement about any place the question names. */
const generalizers = new Set(
  wordsOf(
    "every all any other across throughout nationwide anywhere everywhere outside هر همه همهی تمام تمامی سایر کل سراسر خارج"
  )
)
const placeKinds = new Set(
  wordsOf(
    "city cities town towns province provinces country countries region regions area areas address addresses postcode postcodes kingdom state states شهر شهرها شهرستان شهرستانها استان استانها کشور منطقه مناطق نقاط نقطه"
  )
    .map(stem)
)
const speaksOfEveryPlace = (sentence: string): boolean => {
  const words = wordsOf(sentence)
  return words.some((word, i) =>
    generalizers.has(word) && words.slice(i + 1, i + 4).some((next) => placeKinds.has(stem(next)))
  ) ||
    words.some((word) =>
      ["nationwide", "worldwide", "abroad", "overseas", "international", "internationally"].includes(word)
    ) ||
    words.some((word, i) => word === "سراسر" && words[i + 1] === "کشور")
}

const persian = /[\u0600-\u06FF]/u

/**
 * A Persian compound is written with a half-space, a space or nothing ("رنگ‌آمیزی", "رنگ آمیزی",
 * "رنگامیزی"): the normal form joins the first and splits the second, so adjacent words also count joined.
 */
const withJoined = (roots: ReadonlyArray<string>): ReadonlyArray<string> => [
  ...roots,
  ...roots.slice(1).flatMap((root, i) => {
    const before = roots[i] ?? ""
    return persian.test(root) && persian.test(before) ? [stem(`${before}${root}`)] : []
  })
]

/** The question's words, two adjacent ones joined where the passages hold them joined and not apart. */
const joinParts = (roots: ReadonlyArray<string>, everywhere: ReadonlyArray<string>): ReadonlyArray<string> => {
  const out: Array<string> = []
  for (let i = 0; i < roots.length; i++) {
    const root = roots[i] ?? ""
    const next = roots[i + 1]
    const joined = next === undefined ? undefined : stem(`${root}${next}`)
    if (
      joined !== undefined && next !== undefined && persian.test(joined) && contains(everywhere, joined) &&
      !(contains(everywhere, root) && contains(everywhere, next))
    ) {
      out.push(joined)
      i++
    } else out.push(root)
  }
  return [...new Set(out)]
}

export const rankSentences = (asked: Question, passages: ReadonlyArray<Passage>): Ranking => {
  const questionWords = new Set(wordsOf(asked.text))
  const found = passages.flatMap((passage) => {
    const { body, heading } = splitHeading(passage.text)
    const headingRoots = rootsOf(heading)
    const sectionRoots = rootsOf(heading.split(" › ").pop() ?? "")
    const headingWords = new Set(wordsOf(heading))
    const lines = linesOf(body)
    return lines
      .map((line, at) => ({ line, at }))
      .filter(({ line }) => !line.label && !restates(line.text, questionWords, headingWords))
      .map(({ at, line }, index) => {
        // The sentence before one that points back, which is quoted with it, counts with it.
        const quote = quoteOf(lines, at).text
        const general = speaksOfEveryPlace(quote)
        return {
          sentence: line.text,
          passage,
          roots: withJoined([...rootsOf(`${line.context} ${quote}`), ...(general ? asked.places : [])]),
          labelRoots: rootsOf(line.context),
          first: rootsOf(line.text).slice(0, 1),
          headingRoots,
          sectionRoots,
          index,
          lines,
          at,
          general,
          states: statesValue(quote, asked)
        }
      })
  })
  if (found.length === 0 || asked.roots.length === 0) return nothing
  const held = found.flatMap((candidate) => [...candidate.roots, ...candidate.headingRoots])
  // A word after "به"/"در" that no passage holds is a place ("به زاهدان"): only a sentence about every place
  // answers for it, and it is no missing subject word.
  const places = [
    ...asked.places,
    ...asked.maybePlaces.filter((root) => !mentions(held, root) && !generalizers.has(root) && !placeKinds.has(root))
  ]
  const candidates = found.map((candidate) =>
    candidate.general ? { ...candidate, roots: [...candidate.roots, ...places] } : candidate
  )
  const everywhere = candidates.flatMap((candidate) => [...candidate.roots, ...candidate.headingRoots])
  const bare = (roots: ReadonlyArray<string>) => roots.map((root) => bareForm(root, everywhere))
  const question: Question = {
    ...asked,
    roots: bare(asked.roots),
    contextRoots: bare(asked.contextRoots),
    subject: bare(asked.subject),
    places
  }
  const own = joinParts(question.roots, everywhere)
  const rarity = (root: string) => {
    const df = candidates.filter((candidate) => mentions(candidate.roots, root)).length
    return Math.log(1 + candidates.length / (1 + df)) + 0.1
  }
  const terms: ReadonlyArray<Term> = [
    ...own.map((root) => ({ root, weight: rarity(root) })),
    ...[...new Set(question.contextRoots)].map((root) => ({ root, weight: rarity(root) * contextWeight }))
  ]
  const total = terms.reduce((sum, term) => sum + term.weight, 0)
  const known = terms.filter((term) => mentions(everywhere, term.root))
  const missing = terms.filter((term) => !mentions(everywhere, term.root)).map((term) => term.weight / total)
  // The subject the answer must be about: the question's own subject words, else the inherited ones.
  const subjectWords = joinParts(question.subject, everywhere)
  const ownSubject = subjectWords.filter((root) => own.includes(root) && mentions(everywhere, root))
  const subject = ownSubject.length > 0 ? ownSubject : subjectWords.filter((root) => mentions(everywhere, root))
  // Nothing bears on the question: no subject word in any passage, or not the thing it asks for.
  const focusMissing = question.focus !== undefined && own.includes(question.focus) &&
    !question.places.includes(question.focus) && !mentions(everywhere, question.focus)
  // A kind of goods the question names ("fridge", "gift card") that no passage names: the passages are about
  // other goods, however well the rest of the question matches.
  const strangeThing = question.subject.some((root) =>
    own.includes(root) && !question.places.includes(root) && isProductKind(root) && !mentions(everywhere, root)
  )
  if ((question.subject.length > 0 && subject.length === 0) || focusMissing || strangeThing) {
    return { ...nothing, missingLargest: 1, missingTotal: 1 }
  }
  const headingMatch = new Map<ReadonlyArray<string>, number>()
  const headingShare = (roots: ReadonlyArray<string>) => {
    const cached = headingMatch.get(roots)
    if (cached !== undefined) return cached
    const share = terms.reduce((sum, term) => sum + (mentions(roots, term.root) ? term.weight : 0), 0) / total
    headingMatch.set(roots, share)
    return share
  }
  // A place the question names that no passage does is answered only by a sentence about every place.
  const unknownPlace = question.places.some((place) =>
    !candidates.some((candidate) => contains(rootsOf(`${candidate.sentence} ${candidate.passage.text}`), place))
  )
  // A sentence about every place stands for the place named, but is about the question only through another
  // subject word: "we deliver to every city" answers shipping to a city, not a shop in it.
  const aboutSubject = subject.filter((root) => !question.places.includes(root))
  const ranked = candidates
    .filter((candidate) =>
      candidate.states && (!unknownPlace || candidate.general) &&
      (subject.length === 0 ||
        (aboutSubject.length > 0 ? aboutSubject : subject).some((root) =>
          mentions([...candidate.roots, ...candidate.headingRoots], root)
        ))
    )
    .map((candidate, order): Scored => {
      const underMatch = headingShare(candidate.headingRoots) >= matchingHeading
      const credit = underMatch ? matchingHeadingCredit : headingCredit
      const covered = terms.reduce(
        (sum, term) =>
          sum + (mentions(candidate.roots, term.root)
            ? term.weight
            : mentions(candidate.headingRoots, term.root)
            ? term.weight * credit
            : 0),
        0
      )
      const lead = underMatch && candidate.index < 2 ? leadBonus / (1 + candidate.index) : 0
      // A small nudge for passages retrieval ranked higher breaks ties between equal matches.
      const rank = 0.02 * (1 - (candidate.passage.n - 1) / Math.max(1, passages.length))
      const opens = terms.some((term) => mentions(candidate.first, term.root)) ? subjectBonus : 0
      const footnote = /^\[\d+\]/.test(candidate.sentence) ? footnotePenalty : 0
      return {
        sentence: candidate.sentence,
        passage: candidate.passage,
        score: covered / total + lead + rank + opens - footnote,
        order,
        index: candidate.index,
        underMatch,
        sectionShare: headingShare(candidate.sectionRoots),
        labelled: terms.some((term) => mentions(candidate.labelRoots, term.root)),
        coversKnown: known.every((term) => mentions(candidate.roots, term.root)),
        lines: candidate.lines,
        at: candidate.at
      }
    })
    .filter((scored) => scored.score > 0.05)
    .sort((a, b) => b.score - a.score || a.order - b.order)
  return {
    ranked,
    typed: question.expected !== "any",
    missingLargest: Math.max(0, ...missing),
    missingTotal: missing.reduce((sum, share) => sum + share, 0)
  }
}

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
  ) return distinct(ranked, typedBest)
  const best = ranked[0]
  if (best === undefined || best.score < enough) return []
  // A sentence stating the very kind of value asked, about its subject, answers though other words differ
  // ("reaches" for "delivery"); otherwise a weighty word in no passage says the passages speak of something else.
  if (ranking.typed) return distinct(ranked, best)
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

/** The best sentences, at most three and close to the best one, each quoted once. */
const distinct = (ranked: ReadonlyArray<Scored>, best: Scored): ReadonlyArray<Scored> => {
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
    quote.took.forEach((at) => taken.add(key(at)))
    quotes.push({ ...scored, sentence: quote.text })
  }
  return quotes
}
