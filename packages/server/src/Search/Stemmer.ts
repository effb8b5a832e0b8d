/**
 * A light stemmer for normalised words (see TextNormalization.ts), shared by
 * the offline embedder, keyword search and the offline chat model.
 *
 * English: plural, tense and adverb endings. Persian: a verb is reduced to its
 * past stem ("می‌توانم", "نمی‌تونی", "بتوانید", "توانستند" → "توانست"), a
 * preverb kept ("دریافت کردم" → "دریافت"; "برگردانم", "بازمی‌گردانید",
 * "بازگشت" → "برگشت", the forms of "return" read as one); a noun loses its plural, comparative,
 * ezafe, indefinite and possessive endings ("کتاب‌هایی", "کتابی", "کالای" →
 * "کتاب", "کالا"). Verbs are recognised by their stems (a list of common
 * verbs): a prefix "ب" or "ن" is stripped only before a known stem, so
 * "بازار" and "نقشه" stay as they are.
 */
import { boundedMemo } from "../Platform/Memo"
import { normalizeText } from "./TextNormalization"

/**
 * Words whose stems are remembered: a search stems each of the dictionary's terms near its words (and the indexer
 * each product's words), mostly the same few thousand words again and again.
 */
const stemsKept = 50_000

/** English plural, tense and adverb endings, then a final silent "e": "cables" and "cable" share "cabl". */
const stemEnglish = (word: string): string => {
  let root = word
  if (root.endsWith("'s")) root = root.slice(0, -2)
  else if (root.endsWith("ies") && root.length > 4) root = `${root.slice(0, -3)}y`
  else if (/(ss|x|z|ch|sh)es$/.test(root)) root = root.slice(0, -2)
  else if (root.endsWith("s") && !/(ss|us|is)$/.test(root) && root.length > 3) root = root.slice(0, -1)
  else if (root.endsWith("ied") && root.length > 4) root = `${root.slice(0, -3)}y`
  else if (root.endsWith("ing") && root.length > 5) root = root.slice(0, -3)
  else if (root.endsWith("ed") && root.length > 4) root = root.slice(0, -2)
  else if (root.endsWith("ly") && root.length > 4) root = root.slice(0, -2)
  return root.endsWith("e") && root.length > 3 ? root.slice(0, -1) : root
}

// ---------------------------------------------------------------------------------------------------------------
// Persian verbs

/**
 * Common verbs as "past stem/present stem[/colloquial present stem]", in normal form (آ is ا). The past
 * stem is the verb's stem for every form.
 */
const verbList = [
  "کرد/کن",
  "شد/شو/ش",
  "داد/ده/د",
  "گرفت/گیر",
  "رفت/رو/ر",
  "امد/ا",
  "گفت/گو/گ",
  "دانست/دان/دون",
  "توانست/توان/تون",
  "خواست/خواه/خوا",
  "داشت/دار",
  "خرید/خر",
  "فروخت/فروش",
  "فرستاد/فرست",
  "رسید/رس",
  "رساند/رسان/رسون",
  "گرداند/گردان/گردون",
  "گشت/گرد",
  "برد/بر",
  "اورد/اور",
  "پرداخت/پرداز",
  "دید/بین",
  "کشید/کش",
  "ماند/مان/مون",
  "نوشت/نویس",
  "پذیرفت/پذیر",
  "بست/بند",
  "شکست/شکن",
  "گذاشت/گذار",
  "پوشید/پوش",
  "ساخت/ساز",
  "زد/زن",
  "خورد/خور",
  "یافت/یاب",
  "پرسید/پرس",
  "افتاد/افت",
  "کاست/کاه",
  "افزود/افزا",
  "سپرد/سپار",
  "شناخت/شناس",
  "فهمید/فهم",
  "گذشت/گذر",
  "خواند/خوان",
  "شنید/شنو",
  "نمود/نما",
  "کشاند/کشان",
  "چرخید/چرخ",
  "پیچید/پیچ",
  "بخشید/بخش",
  "کوشید/کوش",
  "ارزید/ارز",
  "طلبید/طلب",
  "نشست/نشین",
  "انداخت/انداز",
  "باخت/باز",
  "شمرد/شمار",
  "گزید/گزین",
  "شست/شوی/شور"
]

/** Present or past stem → the verb's past stem. */
const verbStems = new Map<string, string>()
for (const entry of verbList) {
  const [past = "", ...presents] = entry.split("/")
  verbStems.set(past, past)
  for (const present of presents) if (!verbStems.has(present)) verbStems.set(present, past)
}

/**
 * Preverbs that make compound verbs ("بر" + "گرداندن"). With "باز" or "بر", "گرداندن" (return a thing)
 * and "گشتن" (come back) are one verb of returning, "برگشت", which is also the noun.
 */
const preverbs = ["باز", "بر", "در", "فرا", "فرو", "پس", "وا"]
const returning = new Set(["گرداند", "گشت"])

/** Personal endings (standard and colloquial), longest first; "" for a bare stem. */
const endings = ["یید", "ییم", "ید", "یم", "ند", "ین", "م", "ی", "د", "ه", "ن", ""]
/** Present stems whose forms go without a prefix ("دارم", "تواند", "خواهد"); others need one ("می‌کنم"). */
const barePresent = new Set(["دار", "توان", "خواه"])
/** Aspect and mood prefixes, longest first. "بی"/"نی" stand before a stem beginning with ا ("بیاورم"). */
const verbPrefixes = ["نمی", "می", "بی", "نی", "ب", "ن", ""]

/** The verb's past stem, if `word` is a form of a known verb (with its preverb when it has one). */
const verbStemOf = (word: string): string | undefined => {
  for (const preverb of preverbs) {
    if (word.length > preverb.length + 1 && word.startsWith(preverb)) {
      const verb = simpleVerbStem(word.slice(preverb.length), true)
      if (verb !== undefined && verb.length >= 3) return returning.has(verb) ? "برگشت" : `${preverb}${verb}`
    }
  }
  return simpleVerbStem(word, false)
}

/** Participle ("رسیده"), infinitive ("رسیدن") and perfect ("رسیده‌اند") endings of a past stem. */
const pastForms = ["هاند", "هاید", "هایم", "هاست", "هام", "های", "ه", "ن"]

const simpleVerbStem = (word: string, compound: boolean): string | undefined => {
  for (const prefix of verbPrefixes) {
    if (!word.startsWith(prefix)) continue
    const rest = word.slice(prefix.length)
    if ((prefix === "بی" || prefix === "نی") && !rest.startsWith("ا")) continue
    for (const ending of endings) {
      if (!rest.endsWith(ending)) continue
      const core = rest.slice(0, rest.length - ending.length)
      const past = knownStem(core, prefix, ending, compound)
      if (past !== undefined) return past
    }
    // Participles and infinitives take no personal ending of their own.
    for (const form of pastForms) {
      if (!rest.endsWith(form)) continue
      const core = rest.slice(0, rest.length - form.length)
      if (verbStems.get(core) === core && (core.length >= 3 || prefix.length > 0)) return core
    }
  }
  return undefined
}

/**
 * A stem of the list, or one with a glide ی before a vowel ending ("می‌گوییم"). Without a prefix only a
 * past stem with an ending ("خریدم") or a compound, and a present stem only of the verbs that go without
 * one: "بخشی" is a section, not a verb. A one-letter stem ("ش" of "میشه") needs می, a two-letter one
 * ("کن", "ده") some prefix: "ده" alone is "ten".
 */
const knownStem = (core: string, prefix: string, ending: string, compound: boolean): string | undefined => {
  const candidates = core.endsWith("ی") && core.length > 2 ? [core, core.slice(0, -1)] : [core]
  for (const candidate of candidates) {
    const past = verbStems.get(candidate)
    if (past === undefined) continue
    if (candidate.length === 1 && !(prefix === "می" || prefix === "نمی" || prefix === "بی" || prefix === "نی")) continue
    if (prefix.length === 0) {
      if (candidate.length <= 2 || (!compound && ending.length === 0)) continue
      const present = past !== candidate
      if (present && !compound && !barePresent.has(candidate)) continue
      // Colloquial endings ("میره", "میکنن") only with the prefix that marks a verb.
      if (!compound && (ending === "ه" || ending === "ن" || ending === "ین")) continue
    }
    return past
  }
  return undefined
}

// ---------------------------------------------------------------------------------------------------------------
// Persian nouns and adjectives

/** Words ending in -ان that are not plurals (places and common nouns), in normal form. */
const notPlural = new Set(
  "خیابان اصفهان خراسان کرمان تهران ایران کاشان گیلان زنجان همدان فراوان باران جریان عنوان پایان دندان بیابان ارزان گران تومان امکان میزان زمان ساختمان سازمان درمان مهمان فرمان پیمان زبان جوان نشان آسمان"
    .split(" ").map(normalizeText)
)

/** Words ending in -گان that are no plural of a word ending in ه ("رایگان" is free, "بازرگان" a merchant). */
const notPluralOfHeh = new Set("رایگان گروگان بازرگان پادگان ارگان دوگان".split(" ").map(normalizeText))

/** Words ending in -تر that are not comparatives: "فیلتر", "دفتر", and the units "متر", "لیتر", "سانتیمتر". */
const notComparative = /(?:فیل|دف|چ|دخ|بس|کامپیو|انگش|م|لی)تر$/u

/** Possessive enclitics ("سفارشتان"), plural, comparative and adjective endings, longest first. */
const nounSuffixes = ["هایی", "هایم", "هایت", "هایش", "های", "ها", "ترین", "تر", "تان", "شان", "ات", "ان"]

const stripNoun = (word: string): string => {
  let root = word
  // A word ending in a silent ه takes -ان as -گان ("پرنده", "پرندگان"; "ستاره", "ستارگان").
  if (root.length >= 6 && root.endsWith("گان") && !notPluralOfHeh.has(root)) root = `${root.slice(0, -3)}ه`
  for (let round = 0; round < 3; round++) {
    const before = root
    for (const suffix of nounSuffixes) {
      if (root.length - suffix.length < 3 || !root.endsWith(suffix)) continue
      if (suffix === "ان" && (root.length < 6 || notPlural.has(root) || /(?:ست|م)ان$/u.test(root))) continue
      if (suffix === "تان" && root.endsWith("ستان")) continue
      if (suffix === "ات" && root.endsWith("هات")) continue
      if (suffix === "تر" && notComparative.test(root)) continue
      root = root.slice(0, -suffix.length)
      break
    }
    // The indefinite or ezafe ی ("کتابی", "قیمتی", "کالای"): kept on short words, where it is part of the word.
    if (root === before && root.endsWith("ی") && root.length >= 5) root = root.slice(0, -1)
    if (root === before) break
  }
  return root
}

/**
 * The stem of a normalised word: "teapots" meets "teapot", "کتاب‌ها" meets "کتاب", "می‌خرم" meets
 * "خریدند".
 */
export const stem: (word: string) => string = boundedMemo(stemsKept, (word) => {
  if (/[a-z]/.test(word)) return stemEnglish(word)
  if (!/[\u0600-\u06FF]/u.test(word) || word.length < 3) return word
  return verbStemOf(word) ?? stripNoun(word)
})

/** Colloquial endings on a noun or adjective, longest first: "سفارشمو", "مغازتون", "جنساتون", "دستگاهو", "بازین". */
const enclitics = "هاتون اتون هامون تون شون مون مو تو شو رو ست ین ید یم و م ت ش ه".split(" ")

/**
 * A Persian word without a colloquial ending ("سفارشمو" → "سفارش", "مغازتون" → "مغاز"), or undefined when it
 * has none or too little would be left. The longest ending that leaves a word goes: "کرمو" (the cream) is
 * "کرم" with the object ending, since "کر" under "مو" is too short. The word may be whole as it is: callers
 * keep it and try this too.
 */
export const withoutEnclitic = (word: string): string | undefined => {
  if (!/[\u0600-\u06FF]/u.test(word)) return undefined
  const ending = enclitics.find((candidate) => word.endsWith(candidate) && word.length - candidate.length >= 3)
  return ending === undefined ? undefined : word.slice(0, -ending.length)
}

/** The colloquial plural: "قسطا" for "قسط‌ها", "گلای" for "گل‌های". */
const colloquialPlural = /(?:ای|ا)$/u

/**
 * What a colloquial Persian word may stand on: without one or two endings ("شارژرمم" → "شارژر"), without
 * the colloquial plural under them ("کتابامو" → "کتاب", "فایلام" → "فایل"), and with the written vowel of a
 * spoken "ūn" ("خونه" → "خانه"). Empty for a word without such forms.
 */
export const colloquialBases = (word: string): ReadonlyArray<string> => {
  const out: Array<string> = []
  if (!/[\u0600-\u06FF]/u.test(word)) return out
  const add = (base: string | undefined) => {
    if (base !== undefined && base.length >= 2 && base !== word && !out.includes(base)) out.push(base)
  }
  const once = withoutEnclitic(word)
  add(once)
  const twice = once === undefined ? undefined : withoutEnclitic(once)
  add(twice)
  for (const base of [word, once, twice]) {
    if (base !== undefined && colloquialPlural.test(base)) add(base.replace(colloquialPlural, ""))
  }
  // Spoken "ūn"/"ūm" for written "ān"/"ām": "خونه" is "خانه", "تموم" is "تمام".
  for (const base of [word, once, twice]) {
    if (base !== undefined && /.و[نم]/u.test(base)) add(base.replace(/(.)و([نم])/u, "$1ا$2"))
  }
  return out
}
