/**
 * The stop-word lists, one place for search and chat, in normal form (see
 * TextNormalization.ts; "آیا" is "ایا").
 */
import { normalizeText } from "./TextNormalization"

/** Each word in normal form on its own (together, "می" and "ها" would join their neighbours). */
const normalSet = (words: string): ReadonlySet<string> =>
  new Set(words.split(/\s+/u).filter((word) => word.length > 0).map(normalizeText))

/** Words that say little on their own: they count for ranking only when the query has nothing else. */
export const stopWords: ReadonlySet<string> = normalSet(
  // English
  "a an and are as at be but by can do does for from has have how i if in is it its me my no not of on or our so that the their there this to was we what when where which who why will with you your " +
    // Persian
    "از به با در را که و یا این آن اون است هست نیست بود شد می من تو ما شما او برای چه چی چرا کجا کی آیا هم نه تا اگر یک ها های"
)

/**
 * What a question says besides its subject: the stop words above and the words that ask ("how", "many",
 * "چند", "میشه"), politeness and filler. The offline answerer matches a question by the rest.
 */
export const questionStopWords: ReadonlySet<string> = new Set([
  ...stopWords,
  ...normalSet(
    // English
    "the were been being am did he she they him her them his hers whom whose these those which whom why " +
      "could should would will shall may might must about please tell there here had get got any some much many more " +
      "most than then also just let know want need like one long kind sort go goes yes other another under listed until till " +
      "something anything everything someone anyone whether ever im myself yourself mean means meaning around " +
      // Particles and linking words a question is phrased with ("hold on to", "put through", "still", "while").
      "still through into onto while already once even really again " +
      // Fillers and contractions typed without an apostrophe ("is that ok", "pretty dirty", "cant", "what
      // happens if"): they frame a question and name nothing.
      "actually ok okay pretty cant dont wont isnt doesnt didnt happen happens happened never ve ll " +
      // Persian and Arabic
      "هستند هستید هستیم هستم هستین هستن بودن ها های یک هم یا اما ولی اگر چه چی چیه چیست چطور چطوری چگونه چجوری کجا کجاست " +
      "کی کیست کدام کدوم چرا ایا او ما شما انها خود شود شد کرد کنم کنی کنید کند کنند باید نیز دارد دارید دارم " +
      "داره دارند دارین نیست بر روی ای را چند چندم چقدر چه‌قدر شده لطفا لطفاً میشه میشود میتوانم میتونم میتوانید " +
      "میتونید میتونین توان توانم بگویید بگید بگین بگو بدانم بدونم دربارهٔ درباره مورد سلام ممنون مرسی فقط خیلی " +
      "الان اکنون امکان ممکن وجود اینکه اون اونا یه دیگر دیگه سایر " +
      // Colloquial: "رو" for "را", "اگه" for "اگر", "هر", "بشه", "میتونه", "چیزی".
      // Colloquial pronoun forms: "برام" for "برای من", "خودم" (myself), "باشم" (that I be).
      "برام برات براش برامون براتون خودم خودت خودش خودمون باشم باشی باشیم " +
      // Colloquial "this/that" with an object or "too" ending: "اینو" (this), "اونم" (that too).
      "اینو اونو اینا اینم اونم همینو همونو " +
      // Colloquial "باز هم" (still, again): "بازم" is no "باز" (open).
      "بازم " +
      // Spoken "چقدر" and "چند" ("چقد میشه؟", "چن روزه؟"), "all of" ("کل سفارشام"), "more" as in English, and
      // "with it", "from it", "to it" ("باهاش", "ازش", "بهش").
      "چقد چن کل بیشتر باهاش باهاشون ازش بهش " +
      // Colloquial "برای" (for) and "as much as that" of a follow-up ("واسه شیراز چی؟", "همینقدر طول میکشه؟").
      "واسه برا همینقدر همونقدر " +
      // Adverbs of emphasis: "اصلا نیام" (if I don't come at all), "واقعا".
      "اصلا اصلاً واقعا واقعاً " +
      // "بدون" (without) reads as a colloquial "know!" to the stemmer.
      "بدون " +
      "رو اگه هر چقدره چنده چیه کجاست کیه چیکار چکار تو میخوام میخواستم بشه باشه باشد میتونه میتوان میتوانند چیزی کسی یعنی " +
      "في من على الى إلى عن ما هل كيف متى أين لماذا هذا هذه ذلك التي الذي هو هي انا أنا نحن انت أنت كم"
  )
])

/**
 * English prepositions and adverb particles, which a need is put with ("warm up", "keep out", "below zero"): in a
 * product query they count as words only when the query has nothing else, as stop words do, so a title that holds
 * one ("Pop-Up") does not rank as holding a word of the need. Chat keeps its own list: "after" or "before" may be
 * what a question asks.
 */
export const particles: ReadonlySet<string> = normalSet(
  "up down out off over under into onto through about after before above below between against during without " +
    "within away"
)
