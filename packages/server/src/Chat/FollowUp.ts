/**
 * Follow-up questions ("And to another province?", "what about returns?",
 * "و برای شهرهای دیگر؟"): read together with the user's question before
 * them. Retrieval searches both; the answerer gets the previous question as
 * context (its words weigh less than the follow-up's own); a provider also
 * gets the conversation's history.
 */
import { withoutEnclitic } from "../Search/Stemmer"
import { wordsOf } from "../Search/TextNormalization"
import type { HistoryMessage } from "./History"
import { pointsBack, rootsOf } from "./QuestionAnalysis"

/**
 * Openings that only link to the previous question ("and", "what about", "پس"): what follows is the
 * follow-up's own question.
 */
const linkWords =
  "and|but|also|so|then|what about|how about|and what about|same for|is (?:it|that|this) the same for|in that case|if so|if not|otherwise|و|ولی|اما|پس|همچنین|در مورد|درباره|راجع به|چطور برای|همین|در اون صورت|در این صورت|وگرنه"
const links = new RegExp(`^\\s*(?:${linkWords})(?=[\\s,،.?؟]|$)[\\s,،]*`, "iu")
/** Openings that continue the previous question rather than start a new one: links and "what if", "برای …". */
const continues = new RegExp(
  `^\\s*(?:${linkWords}|what if|برای|اون|آن|واسه|برا)(?=[\\s,،.?؟]|$)`,
  "iu"
)
/**
 * Endings that ask the previous question again of something else: "… too?", "… instead?", and the colloquial
 * Persian "X چی؟", "X چطور؟", "X همینطور؟", "… هم همینطوره؟" (and X?), "X هم؟" (X too?).
 */
const asksAgain =
  /(?:\b(?:too|as well|instead|either)|(?:^|\s)(?:چی|چطور|چطوره|چطوریه|چطوری|چه‌طور|همینطور|همینطوری|همینطوره|همینطوریه|هم همینطور|هم))\s*[?؟.!]*\s*$/iu
/**
 * Words that presuppose something said before: "come back another day" (after a first visit), "again", "بازم"
 * (still, again), "دوباره".
 */
const presupposes = /\b(?:again|another)\b|(?:^|\s)(?:بازم|باز هم|دوباره)(?=[\s,،.?؟]|$)/iu
/** A question of this few content words needs the one before it to mean anything. */
const fewWords = 2

export interface Resolved {
  /**
   * What retrieval searches: the previous question and this one for a follow-up, else this one, with the
   * colloquial Persian words also without their endings ("سفارشمو" is searched as "سفارش" too).
   */
  readonly query: string
  /** The previous question, when this one follows up on it. */
  readonly previousQuestion: string | undefined
}

/**
 * A follow-up without its opening ("and", "what about", "پس", "و") and asking-again ending ("too", "چی"): what
 * it asks of its own. "پس آنلاین چی؟" is about "آنلاین"; the rest comes from the previous question.
 */
export const ownPart = (question: string): string => {
  const own = question.replace(links, "").replace(asksAgain, "").trim()
  return own.length > 0 ? own : question
}

/** Whether `question` follows up on `previous`. */
export const isFollowUp = (question: string, previous: string): boolean =>
  previous.trim().length > 0 &&
  (continues.test(question) || asksAgain.test(question) || pointsBack.test(question) || presupposes.test(question) ||
    rootsOf(question).length <= fewWords)

/** Longest query retrieval is given; a longer message is searched by its start. */
const maxQueryChars = 2000

/** The query with its Persian words' colloquial endings off as further words: search finds "سفارش" too. */
const withColloquialBases = (query: string): string => {
  const bases = wordsOf(query).flatMap((word) => withoutEnclitic(word) ?? [])
  return (bases.length === 0 ? query : `${query}\n${bases.join(" ")}`).slice(0, maxQueryChars)
}

/**
 * `question` resolved against `previous`, the user's message before it (if any): the one place that builds
 * what a turn's retrieval searches, for chat and for its evaluation alike.
 */
export const resolveAfter = (question: string, previous: string | undefined): Resolved => {
  const before = previous?.slice(0, 500)
  return before !== undefined && isFollowUp(question, before)
    ? { query: withColloquialBases(`${before}\n${question}`), previousQuestion: before }
    : { query: withColloquialBases(question), previousQuestion: undefined }
}

/** The question resolved against the user's last message in `history` (oldest first). */
export const resolveFollowUp = (question: string, history: ReadonlyArray<HistoryMessage>): Resolved =>
  resolveAfter(question, [...history].reverse().find((message) => message.role === "user")?.content)
