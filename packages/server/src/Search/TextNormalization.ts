/**
 * One normal form for Persian, Arabic and English text, applied alike when
 * indexing and when querying: letter case, Arabic/Persian letter variants
 * (ي/ی, ك/ک, ة/ه, hamza seats), diacritics, tatweel, ZWNJ and Arabic-Indic or
 * Persian digits all compare equal, and a Persian prefix or suffix written
 * apart ("می توانم", "کتاب ها") is joined to its word.
 */
import { boundedMemo } from "../Platform/Memo"

/**
 * Each character that folds to another, and what it folds to: Arabic/Persian letter variants, and
 * Arabic-Indic and Persian digits. One character in, one out, none of the outputs folds again: a single
 * pass (with `dropped` below) does all.
 */
const folds = new Map<string, string>([
  // Arabic yeh, alef maksura, yeh barree and the yeh of other keyboards → Persian yeh
  ...[..."\u064A\u0649\u06D2\u06CD\u06D0"].map((c) => [c, "\u06CC"] as const),
  ...[..."\u0643\u06AA"].map((c) => [c, "\u06A9"] as const), // Arabic and swash kaf → Persian keheh
  ...[..."\u06BE\u06C1\u06D5"].map((c) => [c, "\u0647"] as const), // heh doachashmee, goal, ae (Urdu keyboards) → heh
  ["\u0629", "\u0647"], // teh marbuta → heh
  ...[..."\u0623\u0625\u0622\u0671"].map((c) => [c, "\u0627"] as const), // alef with hamza or madda, wasla → alef
  ["\u0624", "\u0648"], // waw with hamza → waw
  ["\u0626", "\u06CC"], // yeh with hamza → yeh
  ["\u06C0", "\u0647"], // heh with yeh above → heh
  ...Array.from({ length: 10 }, (_, d) => [String.fromCharCode(0x0660 + d), String(d)] as const),
  ...Array.from({ length: 10 }, (_, d) => [String.fromCharCode(0x06F0 + d), String(d)] as const)
])
/**
 * Characters that fold to nothing: harakat, Quranic marks, superscript alef and tatweel (no meaning for
 * search; a lone hamza too, "اجزاء" is "اجزا"), and zero-width characters (ZWNJ joins or splits Persian
 * words at the writer's whim).
 */
const dropped = "\u0621\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640\u200B-\u200F\u2060\uFEFF"
const folded = new RegExp(`[${dropped}${[...folds.keys()].join("")}]`, "g")
const fold = (c: string): string => folds.get(c) ?? ""

/** Any character the folds below may change beyond case and spaces (everything outside ASCII). */
const beyondAscii = /[^\u0000-\u007F]/

/**
 * Persian affixes written apart, joined to their word as with a half-space or none: "می توانم" is
 * "می‌توانم", "کتاب ها" is "کتاب‌ها", "ارزان تر" is "ارزان‌تر".
 */
const detachedPrefix = /(^|[^\p{L}])(ن?می)[ \t\u00A0]+(?=\p{L})/gu
const detachedSuffix = /(\p{L})[ \t\u00A0]+(ها|های|هایی|تر|ترین)(?!\p{L})/gu

/** Case and the folds above, whitespace as it was but for detached affixes. ASCII has nothing to fold but case. */
const foldText = (text: string): string =>
  beyondAscii.test(text)
    ? text.normalize("NFKC").toLowerCase().replace(folded, fold).replace(detachedPrefix, "$1$2").replace(
      detachedSuffix,
      "$1$2"
    )
    : text.toLowerCase()

/** Normal form of free text: words stay apart, everything else above is folded. */
export const normalizeText = (text: string): string => foldText(text).replace(/\s+/g, " ").trim()

/** Key of a category-like value: the normal form with all whitespace removed, so matching is strict otherwise. */
export const categoryKey = (text: string): string => normalizeText(text).replace(/\s+/g, "")

const letterOrDigit = /^[\p{L}\p{N}]$/u
/** Per UTF-16 code unit outside the surrogates: 0 not yet seen, 1 a letter or digit, 2 not. */
const unitKinds = new Uint8Array(0x10000)
const isLetterOrDigitUnit = (code: number): boolean => {
  let kind = unitKinds[code] ?? 0
  if (kind === 0) {
    kind = letterOrDigit.test(String.fromCharCode(code)) ? 1 : 2
    unitKinds[code] = kind
  }
  return kind === 1
}

/**
 * Words of normalised text: letters and digits of any script (punctuation, Persian included, splits), the
 * maximal runs that `/[\p{L}\p{N}]+/gu` finds. Scanned with a table of the code units seen (the regular
 * expression took most of this function's time, and this runs twice for every chunk of a document).
 */
export const wordsOf = (text: string): ReadonlyArray<string> =>
  text.length < rememberedMinChars ? scanWords(text) : rememberedWords(text)

/**
 * The words of the latest long texts: the ingest asks for each chunk's words twice, for its embedding and
 * for its keyword side (the same string, whose hash V8 keeps, so the second look-up costs little). Short
 * texts (queries, product fields) are scanned again, as cheaply as they are looked up.
 */
const rememberedMinChars = 200
const rememberedWords = boundedMemo(64, (text) => scanWords(text))

const scanWords = (text: string): ReadonlyArray<string> => {
  // Whitespace only separates words here: the normal form's spaces need not be made.
  const normal = foldText(text)
  const words: Array<string> = []
  let start = -1
  for (let i = 0; i < normal.length; i++) {
    const code = normal.charCodeAt(i)
    let word: boolean
    let width = 1
    if (code >= 0xd800 && code <= 0xdfff) {
      // A surrogate pair is one character beyond the BMP (rare): asked of the regular expression as is.
      const next = normal.charCodeAt(i + 1)
      width = code <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1
      word = letterOrDigit.test(normal.slice(i, i + width))
    } else {
      word = isLetterOrDigitUnit(code)
    }
    if (word) {
      if (start < 0) start = i
    } else if (start >= 0) {
      words.push(normal.slice(start, i))
      start = -1
    }
    i += width - 1
  }
  if (start >= 0) words.push(normal.slice(start))
  return words
}
