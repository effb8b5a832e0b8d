/**
 * The built-in offline model: no provider, no network, always available. It
 * does not write prose of its own. It quotes the sentences of the retrieved
 * passages that best match the question (weighted word overlap, with light
 * stemming and Persian/Arabic letter folding), each with the document it came
 * from, lists matching products from the product-search tool, and says
 * "I don't know" when neither matched. Answers in the turn's language.
 *
 * A passage's heading path counts for the sentences under it, more when it
 * matches the question well (an FAQ's question heading): the answer is then
 * the text under the heading, not the heading. A short label line (a
 * definition list's "Applications/Shells" over "Examples: bash, ksh, zsh", a
 * sub-heading) counts as the words of the lines under it and is quoted with
 * them, never alone. A sentence that only restates the question or a heading,
 * or asks a question itself, is never quoted; one that leads into a list or a
 * command ("…as follows:") is quoted with the lines after it. A question
 * about a quantity ("how many", "چند") is answered only by a sentence with a
 * number. It declines when the best sentence matches loosely, outside a
 * section about the question, while a weighty word of the question is in no
 * passage (a question about one port over passages about other ports).
 * Sentences in the answer's language are preferred when they match, and the
 * answer stays within the request's `maxOutputTokens`.
 *
 * Honest limits: it cannot reason, combine facts, follow a conversation's
 * pronouns or read images; a question worded unlike the documents may get
 * "I don't know" where a language model would have answered.
 */
import type { Products } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { stem } from "../Search/Stemmer"
import { questionStopWords as stopwords } from "../Search/StopWords"
import { normalizeText, wordsOf } from "../Search/TextNormalization"
import type { ChatModelShape, ModelAnswer, ModelEvent, ModelRequest, Passage, Tool } from "./ChatModel"
import { type AnswerLanguage, detectLanguage } from "./Language"
import { estimateTokens } from "./Tokens"

const greetings = new Set(
  "hi hello hey hiya greetings good morning evening afternoon thanks thank you سلام درود وقت بخیر صبح عصر شب ممنون مرسی متشکرم سپاس مرحبا اهلا شكرا"
    .split(" ")
)

interface Term {
  readonly root: string
  readonly alternatives: ReadonlyArray<string>
  readonly weight: number
}

/**
 * A few words customers and shop documents use for the same thing. Small on
 * purpose: the offline model has no notion of meaning beyond this.
 */
const synonymGroups: ReadonlyArray<ReadonlyArray<string>> = [
  ["phone", "call", "telephone", "تلفن", "تماس"],
  ["price", "cost", "تومان", "قیمت", "هزینه"],
  ["ship", "deliver", "delivery", "send", "ارسال", "تحویل", "فرستاده"],
  ["refund", "بازپرداخت"],
  ["hour", "open", "ساعت", "باز"],
  ["email", "mail", "ایمیل"]
].map((group) => group.map(stem))

const alternativesOf = (
  root: string
): ReadonlyArray<string> => [
  root,
  ...synonymGroups.filter((group) => group.some((word) => sameWord(word, root))).flat()
]

/** Words of a text as stems, without stopwords or single letters. */
const rootsOf = (text: string): ReadonlyArray<string> =>
  wordsOf(text).filter((word) => word.length > 1 && !stopwords.has(word)).map(stem)

/** Persian personal verb endings: "بازگردانم" (I return) and "بازگردانید" (you return) are one verb. */
const personalEnding = /(?:یم|ید|ند|م|ی|د)$/u
const verbBase = (word: string) =>
  word.length >= 6 && /[\u0600-\u06FF]/u.test(word) ? word.replace(personalEnding, "") : word

/**
 * Same stem, or one a prefix of the other (4+ letters): "ship" meets
 * "shipping", "ارسال" meets "ارسالی"; or one Persian verb in two persons.
 */
const sameWord = (a: string, b: string) => {
  if (a === b) return true
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a]
  if (shorter.length >= 4 && longer.startsWith(shorter)) return true
  const base = verbBase(a)
  return base.length >= 5 && base !== a && base === verbBase(b)
}

const contains = (roots: ReadonlyArray<string>, root: string) => roots.some((candidate) => sameWord(candidate, root))

/** The term or one of its synonyms. */
const mentions = (roots: ReadonlyArray<string>, term: Term) => term.alternatives.some((root) => contains(roots, root))

/**
 * A chunk's heading trail (`Shipping › Delivery times`, which the chunker puts
 * first) and its body. The heading is not quoted, but its words count for
 * the sentences under it: "installments?" finds the section titled so.
 */
const splitHeading = (text: string): { readonly heading: string; readonly body: string } => {
  const at = text.indexOf("\n\n")
  const first = at > 0 ? text.slice(0, at).trim() : ""
  // A question is a heading too (an FAQ's); the chunker bounds a heading path at 300 characters.
  const isHeading = first.length > 0 && first.length <= 300 && !first.includes("\n") &&
    (first.includes(" › ") || !/[.!؛:,،]$/u.test(first))
  return isHeading ? { heading: first, body: text.slice(at + 2) } : { heading: "", body: text }
}

/**
 * A line of a passage body: a sentence, a list item or a line of its own;
 * or a label (a short line without a sentence end, such as "Applications/Shells"
 * over its description, or a sub-heading), which is never quoted alone.
 */
interface Line {
  readonly text: string
  readonly label: boolean
  /** A list item ("- …", "3. …"). */
  readonly item: boolean
  /** The label line(s) just above, which name what this line describes. */
  readonly context: string
}

/**
 * A line naming what follows: short, a capital (or a script without case)
 * first, no sentence end, comma or colon, and not code ("$ make", "KEY=value").
 */
const isLabel = (line: string, item: boolean) =>
  !item && line.length <= 60 && wordsOf(line).length <= 6 && /^[\p{Lu}\p{Lo}\d]/u.test(line) &&
  !/[.!?؟؛:;,،…)"”»]$/u.test(line) && !/[,،:]\s|[$=<>{}|\\]/u.test(line)

/** Lines of a passage body: split after . ! ? ؟ ؛ and at line breaks; Markdown headings and list markers go. */
const linesOf = (text: string): ReadonlyArray<Line> => {
  const lines: Array<Line> = []
  let context: Array<string> = []
  let labelRun = false
  for (const raw of text.split(/\n+/u)) {
    if (/^\s*#/.test(raw)) continue
    // List markers go ("- ", "• ", "3. "), not a sentence's own first characters ("2D and 3D graphics").
    const item = /^\s*(?:[>*\-•]+\s*|\d{1,3}[.)]\s+)/u.test(raw)
    const line = raw.replace(/^\s*(?:[>*\-•]+\s*|\d{1,3}[.)]\s+)/u, "").trim()
    if (line.length === 0 || !/\p{L}/u.test(line)) continue
    if (isLabel(line, item)) {
      // Consecutive labels name one thing ("Applications/Network/Monitoring", "Network monitoring software").
      context = labelRun ? [...context.slice(-1), line] : [line]
      labelRun = true
      lines.push({ text: line, label: true, item, context: "" })
      continue
    }
    labelRun = false
    for (const sentence of line.split(/(?<=[.!?؟؛])\s+/u)) {
      if (quotable(sentence)) lines.push({ text: sentence, label: false, item, context: context.join(" — ") })
    }
  }
  // Short lines at the end name nothing below them: they are the text (an answer written without a final period).
  let end = lines.length
  while (end > 0 && lines[end - 1].label) end--
  return [
    ...lines.slice(0, end),
    ...lines.slice(end).flatMap((line, i, trailing) =>
      quotable(line.text) ? [{ ...line, label: false, context: trailing[i - 1]?.text ?? "" }] : []
    )
  ]
}

const quotable = (sentence: string) => sentence.length >= 8 && /\p{L}/u.test(sentence)

/** Share of a term's weight a heading match earns, against a match in the sentence itself. */
const headingCredit = 0.6
/** ...and all of it under a heading that covers this much of the question: the section answers it. */
const matchingHeadingCredit = 1
const matchingHeading = 0.5
/** The first sentences under a matching heading are where an FAQ or manual answers it. */
const leadBonus = 0.04

/** Words so common that a sentence made of the question's words and these says nothing new. */
const fillers = new Set(
  "a an the this these those that of to for in on at is are be it its و در به از را این آن که است".split(" ")
)

/** A question of its own, or nothing but the words of the question or the heading: no answer. */
const restates = (sentence: string, question: ReadonlySet<string>, heading: ReadonlySet<string>) => {
  if (/[?؟]["”»)]?$/u.test(sentence)) return true
  const words = wordsOf(sentence).filter((word) => !fillers.has(word))
  return words.every((word) => question.has(word)) || words.every((word) => heading.has(word))
}

const maxQuote = 400

const clip = (sentence: string, max = maxQuote) =>
  sentence.length <= max ? sentence : `${sentence.slice(0, max - 1).trimEnd()}…`

/**
 * A best match this weak is no answer when the question's own subject is
 * nowhere in the passages: one missing word carrying this share of the
 * question's weight (a question about pay over passages about the work),
 * or missing words carrying this much together.
 */
const weakMatch = 0.5
const missingSubject = 0.3
const missingWords = 0.6
/** Below this, a missing weighty word declines unless the sentence's heading or label matches the question. */
const looseMatch = 0.6
const aboutSection = 0.3

interface Ranking {
  readonly ranked: ReadonlyArray<Scored>
  /** Weight shares of the question's words found in no passage: the largest one and their sum. */
  readonly missingLargest: number
  readonly missingTotal: number
}

interface Scored {
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
  /** The passage body's lines and this sentence's place among them, to quote what follows a lead-in. */
  readonly lines: ReadonlyArray<Line>
  readonly at: number
}

/** "How many…", "چند…", "چقدر…": the answer holds a number. */
const asksQuantity = (question: string) =>
  /\bhow (?:many|much|long|often|old|big|large|far)\b/iu.test(question) ||
  wordsOf(question).some((word) => word === "چند" || word === "چقدر")

const numberWords = new Set(
  wordsOf(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty sixty hundred thousand million dozen half " +
      "یک دو سه چهار پنج شش هفت هشت نه ده یازده دوازده پانزده بیست سی چهل پنجاه شصت صد دویست سیصد پانصد هزار میلیون نیم"
  ).join(" ").split(" ")
)

/** Footnote marks, manual sections ("dpkg(1)") and section numbers ("5.9.5") are not quantities. */
const quantityWords = (sentence: string) =>
  wordsOf(sentence.replace(/\[\d+\]|\(\d\w?\)|\b\d+(?:\.\d+){2,}\b|(?:Section|Chapter)\s+[\d.]+/gu, ""))

const isNumber = (word: string) => /\d/.test(word) || numberWords.has(word)

/** What "how many …" or "چند …" counts: the word after it ("days" in "how many days"). */
const countedThing = (question: string): string | undefined => {
  const words = wordsOf(question)
  const at = words.findIndex((word, i) => (word === "many" && words[i - 1] === "how") || word === "چند")
  const thing = at < 0 ? undefined : words[at + 1]
  return thing === undefined || stopwords.has(thing) ? undefined : stem(thing)
}

/** "روز" and "روزه", "day" and "days": one stem the start of the other. */
const sameThing = (a: string, b: string) =>
  sameWord(a, b) || (Math.min(a.length, b.length) >= 3 && (a.startsWith(b) || b.startsWith(a)))

/**
 * The sentence holds a number; of the thing counted, when the question names
 * it ("seven days" for "how many days", not "version 3.0 of the packages").
 */
const answersQuantity = (sentence: string, thing: string | undefined) => {
  const words = quantityWords(sentence)
  return words.some((word, i) =>
    isNumber(word) && (thing === undefined || words.slice(i + 1, i + 4).some((next) => sameThing(stem(next), thing)))
  )
}

/** A sentence that opens with the question's subject ("lintian - this is the package checker") defines it. */
const subjectBonus = 0.05
/** A footnote ("[75] You do not need…") is a side remark. */
const footnotePenalty = 0.03

/**
 * Sentences ranked by the share of the question's weight they cover; a term's
 * weight is its rarity among all candidate sentences, so "Shiraz" counts more than "ship".
 * A line's label counts as the line's own words.
 */
const rankSentences = (
  questionText: string,
  question: ReadonlyArray<string>,
  passages: ReadonlyArray<Passage>
): Ranking => {
  const questionWords = new Set(wordsOf(questionText))
  const quantity = asksQuantity(questionText)
  const thing = countedThing(questionText)
  const candidates = passages.flatMap((passage) => {
    const { body, heading } = splitHeading(passage.text)
    const headingRoots = rootsOf(heading)
    const sectionRoots = rootsOf(heading.split(" › ").pop() ?? "")
    const headingWords = new Set(wordsOf(heading))
    const lines = linesOf(body)
    return lines
      .map((line, at) => ({ line, at }))
      .filter(({ line }) => !line.label && !restates(line.text, questionWords, headingWords))
      .map(({ at, line }, index) => ({
        sentence: line.text,
        passage,
        roots: rootsOf(`${line.context} ${line.text}`),
        labelRoots: rootsOf(line.context),
        first: rootsOf(line.text).slice(0, 1),
        headingRoots,
        sectionRoots,
        index,
        lines,
        at
      }))
  })
  if (candidates.length === 0 || question.length === 0) return { ranked: [], missingLargest: 0, missingTotal: 0 }
  const unique = [...new Set(question)]
  const terms: ReadonlyArray<Term> = unique.map((root) => {
    const alternatives = alternativesOf(root)
    const df = candidates.filter((candidate) =>
      alternatives.some((alternative) => contains(candidate.roots, alternative))
    ).length
    return { root, alternatives, weight: Math.log(1 + candidates.length / (1 + df)) + 0.1 }
  })
  const total = terms.reduce((sum, term) => sum + term.weight, 0)
  const everywhere = candidates.flatMap((candidate) => [...candidate.roots, ...candidate.headingRoots])
  const known = terms.filter((term) => mentions(everywhere, term))
  const missing = terms.filter((term) => !mentions(everywhere, term)).map((term) => term.weight / total)
  const headingMatch = new Map<ReadonlyArray<string>, number>()
  const headingShare = (roots: ReadonlyArray<string>) => {
    const known = headingMatch.get(roots)
    if (known !== undefined) return known
    const share = terms.reduce((sum, term) => sum + (mentions(roots, term) ? term.weight : 0), 0) / total
    headingMatch.set(roots, share)
    return share
  }
  const ranked = candidates
    // A question about a quantity is answered by a sentence with a number.
    .filter((candidate) => !quantity || answersQuantity(candidate.sentence, thing))
    .map((candidate, order) => {
      const underMatch = headingShare(candidate.headingRoots) >= matchingHeading
      const credit = underMatch ? matchingHeadingCredit : headingCredit
      const covered = terms.reduce(
        (sum, term) =>
          sum + (mentions(candidate.roots, term)
            ? term.weight
            : mentions(candidate.headingRoots, term)
            ? term.weight * credit
            : 0),
        0
      )
      const lead = underMatch && candidate.index < 2 ? leadBonus / (1 + candidate.index) : 0
      // A small nudge for passages retrieval ranked higher breaks ties between equal matches.
      const rank = 0.02 * (1 - (candidate.passage.n - 1) / Math.max(1, passages.length))
      const subject = terms.some((term) => mentions(candidate.first, term)) ? subjectBonus : 0
      const footnote = /^\[\d+\]/.test(candidate.sentence) ? footnotePenalty : 0
      return {
        sentence: candidate.sentence,
        passage: candidate.passage,
        score: covered / total + lead + rank + subject - footnote,
        order,
        index: candidate.index,
        underMatch,
        sectionShare: headingShare(candidate.sectionRoots),
        labelled: terms.some((term) => mentions(candidate.labelRoots, term)),
        coversKnown: known.every((term) => mentions(candidate.roots, term)),
        lines: candidate.lines,
        at: candidate.at
      }
    })
    .filter((scored) => scored.score > 0.05)
    .sort((a, b) => b.score - a.score || a.order - b.order)
  return {
    ranked,
    missingLargest: Math.max(0, ...missing),
    missingTotal: missing.reduce((sum, share) => sum + share, 0)
  }
}

/** Longest a quote grows when the lines after a lead-in ("…as follows:") join it. */
const maxLeadInQuote = 320
/** A sentence this short says little alone ("Line 12 is the short description."): the next one joins it. */
const shortSentence = 45

/**
 * What is quoted for a sentence: its label first when it has one
 * ("Applications/Shells: Examples: bash, ksh, zsh"), and after a lead-in
 * ending in a colon, or a very short sentence, the lines that follow it.
 * Returns the text and the line positions it took.
 */
const quoteOf = (scored: Scored): { readonly text: string; readonly took: ReadonlyArray<number> } => {
  const line = scored.lines[scored.at]
  const labelled = line.context.length > 0 && !normalizeText(line.text).includes(normalizeText(line.context))
    ? `${line.context}: ${line.text}`
    : line.text
  const took = [scored.at]
  const leadIn = /[:：]$/u.test(line.text)
  // A list item is whole as it is; so is a sentence before one.
  const next = scored.lines[scored.at + 1]
  if (!leadIn && (line.text.length >= shortSentence || line.item || next?.item)) return { text: labelled, took }
  let text = labelled
  for (let at = scored.at + 1; at < scored.lines.length && took.length < (leadIn ? 6 : 2); at++) {
    const following = scored.lines[at]
    if (following.label || text.length + following.text.length > maxLeadInQuote) break
    text = took.length === 1 ? `${text} ${following.text}` : `${text}; ${following.text}`
    took.push(at)
  }
  return { text, took }
}

/**
 * Best sentences: enough of the question covered, close to the best one, at
 * most three, no repeats; in the answer's language when any of those is.
 */
const pickQuotes = (ranking: Ranking, language: AnswerLanguage): ReadonlyArray<Scored> => {
  const inLanguage = ranking.ranked.filter((scored) => detectLanguage(scored.sentence) === language)
  const ranked = inLanguage.length > 0 && inLanguage[0].score >= 0.34 ? inLanguage : ranking.ranked
  const best = ranked[0]
  if (best === undefined || best.score < 0.34) return []
  if (best.score < weakMatch && (ranking.missingLargest >= missingSubject || ranking.missingTotal >= missingWords)) {
    return []
  }
  // A loose match while a weighty word of the question is in no passage, and the best sentence's section is about
  // none of the question, or the sentence holds only part of what the passages know of it: they speak of something
  // else. A question naming a place that a section on the question's subject only names in general still answers.
  if (
    best.score < looseMatch && best.sectionShare < aboutSection && !best.labelled &&
    ranking.missingLargest >= missingSubject && (best.sectionShare === 0 || !best.coversKnown)
  ) return []
  const chosen: Array<Scored> = []
  for (const candidate of ranked) {
    if (chosen.length === 3 || candidate.score < Math.max(0.34, best.score * 0.6)) break
    const twin = chosen.findIndex((taken) => taken.sentence === candidate.sentence)
    // The same sentence in two chunks (an overlap): the copy with the lines after it in its chunk.
    if (twin >= 0) {
      if (quoteOf(chosen[twin]).took.length === 1 && quoteOf(candidate).took.length > 1) chosen[twin] = candidate
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
  // A quote that takes the lines after it makes a separate quote of one of them a repeat.
  const quotes: Array<Scored> = []
  const taken = new Set<string>()
  for (const scored of chosen) {
    const key = (at: number) => `${scored.passage.n}:${at}`
    if (taken.has(key(scored.at))) continue
    const quote = quoteOf(scored)
    quote.took.forEach((at) => taken.add(key(at)))
    quotes.push({ ...scored, sentence: quote.text })
  }
  return quotes
}

const productText = (product: Products.Product) =>
  [
    product.title,
    product.category ?? "",
    product.subcategory ?? "",
    ...Object.values(product.attributes).map((value) => typeof value === "string" ? value : "")
  ].join(" ")

/** Products whose title or category names something the question asks for. */
const matchingProducts = (question: ReadonlyArray<string>, products: ReadonlyArray<Products.Product>) => {
  const unique = [...new Set(question)]
  if (unique.length === 0) return []
  return products.filter((product) => {
    const titleRoots = rootsOf(`${product.title} ${product.category ?? ""} ${product.subcategory ?? ""}`)
    const allRoots = rootsOf(productText(product))
    const covered = unique.filter((root) => contains(allRoots, root)).length
    return unique.some((root) => contains(titleRoots, root)) && covered / unique.length >= 0.34
  }).slice(0, 3)
}

const texts = {
  en: {
    single: (path: string, quote: string) => `According to ${path}: "${quote}"`,
    intro: "Here is what I found:",
    bullet: (path: string, quote: string) => `- "${quote}" (${path})`,
    products: "Products that may fit:",
    unknown:
      "I don't know: I found nothing about that in my knowledge base or catalog. Could you rephrase it, or ask about something else?",
    hello: (name: string) =>
      `Hello! I'm ${name}. Ask me a question and I'll answer from my knowledge base and product catalog.`,
    thanks: "You're welcome! Anything else I can help with?",
    images: "(I can't see images; please describe in words what it shows.)",
    price: (price: string, currency: string) => `${price}${currency ? ` ${currency}` : ""}`
  },
  fa: {
    single: (path: string, quote: string) => `طبق ${path}: «${quote}»`,
    intro: "این را در منابع پیدا کردم:",
    bullet: (path: string, quote: string) => `- «${quote}» (${path})`,
    products: "محصولاتی که شاید مناسب باشند:",
    unknown: "نمی‌دانم: در منابع و کاتالوگ من چیزی دربارهٔ این موضوع پیدا نکردم. می‌توانید سؤال را طور دیگری بپرسید؟",
    hello: (name: string) => `سلام! من ${name} هستم. سؤالتان را بپرسید تا از منابع و کاتالوگ محصولات پاسخ بدهم.`,
    thanks: "خواهش می‌کنم! کار دیگری هست که بتوانم کمک کنم؟",
    images: "(نمی‌توانم تصویر را ببینم؛ لطفاً آنچه در تصویر است را با کلمات توضیح دهید.)",
    price: (price: string, currency: string) => `${price}${currency ? ` ${currency}` : ""}`
  },
  ar: {
    single: (path: string, quote: string) => `وفقًا لـ ${path}: «${quote}»`,
    intro: "هذا ما وجدته:",
    bullet: (path: string, quote: string) => `- «${quote}» (${path})`,
    products: "منتجات قد تناسبك:",
    unknown: "لا أعرف: لم أجد شيئًا عن ذلك في قاعدة معرفتي أو الكتالوج. هل يمكنك إعادة صياغة السؤال؟",
    hello: (name: string) => `مرحبًا! أنا ${name}. اسألني وسأجيب من قاعدة المعرفة وكتالوج المنتجات.`,
    thanks: "على الرحب والسعة! هل هناك شيء آخر؟",
    images: "(لا يمكنني رؤية الصور؛ يرجى وصف محتواها بالكلمات.)",
    price: (price: string, currency: string) => `${price}${currency ? ` ${currency}` : ""}`
  }
} satisfies Record<AnswerLanguage, unknown>

const productLine = (language: AnswerLanguage, product: Products.Product) => {
  const t = texts[language]
  const price = product.price === null ? null : t.price(product.price.toLocaleString("en-US"), product.currency ?? "")
  return `- ${[product.title, price, product.url].filter((part) => part !== null && part !== "").join(" — ")}`
}

const isSmallTalk = (question: string) => {
  const words = wordsOf(question)
  return words.length > 0 && words.length <= 4 && words.every((word) => greetings.has(word) || stopwords.has(word))
}

const isThanks = (question: string) =>
  wordsOf(question).some((word) => /^(thank|thanks|ممنون|مرسی|متشکرم|سپاس|شكرا)/.test(word))

/** The offline model's product lookup: the question itself as the query, when the tool is offered. */
const lookUpProducts = (tools: ReadonlyArray<Tool>, question: string) => {
  const tool = tools.find((candidate) => candidate.name === "search_products")
  return tool === undefined || rootsOf(question).length === 0
    ? Effect.succeed<ReadonlyArray<Products.Product>>([])
    : Effect.map(tool.run({ query: question.slice(0, 1000) }), (output) => output.products)
}

/** Composes the answer for one turn. Exposed for the quality evaluation. */
export const compose = (request: ModelRequest, found: ReadonlyArray<Products.Product>): ModelAnswer => {
  const { assistantName, imagesAttached, language, passages, question } = request.grounding
  const t = texts[language]
  const roots = rootsOf(question)
  const parts: Array<string> = []
  let products: ReadonlyArray<Products.Product> = []
  if (isSmallTalk(question)) {
    parts.push(isThanks(question) ? t.thanks : t.hello(assistantName))
  } else {
    const quotes = pickQuotes(rankSentences(question, roots, passages), language)
    products = matchingProducts(roots, found)
    const productPart = products.length === 0
      ? []
      : [[t.products, ...products.map((product) => productLine(language, product))].join("\n")]
    parts.push(
      quotes.length === 0 && products.length === 0 ? t.unknown : fitQuotes(quotes, (taken, max) => {
        const quotePart = taken.length === 0
          ? []
          : taken.length === 1
          ? [t.single(taken[0].passage.path, clip(taken[0].sentence, max))]
          : [[t.intro, ...taken.map((quote) => t.bullet(quote.passage.path, clip(quote.sentence, max)))].join("\n")]
        return [...quotePart, ...productPart].join("\n\n")
      }, request.maxOutputTokens)
    )
  }
  if (imagesAttached > 0) parts.push(t.images)
  const text = parts.join("\n\n")
  const prompt = request.messages.map((message) => message.content).join("\n")
  return {
    text,
    products,
    usage: { promptTokens: estimateTokens(prompt), completionTokens: estimateTokens(text) }
  }
}

/**
 * The answer written by `render` with as many quotes, as long, as fit in
 * `maxTokens`: fewer quotes first, then shorter ones.
 */
const fitQuotes = (
  quotes: ReadonlyArray<Scored>,
  render: (taken: ReadonlyArray<Scored>, maxQuoteChars: number) => string,
  maxTokens: number
): string => {
  for (let count = quotes.length; count > 1; count--) {
    const text = render(quotes.slice(0, count), maxQuote)
    if (estimateTokens(text) <= maxTokens) return text
  }
  let text = render(quotes.slice(0, 1), maxQuote)
  for (let max = maxQuote; estimateTokens(text) > maxTokens && max > 24; max = Math.floor(max * 0.8)) {
    text = render(quotes.slice(0, 1), max)
  }
  return text
}

/** A few words per delta, so a streamed offline answer arrives the way a model's would. */
const chunksOf = (text: string): ReadonlyArray<string> =>
  text.match(/\S+\s*/gu)?.reduce<Array<string>>((chunks, word, i) => {
    if (i % 4 === 0) chunks.push(word)
    else chunks[chunks.length - 1] += word
    return chunks
  }, []) ?? []

export const make: ChatModelShape = {
  generate: (request) =>
    Effect.map(lookUpProducts(request.tools, request.grounding.question), (found) => compose(request, found)),
  stream: (request) =>
    Stream.unwrap(
      Effect.map(lookUpProducts(request.tools, request.grounding.question), (found) => {
        const answer = compose(request, found)
        const deltas = chunksOf(answer.text).map((text): ModelEvent => ({ _tag: "Delta", text }))
        return Stream.fromIterable<ModelEvent>([...deltas, { _tag: "Completed", answer }])
      })
    )
}
