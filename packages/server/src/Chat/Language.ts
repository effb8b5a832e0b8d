/**
 * The language to answer in: the assistant's configured `language`, else the
 * language of the user's message, told apart by script and a few letters
 * only Persian uses.
 */
export type AnswerLanguage = "en" | "fa" | "ar"

const arabicScript = /[\u0600-\u06FF]/g
/** پ چ ژ گ and Persian keheh/yeh: letters Arabic does not write. */
const persianOnly = /[\u067E\u0686\u0698\u06AF\u06A9\u06CC]/
/**
 * ة and ى, the article "ال" and Arabic function words. Not ي and ك alone: Persian typed on an Arabic
 * keyboard has them ("ميشه مرجوعش كنم").
 */
const arabicOnly =
  /[\u0629\u0649]|(?:^|\s)(?:ال\p{L}{2,}|هل|في|على|إلى|الى|كيف|متى|هذا|هذه|التي|الذي|لماذا|يمكن|أين|عن)(?=[\s؟?.,،]|$)/u

export const detectLanguage = (text: string): AnswerLanguage => {
  const letters = text.match(/\p{L}/gu)?.length ?? 0
  const arabicLetters = text.match(arabicScript)?.length ?? 0
  if (letters === 0 || arabicLetters / letters < 0.3) return "en"
  if (persianOnly.test(text)) return "fa"
  return arabicOnly.test(text) ? "ar" : "fa"
}

/** The configured language (a code or a name, any case), when it is one the offline model writes. */
export const configuredLanguage = (language: string | null): AnswerLanguage | undefined => {
  const value = language?.trim().toLowerCase()
  if (value === undefined || value.length === 0) return undefined
  if (value.startsWith("fa") || value.startsWith("per") || value === "فارسی") return "fa"
  if (value.startsWith("ar") || value === "العربية") return "ar"
  if (value.startsWith("en")) return "en"
  return undefined
}

/** How a language is named in the system prompt, from its code or name as configured. */
export const languageName = (language: string): string => {
  const known: Record<string, string> = {
    en: "English",
    fa: "Persian (Farsi)",
    ar: "Arabic",
    de: "German",
    fr: "French",
    tr: "Turkish"
  }
  return known[language.trim().toLowerCase()] ?? language.trim()
}
