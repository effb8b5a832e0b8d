/**
 * One normal form for Persian, Arabic and English text, applied alike when
 * indexing and when querying: letter case, Arabic/Persian letter variants
 * (ي/ی, ك/ک, ة/ه, hamza seats), diacritics, tatweel, ZWNJ and Arabic-Indic or
 * Persian digits all compare equal.
 */

const letterForms: ReadonlyArray<readonly [RegExp, string]> = [
  [/[\u064A\u0649\u06D2]/g, "\u06CC"], // Arabic yeh, alef maksura, yeh barree → Persian yeh
  [/\u0643/g, "\u06A9"], // Arabic kaf → Persian keheh
  [/\u0629/g, "\u0647"], // teh marbuta → heh
  [/[\u0623\u0625\u0622\u0671]/g, "\u0627"], // alef with hamza or madda, wasla → alef
  [/\u0624/g, "\u0648"], // waw with hamza → waw
  [/\u0626/g, "\u06CC"], // yeh with hamza → yeh
  [/\u06C0/g, "\u0647"] // heh with yeh above → heh
]

/** Harakat, Quranic marks, superscript alef and tatweel carry no meaning for search. */
const marks = /[\u0610-\u061A\u064B-\u065F\u0670\u06D6-\u06ED\u0640]/g
/** Zero-width characters: ZWNJ joins or splits Persian words at the writer's whim. */
const zeroWidth = /[\u200B-\u200F\u2060\uFEFF]/g

const digitsOf = (text: string): string =>
  text.replace(/[\u0660-\u0669\u06F0-\u06F9]/g, (digit) => {
    const code = digit.charCodeAt(0)
    return String(code >= 0x06F0 ? code - 0x06F0 : code - 0x0660)
  })

/** Any character the folds below may change beyond case and spaces (everything outside ASCII). */
const beyondAscii = /[^\u0000-\u007F]/

/** Normal form of free text: words stay apart, everything else above is folded. */
export const normalizeText = (text: string): string => {
  // ASCII text has nothing to fold but case and spaces (the common case of an English catalog's import).
  if (!beyondAscii.test(text)) return text.toLowerCase().replace(/\s+/g, " ").trim()
  let result = text.normalize("NFKC").toLowerCase()
  for (const [pattern, replacement] of letterForms) result = result.replace(pattern, replacement)
  return digitsOf(result.replace(marks, "").replace(zeroWidth, "")).replace(/\s+/g, " ").trim()
}

/** Key of a category-like value: the normal form with all whitespace removed, so matching is strict otherwise. */
export const categoryKey = (text: string): string => normalizeText(text).replace(/\s+/g, "")

/** Words of normalised text: letters and digits of any script (punctuation, Persian included, splits). */
export const wordsOf = (text: string): ReadonlyArray<string> => normalizeText(text).match(/[\p{L}\p{N}]+/gu) ?? []
