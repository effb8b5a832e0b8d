/**
 * The built-in offline model: no provider, no network, always available. It
 * does not write prose of its own. It quotes the sentences of the retrieved
 * passages that answer the question (see QuestionAnalysis.ts for what it
 * reads in a question, PassageSelection.ts and QuoteChoice.ts for which
 * sentences answer it),
 * each with the document it came from, and says in which language a quote is
 * when it is not the answer's; lists matching products from the
 * product-search tool, within a price bound the question states; and says
 * "I don't know" (with no sources) when nothing bears on the question. A
 * follow-up is read together with the question before it. Answers in the
 * turn's language, within the request's `maxOutputTokens`.
 *
 * Honest limits: it cannot reason, combine facts or read images; a question
 * worded unlike the documents may get "I don't know" where a language model
 * would have answered.
 */
import type { Products } from "@dastyar/domain"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { ownPart } from "./FollowUp"
import type { ChatModelShape, ModelAnswer, ModelEvent, ModelRequest, Tool } from "./ChatModel"
import { type AnswerLanguage, detectLanguage } from "./Language"
import { rankSentences, type Scored } from "./PassageSelection"
import { priceBounds } from "./PriceBounds"
import { pickQuotes } from "./QuoteChoice"
import { analyzeQuestion, contains, isSmallTalk, isThanks, rootsOf } from "./QuestionAnalysis"
import { estimateTokens } from "./Tokens"

const maxQuote = 400

const clip = (sentence: string, max = maxQuote) =>
  sentence.length <= max ? sentence : `${sentence.slice(0, max - 1).trimEnd()}…`

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
    /** A quote in another language than the answer's. */
    inLanguage: { en: "in English", fa: "in Persian", ar: "in Arabic" },
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
    inLanguage: { en: "به انگلیسی", fa: "به فارسی", ar: "به عربی" },
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
    inLanguage: { en: "بالإنجليزية", fa: "بالفارسية", ar: "بالعربية" },
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

/**
 * The offline model's product lookup, when the tool is offered: the question as the query, a price bound it
 * states as the tool's filter and out of the query.
 */
const lookUpProducts = (tools: ReadonlyArray<Tool>, question: string) => {
  const tool = tools.find((candidate) => candidate.name === "search_products")
  const { query, ...bounds } = priceBounds(question)
  return tool === undefined || rootsOf(query).length === 0
    ? Effect.succeed<ReadonlyArray<Products.Product>>([])
    : Effect.map(tool.run({ query: query.slice(0, 1000), ...bounds }), (output) => output.products)
}

/** The document's path, with the quote's language when it is not the answer's: "shipping.md, in Persian". */
const sourceOf = (language: AnswerLanguage, quote: Scored) => {
  const written = detectLanguage(quote.sentence)
  return written === language ? quote.passage.path : `${quote.passage.path}, ${texts[language].inLanguage[written]}`
}

/** Composes the answer for one turn. Exposed for the quality evaluation. */
export const compose = (request: ModelRequest, found: ReadonlyArray<Products.Product>): ModelAnswer => {
  const { assistantName, imagesAttached, language, passages, previousQuestion, question } = request.grounding
  const t = texts[language]
  const parts: Array<string> = []
  let products: ReadonlyArray<Products.Product> = []
  let declined = false
  if (isSmallTalk(question)) {
    parts.push(isThanks(question) ? t.thanks : t.hello(assistantName))
  } else {
    const asked = analyzeQuestion(previousQuestion === undefined ? question : ownPart(question), previousQuestion)
    // A follow-up continues the previous turn: the passage that best answers its question leads.
    const answeredBefore = previousQuestion === undefined
      ? undefined
      : rankSentences(analyzeQuestion(previousQuestion), passages).ranked[0]?.passage
    const ranking = rankSentences(asked, passages, answeredBefore)
    // A case for which no sentence states the previous question's kind of value ("and if it was on sale?" after
    // "how many days to return it?") is answered by what holds in it ("sale items cannot be returned").
    const quotes = pickQuotes(
      ranking.ranked.length === 0 && asked.statesCase && asked.expected !== "condition"
        ? rankSentences({ ...asked, expected: "condition", unit: undefined }, passages, answeredBefore)
        : ranking,
      language
    )
    products = matchingProducts(rootsOf(priceBounds(question).query), found)
    const productPart = products.length === 0
      ? []
      : [[t.products, ...products.map((product) => productLine(language, product))].join("\n")]
    declined = quotes.length === 0 && products.length === 0
    parts.push(
      declined ? t.unknown : fitQuotes(quotes, (taken, max) => {
        const [first] = taken
        const quotePart = first === undefined
          ? []
          : taken.length === 1
          ? [t.single(sourceOf(language, first), clip(first.sentence, max))]
          : [
            [t.intro, ...taken.map((quote) => t.bullet(sourceOf(language, quote), clip(quote.sentence, max)))].join(
              "\n"
            )
          ]
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
    declined,
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
