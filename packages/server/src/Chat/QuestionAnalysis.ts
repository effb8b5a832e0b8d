/**
 * What the offline answerer reads in a question: its words as stems (stop
 * words out, synonyms of the shared lexicon in), the kind of value it asks
 * for (AskedValue.ts), what it counts ("days" in "how many days"), which of
 * its words are its subject rather than the frame of the value ("days",
 * "take", "long"), which name a place, and, for a follow-up, the words of the
 * question before it.
 */
import { broaderOf, rewritePhrases, synonymsOf } from "../Search/Lexicon"
import { isNumberWord, isOrdinal } from "../Search/Numbers"
import { colloquialBases, stem, withoutEnclitic } from "../Search/Stemmer"
import { questionStopWords } from "../Search/StopWords"
import { normalizeText, wordsOf } from "../Search/TextNormalization"
import { askingWords, type Expected, expectedOf, frameWords, stems, timeUnits } from "./AskedValue"
import { abroadWords, domesticWords, foreignPlaces } from "./Places"
import { persianLetters, sameWord } from "./SameWord"

export interface Question {
  readonly text: string
  /** Stems of the question's own words. */
  readonly roots: ReadonlyArray<string>
  /** Stems of the previous question's words, for a follow-up; they weigh less. */
  readonly contextRoots: ReadonlyArray<string>
  readonly expected: Expected
  /** The stem of what a count or duration counts ("روز" in "چند روز"), when named; a measure's kind. */
  readonly unit: string | undefined
  /** Roots that are the subject: not the value's frame ("day", "take", "long", "cost"). */
  readonly subject: ReadonlyArray<string>
  /** Roots naming a place (a known city, a capitalised name after "to"/"in"). */
  readonly places: ReadonlyArray<string>
  /** The thing asked for, the word after "what"/"which"/"چه"/"کدام" ("port" in "which port…"), when named. */
  readonly focus: string | undefined
  /** Persian words after "به"/"در" ("به زاهدان"): a place when no passage names them. */
  readonly maybePlaces: ReadonlyArray<string>
  /** Names the question writes with a capital inside a sentence ("PayPal", "Bitcoin"): not places or days. */
  readonly names: ReadonlyArray<string>
  /** A follow-up asking no kind of value of its own ("and macarons?"): it names only the new thing. */
  readonly elliptical: boolean
  /** A follow-up leaning on a pronoun ("how long can I use them?"): it is about the previous subject too. */
  readonly leansBack: boolean
  /** A follow-up stating a case ("and if it was on sale?", "اگه حراجی باشه چی؟"): it asks what holds in it. */
  readonly statesCase: boolean
}

/**
 * Persian light verbs: in a compound verb ("ضربه خوردن", "تماس گرفتن", "گارانتی داشتن") the meaning is the
 * noun's, and a document says the same with another verb ("شامل … می‌شود"), so the verb is not a word to match.
 */
const lightVerbStems = ["خورد", "کرد", "شد", "داد", "زد", "گرفت", "داشت", "امد", "اورد", "گذاشت", "نمود"]
/**
 * ...and the modal verbs of wanting and being able ("بخوام", "بتونم"), which frame a question as "want" and
 * "can" do in English.
 */
const modalStems = ["خواست", "توانست"]
/** ...with their infinitives ("تموم شدن", "نصب کردن"). */
const lightVerbs = new Set([...lightVerbStems, ...modalStems, ...lightVerbStems.map((verb) => `${verb}ن`)])

/**
 * A light verb or "to be" in its present tense, as typed ("بدم", "کنین", "بیارم", "نباشه", "میدین"): an optional
 * prefix (می, نمی, ب, ن), a present stem and a personal ending. Without a prefix only the stems no noun
 * shares count ("کنم", "داری", "شه"); "come" only as "میام" or "بیام" ("نام" is a name), and "go" only as
 * "میرم" or "برم" ("نرم" is soft).
 */
const lightPresent = new RegExp(
  "^(?:(?:نمی|می|ب|ن)(?:کن|د|ده|گیر|دار|یا|یار|اور|ش|شو|خور|ذار|گذار|باش)|(?:نمی|می)ا|(?:نمی|می|ب)ر|کن|دار|گیر|ش|شو|باش)" +
    "(?:م|ی|ه|یم|ین|ید|ن|ند)$",
  "u"
)

/** Words of a text as stems, without stop words, single letters or light verbs; phrases read as their word. */
export const rootsOf = (text: string): ReadonlyArray<string> =>
  wordsOf(rewritePhrases(normalizeText(text)))
    .filter((word) => word.length > 1 && !questionStopWords.has(word) && !lightPresent.test(word))
    .map(stem).filter((root) => !lightVerbs.has(root))

/**
 * A Persian question word as the passages hold it, when they hold it only without its colloquial endings
 * ("گوشیم" for "گوشی", "کتابامو" for "کتاب").
 */
export const bareForm = (root: string, everywhere: ReadonlyArray<string>): string => {
  if (mentions(everywhere, root)) return root
  return [...colloquialBases(root), ...shortBase(root), ...perUnitBase(root)].flatMap((
    bare
  ) => [bare, stem(bare), `${bare}ه`, `${bare}ی`])
    .find((candidate) => candidate.length >= 2 && mentions(everywhere, candidate)) ?? root
}

/**
 * A short Persian noun with the "ی" of "per" or "a" ("ساعتی" hourly, "روزی" a day), which
 * the stemmer keeps on short words: the noun, when the passages hold it and not the word as asked.
 */
const perUnitBase = (root: string): ReadonlyArray<string> =>
  persianLetters.test(root) && root.length >= 4 && root.endsWith("ی") ? [root.slice(0, -1)] : []

/**
 * A two-letter Persian noun under a possessive ending ("جامو" my place, "فنش" its fan): too short for the
 * shared colloquial bases, which search uses too, so only a word the passages hold exactly is taken for it.
 */
const shortBase = (root: string): ReadonlyArray<string> => {
  const bare = root.replace(/(?:مو|تو|شو|م|ت|ش)$/u, "")
  return persianLetters.test(root) && bare !== root && bare.length === 2 ? [bare] : []
}

export const contains = (roots: ReadonlyArray<string>, root: string): boolean =>
  roots.some((candidate) => sameWord(candidate, root))

/**
 * The root or one of its synonyms is among `roots`, a foreign country or city also by a word for abroad
 * ("ایتالیا" by "سفرهای خارج از کشور"), a city of the country by a word for inside it ("کیش" by
 * "تورهای داخلی"). A word that only asks for the kind of value ("time",
 * "وقت", "cost") is matched by itself: its synonyms name that kind anywhere ("زمان تحویل" for a question on
 * the time to return), and the value itself is what answers it.
 */
export const namedAsSaid = (roots: ReadonlyArray<string>, root: string): boolean =>
  askingWords.has(root)
    ? contains(roots, root)
    : [
      ...synonymsOf(root),
      ...(isForeign(root) ? abroadWords : []),
      ...(knownPlaces.has(root) ? domesticWords : [])
    ].some((alternative) => contains(roots, alternative))

/**
 * `namedAsSaid`, or a thing the root names is among `roots` by its kind ("coat" for "parka",
 * `broaderOf`): a rule about the kind holds for the thing. A kind counts only as its own stem, not as a
 * word it begins ("storehouse" is no "store").
 */
export const mentions = (roots: ReadonlyArray<string>, root: string): boolean =>
  namedAsSaid(roots, root) || broaderOf(root).some((kind) => roots.includes(kind))

/** A foreign country or city, also with a colloquial ending ("پاریسو"). */
const isForeign = (root: string): boolean =>
  foreignPlaces.has(root) || colloquialBases(root).some((base) => foreignPlaces.has(stem(base)))

/** A follow-up's opening that states a case: "if …", "when …", "اگه …", "در صورتی که …". */
const caseOpening = /^(?:(?:and|but|so|what about) )?(?:if|when|اگه|اگر|وقتی|در صورتی که)(?=\s)/u

/** Cities and provinces a shop's customers name most, in both languages (normal form). */
const knownPlaces = stems(
  "tehran mashhad isfahan esfahan shiraz tabriz karaj ahvaz qom kermanshah urmia rasht kerman yazd ardabil " +
    "bandar abbas arak zanjan sanandaj qazvin khorramabad gorgan sari kish qeshm hamadan " +
    "تهران مشهد اصفهان شیراز تبریز کرج اهواز قم کرمانشاه ارومیه رشت کرمان یزد اردبیل بندرعباس اراک زنجان " +
    "سنندج قزوین خرمآباد گرگان ساری کیش قشم همدان بوشهر"
)

/** A capitalised word after "to"/"in"/"from" ("ship to Shiraz"), or a word after "به"/"در" missing elsewhere. */
const placesOf = (text: string): ReadonlyArray<string> => {
  const found = new Set<string>()
  for (const word of wordsOf(text)) {
    // "من تهرانم", "کرجم": a city with a personal ending.
    const bare = [word, word.replace(/(?:یم|م|ی|ه)$/u, "")].map(stem).find((root) => knownPlaces.has(root))
    if (bare !== undefined) found.add(bare)
  }
  for (const match of text.matchAll(/\b(?:to|in|from|near)\s+([A-Z][a-z]{2,})/gu)) {
    const name = match[1]
    if (name !== undefined) found.add(stem(name.toLowerCase()))
  }
  return [...found]
}

/** Pronouns standing for something named before, with the colloquial object forms ("اینو" this, "اونو" that). */
export const pointsBack =
  /\b(?:it|its|that|this|they|them|those|these|one)\b|(?:^|\s)(?:اون|آن|اینها|آنها|همون|همان|اونا|اینو|اونو|همینو|همونو)(?=[\s,،.?؟]|$)/iu

/** Days and months: written with a capital, but no name of a thing. */
const calendarWords = stems(
  "monday mondays tuesday tuesdays wednesday wednesdays thursday thursdays friday fridays saturday saturdays " +
    "sunday sundays january february march april may june july august september october november december"
)

/**
 * Words written with a capital inside an English sentence ("pay with PayPal"): names of a thing, a brand or a
 * service, which a passage must name to answer. A place after "to"/"in"/"from"/"near" and a day are not.
 */
const namesOf = (text: string): ReadonlyArray<string> => {
  const places = new Set(placesOf(text))
  const found = new Set<string>()
  for (const match of text.matchAll(/(?<=[\p{L}\d,;]\s+)(\p{Lu}[\p{L}\d]+)/gu)) {
    const word = match[1] ?? ""
    const before = text.slice(0, match.index).trimEnd()
    if (/\b(?:to|in|from|near|the)$/iu.test(before) || word === "I") continue
    const root = stem(normalizeText(word))
    if (!places.has(root) && !calendarWords.has(root)) found.add(root)
  }
  return [...found]
}

/**
 * Names a follow-up writes with a capital ("What about Leeds?", "And Manchester?") after a question naming a place:
 * it asks the same of another place.
 */
const placesAskedAgain = (text: string, previous: string | undefined): ReadonlyArray<string> =>
  previous === undefined || placesOf(previous).length === 0 ? [] : [
    ...new Set(
      [...text.matchAll(/(?<![\p{L}'])(\p{Lu}\p{Ll}{2,})(?![\p{L}'])/gu)].map((match) =>
        stem(normalizeText(match[1] ?? ""))
      ).filter((root) => !calendarWords.has(root))
    )
  ]

/** A request's opening verb ("Name…", "List…"): it says how to answer, not what about. */
const imperative = /^\s*(?:please\s+)?(?:name|list|give|show|tell|describe|explain|mention)\b/iu

/** Words that name no particular thing: "what to do" is "چه کار کنم". */
const vagueThings = stems("thing things way kind type sort happen happens کار چیز جور نوع طور")
export const isVague = (root: string): boolean => vagueThings.has(root)

/** The word after "what"/"which"/"چه"/"کدام", unless a stop or frame word ("what time", "چه مدت"). */
const focusOf = (text: string): string | undefined => {
  const words = wordsOf(text)
  const at = words.findIndex((word) => ["what", "which", "چه", "کدام", "کدوم"].includes(word))
  const next = at < 0 ? undefined : words[at + 1]
  // "what's" is "what" and a contraction's letter, not a thing.
  if (next === undefined || next.length < 2 || questionStopWords.has(next)) return undefined
  const root = stem(next)
  return frameWords.has(root) || vagueThings.has(root) ? undefined : root
}

/** "کرجم" (I am in Karaj), "تهرانی": a known city with a personal ending is the city. */
const asPlace = (root: string): string =>
  knownPlaces.has(root)
    ? root
    : [root.replace(/(?:یم|م|ی|ه)$/u, "")].map(stem).find((bare) => knownPlaces.has(bare)) ?? root

const questionRoots = (text: string) => rootsOf(text).map(asPlace)

/** "ماهه", "روزه": the unit a question counts in, with the colloquial "is" ending. */
const isUnitForm = (root: string, unit: string | undefined) =>
  unit !== undefined && timeUnits.has(unit) && root !== unit && stem(root.replace(/[هی]$/u, "")) === unit

/** Spoken forms of the asking words, read as written: "چقد" is "چقدر", "چن" is "چند". */
const spokenAsking: ReadonlyArray<readonly [RegExp, string]> = [
  [/(^|[^\p{L}])چقد(?=[^\p{L}]|$)/gu, "$1چقدر"],
  [/(^|[^\p{L}])چن(?=[^\p{L}]|$)/gu, "$1چند"]
]
const writtenAsking = (text: string): string =>
  spokenAsking.reduce((out, [pattern, written]) => out.replace(pattern, written), text)

export const analyzeQuestion = (spoken: string, previousSpoken?: string): Question => {
  const text = writtenAsking(spoken)
  const previous = previousSpoken === undefined ? undefined : writtenAsking(previousSpoken)
  const own = questionRoots(text.replace(imperative, ""))
  // A follow-up naming a place of its own ("and to Spain?", "تبریز چطور؟") asks of it instead of the previous one's.
  const askedAgain = placesAskedAgain(text, previous).filter((place) => own.includes(place))
  const ownPlace = own.some(isForeign) || [...placesOf(text), ...askedAgain].some((place) => own.includes(place))
  const context = previous === undefined ?
    [] :
    questionRoots(previous).filter((root) =>
      !own.includes(root) && !(ownPlace && (isForeign(root) || placesOf(previous).includes(root)))
    )
  const asked = expectedOf(text)
  // A follow-up without a value of its own ("And to another province?") asks for the previous one's.
  const inherited = asked.expected === "any" && previous !== undefined ? expectedOf(previous) : asked
  // One stating a case ("and if I come a day late?", "اگه دیرتر بیام چی؟") asks what holds in it, and names
  // no new thing.
  const statesCase = previous !== undefined && caseOpening.test(normalizeText(text))
  const { expected, unit } = statesCase && inherited.expected === "any"
    ? { expected: "condition" as const, unit: undefined }
    : inherited
  const all = [...own, ...context]
  return {
    text,
    roots: own,
    contextRoots: context,
    expected,
    unit,
    // A number ("بیست و یک", "twenty") is a value the question states, not what it is about; so is the unit
    // counted in its colloquial form ("ماهه" of "چند ماهه").
    subject: [
      ...new Set(
        all.filter((root) =>
          !frameWords.has(root) && !isNumberWord(root) && !isOrdinal(root) && !isUnitForm(root, unit)
        )
      )
    ],
    places: [...new Set([...placesOf(`${text} ${previous ?? ""}`), ...askedAgain])].filter((place) =>
      all.includes(place)
    ),
    names: namesOf(text).filter((name) => own.includes(name) && !askedAgain.includes(name)),
    focus: focusOf(text),
    elliptical: previous !== undefined && asked.expected === "any" && !statesCase,
    leansBack: previous !== undefined && pointsBack.test(text),
    statesCase,
    // "به حسابم" (to my account) is no place: a word with a possessive ending belongs to someone.
    maybePlaces: [...normalizeText(text).matchAll(/(?:^|\s)(?:به|در)\s+([\u0600-\u06FF]{3,})/gu)]
      .filter((match) => withoutEnclitic(match[1] ?? "") === undefined)
      .map((match) => stem(match[1] ?? "")).filter((root) => all.includes(root))
  }
}

const greetings = new Set(
  wordsOf(
    "hi hello hey hiya greetings good morning evening afternoon thanks thank you سلام درود وقت بخیر صبح عصر شب ممنون مرسی متشکرم سپاس مرحبا اهلا شكرا"
  )
)

/** A greeting or thanks and nothing else. */
export const isSmallTalk = (question: string): boolean => {
  const words = wordsOf(question)
  return words.length > 0 && words.length <= 4 &&
    words.every((word) => greetings.has(word) || questionStopWords.has(word))
}

export const isThanks = (question: string): boolean =>
  wordsOf(question).some((word) => /^(thank|thanks|ممنون|مرسی|متشکرم|سپاس|شكرا)/.test(word))
