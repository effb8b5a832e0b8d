/**
 * How well each sentence of the retrieved passages answers a question (see
 * QuoteChoice.ts for which are quoted, or none).
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
 * For a follow-up, the passage that best answered the question before it
 * ranks higher.
 */
import { isProductKind } from "../Search/Lexicon"
import { isNumberWord, isOrdinal } from "../Search/Numbers"
import { stem } from "../Search/Stemmer"
import { normalizeText, wordsOf } from "../Search/TextNormalization"
import { abbreviationsIn, spelledOut } from "./Abbreviations"
import type { Passage } from "./ChatModel"
import { type Line, linesOf, quoteOf, splitHeading } from "./PassageLines"
import { boundsPlace, generalizers, placeKinds, premises, speaksOfEveryPlace } from "./Places"
import { bareForm, contains, isVague, mentions, namedAsSaid, type Question, rootsOf } from "./QuestionAnalysis"
import { isRelativeDay, valuesOf } from "./StatedValues"
import { conditionMarks, countsInUnit, statesValue } from "./ValueStatements"
import { monthsIn, timesOfDayIn, weekdaysIn } from "./Weekdays"

/** Share of a term's weight a heading match earns, against a match in the sentence itself. */
const headingCredit = 0.6
/** ...and all of it under a heading that covers this much of the question: the section answers it. */
const matchingHeadingCredit = 1
const matchingHeading = 0.5
/** The first sentences under a matching heading are where an FAQ or manual answers it. */
const leadBonus = 0.04
/** A sentence that opens with the question's subject ("lintian - this is the package checker") defines it. */
const subjectBonus = 0.05
/** A follow-up of this few subject words of its own names only the thing it asks about ("and a wedding cake?"). */
const ellipticalWords = 2
/** A follow-up's sentence in the passage (or document) that answered the question before it. */
const sameSectionBonus = 0.2
const sameDocumentBonus = 0.1
/** Share of a sentence's own match (not its heading's) that counts again, to break ties a heading makes. */
const ownWordsBonus = 0.05
/** A sentence whose range holds the value the question states. */
const rangeBonus = 0.05
/** A sentence counting in the unit asked for ("12 monthly instalments" for "how many months"). */
const unitBonus = 0.06
/** A sentence naming a condition answers "what if …" more likely than one that does not. */
const conditionBonus = 0.03
/** A footnote ("[75] You do not need…") is a side remark. */
const footnotePenalty = 0.03
/** What a follow-up inherits from the question before it weighs this much of its own words. */
const contextWeight = 0.5


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
  /** For a follow-up, it is about the previous question's subject too (with its heading). */
  readonly continues: boolean
}

const nothing: Ranking = { ranked: [], typed: false, conditional: false, missingLargest: 0, missingTotal: 0 }

export interface Ranking {
  /** Sentences about the subject stating the kind of value asked, best first. */
  readonly ranked: ReadonlyArray<Scored>
  /** The question asks for a kind of value (a count, a duration, a price) that every ranked sentence states. */
  readonly typed: boolean
  /** The question asks what holds in a case ("what if …"). */
  readonly conditional: boolean
  /** Weight shares of the question's words found in no passage: the largest one and their sum. */
  readonly missingLargest: number
  readonly missingTotal: number
}

interface Term {
  readonly root: string
  readonly weight: number
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

/**
 * Ranks the passages' sentences for `asked`. For a follow-up, `previous` is the passage that answered the
 * question before it: the conversation is still about what it says, so its sentences rank higher.
 */
export const rankSentences = (
  asked: Question,
  passages: ReadonlyArray<Passage>,
  previous?: Passage
): Ranking => {
  const questionWords = new Set(wordsOf(asked.text))
  const abbreviations = abbreviationsIn(passages.map((passage) => passage.text))
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
        const general = speaksOfEveryPlace(quote) || (asked.places.length + asked.maybePlaces.length > 0 &&
          boundsPlace(quote))
        return {
          sentence: line.text,
          passage,
          roots: withJoined([
            ...rootsOf(
              `${line.context} ${quote} ${[...weekdaysIn(quote), ...monthsIn(quote), ...timesOfDayIn(quote)].join(" ")} ${
                spelledOut(quote, abbreviations)
              }`
            ),
            ...(general ? asked.places : [])
          ]),
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
  // answers for it, and it is no missing subject word. Where no sentence speaks of places at all, it is a word
  // like any other ("به تعداد نرسد", does not reach the number): the passages are not about places.
  const speaksOfPlaces = found.some((candidate) => candidate.general)
  const places = [
    ...asked.places,
    ...(speaksOfPlaces
      ? asked.maybePlaces.filter((root) => !mentions(held, root) && !generalizers.has(root) && !placeKinds.has(root))
      : [])
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
  // A number the question states ("£1,200", "هجده", "the fifth floor") is a value to compare, not a word a
  // passage must hold; words are joined first ("پنج شنبه" is a day, not a number).
  // So is a day named relative to now ("tomorrow", "فردا") that no passage names: it falls in a range of days.
  const own = joinParts(question.roots, everywhere).filter((root) =>
    !isNumberWord(root) && !isOrdinal(root) && !(isRelativeDay(root) && !mentions(everywhere, root))
  )
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
  // A word a follow-up inherits that no passage holds says nothing of this turn: the question before it was
  // answered, or not, without it.
  // A word naming no particular thing ("thing", "way", "کار") is no subject the passages lack.
  const missing = terms.filter((term, i) => i < own.length && !mentions(everywhere, term.root) && !isVague(term.root))
    .map((term) => term.weight / total)
  // The subject the answer must be about: the question's own subject words, else the inherited ones.
  const subjectWords = joinParts(question.subject, everywhere)
  const ownSubject = subjectWords.filter((root) => own.includes(root) && mentions(everywhere, root))
  // A follow-up whose own words are a pronoun and a verb ("how long can I use them?") is about what the
  // question before it named too; one naming a thing or a place of its own is about that.
  const inherited = subjectWords.filter((root) => !own.includes(root) && mentions(everywhere, root))
  const subject = ownSubject.length === 0
    ? subjectWords.filter((root) => mentions(everywhere, root))
    : question.leansBack && ownSubject.length === 1 && question.places.length === 0
    ? [...ownSubject, ...inherited]
    : ownSubject
  // Nothing bears on the question: no subject word in any passage, or not the thing it asks for.
  const focusMissing = question.focus !== undefined && own.includes(question.focus) &&
    !question.places.includes(question.focus) && !mentions(everywhere, question.focus)
  // A kind of goods the question names ("fridge", "gift card") that no passage names: the passages are about
  // other goods, however well the rest of the question matches. Named by its own word or a synonym: a card's
  // "this appliance" is one appliance, not every kind of it.
  const strangeThing = question.subject.some((root) =>
    own.includes(root) && !question.places.includes(root) && isProductKind(root) && !namedAsSaid(everywhere, root)
  )
  // A follow-up that only names a new thing ("and gift cards?", "شیرینی خشک چی؟") asks the previous question of
  // it: when no passage holds it, the passages do not cover it, however well they answered the question before
  // it. A short one is nothing but that thing: each of its words must be there.
  const ownNew = subjectWords.filter((root) =>
    own.includes(root) && !question.contextRoots.includes(root) && !places.includes(root) && !isVague(root)
  )
  const somewhere = (root: string) => mentions(everywhere, root)
  const newSubjectMissing = question.elliptical && ownNew.length > 0 &&
    (ownNew.length <= ellipticalWords ? !ownNew.every(somewhere) : !ownNew.some(somewhere))
  // A name the question writes ("with PayPal") that no passage holds: the passages speak of something else.
  const unknownName = question.names.some((name) => !mentions(everywhere, name))
  if (
    (question.subject.length > 0 && subject.length === 0) || focusMissing || strangeThing || newSubjectMissing ||
    unknownName
  ) {
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
  // A place the question names that no passage does is answered only by a sentence about every place, or
  // by one naming it by its kind: a city of the country by "داخلی" (inside it), a foreign one by "abroad".
  const unknownPlace = question.places.some((place) =>
    !candidates.some((candidate) => contains(rootsOf(`${candidate.sentence} ${candidate.passage.text}`), place))
  )
  // A sentence about every place stands for the place named, but is about the question only through another
  // subject word: "we deliver to every city" answers shipping to a city, not a shop in it.
  // A shop's premises are a place of their own: "a store in Leeds" is answered by naming Leeds, not by where
  // the shop delivers.
  const aboutSubject = subject.filter((root) => !question.places.includes(root))
  const aboutBeyondPremises = aboutSubject.filter((root) => !premises.has(root))
  // What a follow-up inherits as its subject: an answer to it is about that too ("and on Saturdays?").
  const contextSubject = question.subject.filter((root) => question.contextRoots.includes(root) && !own.includes(root))
  // A value the question states ("my chest is 100 cm") picks the row whose range holds it ("99 to 104 cm").
  const stated = valuesOf(question.text).map(([value]) => value)
  const ranked = candidates
    .filter((candidate) =>
      candidate.states &&
      (!unknownPlace || candidate.general ||
        question.places.every((place) => mentions([...candidate.roots, ...candidate.headingRoots], place))) &&
      (subject.length === 0 ||
        (aboutSubject.length === 0
          ? subject
          : candidate.general && question.places.length > 0
          ? aboutBeyondPremises
          : aboutSubject).some((root) => mentions([...candidate.roots, ...candidate.headingRoots], root)))
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
      // Between sentences a heading makes equal, the one that says it in its own words leads.
      const ownWords = ownWordsBonus *
        terms.reduce((sum, term) => sum + (mentions(candidate.roots, term.root) ? term.weight : 0), 0) / total
      const lead = underMatch && candidate.index < 2 ? leadBonus / (1 + candidate.index) : 0
      // A small nudge for passages retrieval ranked higher breaks ties between equal matches.
      const rank = 0.02 * (1 - (candidate.passage.n - 1) / Math.max(1, passages.length))
      const opens = terms.some((term) => mentions(candidate.first, term.root)) ? subjectBonus : 0
      const footnote = /^\[\d+\]/.test(candidate.sentence) ? footnotePenalty : 0
      const inRange = stated.length > 0 &&
          valuesOf(candidate.sentence).some(([low, high]) =>
            high > low && stated.some((value) => value >= low && value <= high)
          )
        ? rangeBonus
        : 0
      const continued = previous === undefined
        ? 0
        : candidate.passage.text === previous.text
        ? sameSectionBonus
        : candidate.passage.path === previous.path
        ? sameDocumentBonus
        : 0
      const inUnit = question.unit !== undefined && question.expected !== "any" &&
          countsInUnit(candidate.sentence, question.unit)
        ? unitBonus
        : 0
      const conditional = question.expected === "condition" && conditionMarks.test(normalizeText(candidate.sentence))
        ? conditionBonus
        : 0
      const continues = contextSubject.length === 0 ||
        contextSubject.some((root) => mentions([...candidate.roots, ...candidate.headingRoots], root))
      return {
        sentence: candidate.sentence,
        passage: candidate.passage,
        score: covered / total + lead + rank + opens + ownWords + conditional + continued + inRange + inUnit -
          footnote,
        order,
        index: candidate.index,
        underMatch,
        sectionShare: headingShare(candidate.sectionRoots),
        labelled: terms.some((term) => mentions(candidate.labelRoots, term.root)),
        coversKnown: known.every((term) => mentions(candidate.roots, term.root)),
        lines: candidate.lines,
        at: candidate.at,
        continues
      }
    })
    .filter((scored) => scored.score > 0.05)
    .sort((a, b) => b.score - a.score || a.order - b.order)
  return {
    ranked,
    typed: question.expected !== "any",
    conditional: question.expected === "condition",
    missingLargest: Math.max(0, ...missing),
    missingTotal: missing.reduce((sum, share) => sum + share, 0)
  }
}
