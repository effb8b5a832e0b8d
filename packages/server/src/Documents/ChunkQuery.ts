/**
 * A chat question as chunk retrieval reads it: its words in normal form
 * (the shared normaliser: Arabic letters, digits of any script and the
 * half-space fold away), which of them name the subject, each word's other
 * written forms (colloquial Persian endings dropped, a number in digits and
 * in words), its related words of the shop vocabulary in both languages and
 * the words the answerer's paraphrases state it with (Lexicon.ts).
 */
import { relatedWords } from "../Search/CrossLanguage"
import { paraphraseWords } from "../Search/Lexicon"
import { isNumberWord, parseNumber } from "../Search/Numbers"
import { questionStopWords, stopWords } from "../Search/StopWords"
import { normalizeText, wordsOf } from "../Search/TextNormalization"

/** Question words beyond this are ignored (a pasted paragraph is not a search). */
const maxWords = 16
/** Related words kept per query word: the vocabulary's lines are short, a word in many lines is vague. */
const maxRelated = 16
/** The fewest letters a colloquial form keeps once its ending is dropped. */
const minRootLetters = 3

export interface ChunkQueryWord {
  readonly word: string
  /** Names the subject; question words, fillers and stop words do not (unless the question has nothing else). */
  readonly counts: boolean
  /** The word written otherwise: without a colloquial ending, a number in the other notation. */
  readonly forms: ReadonlyArray<string>
  /** The shop vocabulary's words for the same thing, in either language. */
  readonly related: ReadonlyArray<string>
  /** What a passage may say instead ("relocating" → "move", "discount" → "save"), none of the above. */
  readonly paraphrases: ReadonlyArray<string>
}

/**
 * Endings spoken Persian attaches to a noun or verb, longest first: possessive clitics ("سفارشم",
 * "مغازتون"), plural with clitic ("جنساتون"), the object marker ("دستگاهو", "کتابرو") and the spoken
 * copula ("اصله", "کجاست"). Dropping one gives a form the document may use.
 */
const colloquialEndings = [
  "هاتون",
  "هاشون",
  "هامون",
  "اتون",
  "اشون",
  "امون",
  "تون",
  "شون",
  "مون",
  "هامو",
  "ها",
  "رو",
  "ات",
  "ام",
  "ست",
  "ه",
  "م",
  "ت",
  "ش",
  "و",
  "ی"
].map(normalizeText)

/**
 * Words that ask or fill in a typed question, beyond the shared list (StopWords.ts): Persian colloquial
 * ones, and what English contractions leave once split at the apostrophe ("don't" is "don" and "t").
 */
const fillers: ReadonlySet<string> = new Set(
  ("میخوام میخواهم میخواستم خواستم بپرسم بدونم بگین بگید چیکار چکار چطوریه چجوریه میشه نمیشه هستش هستین دارین " +
    "don doesn didn isn aren wasn won wouldn couldn shouldn ll ve re something anything myself yourself within into onto upon")
    .split(" ")
    .map(normalizeText)
)

/** Number words up to twelve, in English and Persian, by value: "3" also finds "three" and "سه". */
const numberWords: ReadonlyArray<ReadonlyArray<string>> = [
  [],
  ["one", "یک"],
  ["two", "دو"],
  ["three", "سه"],
  ["four", "چهار"],
  ["five", "پنج"],
  ["six", "شش"],
  ["seven", "هفت"],
  ["eight", "هشت"],
  ["nine", "نه"],
  ["ten", "ده"],
  ["eleven", "یازده"],
  ["twelve", "دوازده"]
]

const persianLetters = /^[\u0600-\u06FF]+$/u

/** Endings after which speech drops a word's final "ه" ("مغازتون" is "مغازه‌تان"). */
const afterSilentHeh = new Set(["تون", "شون", "مون", "م", "ت", "ش"].map(normalizeText))

/** The word without one colloquial ending, for each ending it has. */
const colloquialForms = (word: string): ReadonlyArray<string> =>
  persianLetters.test(word)
    ? colloquialEndings.flatMap((ending) => {
      const root = word.slice(0, -ending.length)
      if (!word.endsWith(ending) || [...root].length < minRootLetters) return []
      return afterSilentHeh.has(ending) && !root.endsWith("ه") ? [root, `${root}ه`] : [root]
    })
    : []

/** The number a word spells in the other notation: digits for a number word, words for digits. */
const numberForms = (word: string): ReadonlyArray<string> => {
  if (!isNumberWord(word)) return []
  const value = parseNumber(word)
  if (value === undefined) return []
  if (/^\d+$/.test(word)) return numberWords[value] ?? []
  return [String(value)]
}

const isQuestionWord = (word: string): boolean =>
  stopWords.has(word) || questionStopWords.has(word) || fillers.has(word)

/**
 * At most `maxWords` of a long query: subject words before question words, the latest ones when even those are
 * too many. A follow-up is searched after the previous question ("…\nand to Shiraz?"): its own words and the
 * previous question's subject stay, the previous question's filler goes first.
 */
const within = (words: ReadonlyArray<ChunkQueryWord>): ReadonlyArray<ChunkQueryWord> => {
  if (words.length <= maxWords) return words
  const subject = words.filter((word) => word.counts)
  if (subject.length >= maxWords) return subject.slice(-maxWords)
  let spare = maxWords - subject.length
  return words.filter((word) => word.counts || spare-- > 0)
}

/** The question's words in order, deduplicated, with their forms and related words. */
export const parseChunkQuery = (query: string): ReadonlyArray<ChunkQueryWord> => {
  const words = [...new Set(wordsOf(query))]
  const parsed = words.map((word) => {
    const forms = [...new Set([...colloquialForms(word), ...numberForms(word)])].filter((form) => form !== word)
    // A lone letter ("t" of "don't", "s" of "it's") names nothing; a lone digit may.
    const asks = isQuestionWord(word) || colloquialForms(word).some(isQuestionWord) || /^\p{L}$/u.test(word)
    const related = [...new Set([word, ...forms].flatMap(relatedWords))]
      .filter((other) => other !== word && !forms.includes(other))
      .slice(0, maxRelated)
    const paraphrases = [...new Set([word, ...forms].flatMap(paraphraseWords))]
      .filter((other) => other !== word && !forms.includes(other) && !related.includes(other))
      .slice(0, maxRelated)
    return { word, counts: !asks, forms, related, paraphrases }
  })
  return within(parsed.some((word) => word.counts) ? parsed : parsed.map((word) => ({ ...word, counts: true })))
}
