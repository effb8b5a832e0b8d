/**
 * Languages: every `i18n/*.json` file is one language (its `_meta` says its
 * name, direction and number/date locale), so adding a language is adding a
 * file. English is the reference: its keys are the ones every file must have.
 */
import { createContext, useContext } from "react"
import en from "./i18n/en.json"

type Messages = typeof en
export type MessageKey = Exclude<keyof Messages, "_meta">

interface LanguageFile {
  readonly _meta: { readonly name: string; readonly dir: "ltr" | "rtl"; readonly locale: string }
}

const isLanguageFile = (value: unknown): value is LanguageFile & Record<string, unknown> =>
  typeof value === "object" && value !== null && "_meta" in value

const files = import.meta.glob<unknown>("./i18n/*.json", { eager: true, import: "default" })

export interface Language {
  readonly code: string
  readonly name: string
  readonly dir: "ltr" | "rtl"
  readonly locale: string
  readonly messages: Record<string, unknown>
}

export const languages: ReadonlyArray<Language> = Object.entries(files).flatMap(([file, value]) => {
  const code = /([^/]+)\.json$/.exec(file)?.[1]
  if (code === undefined || !isLanguageFile(value)) return []
  return [{ code, name: value._meta.name, dir: value._meta.dir, locale: value._meta.locale, messages: value }]
}).sort((a, b) => (a.code === "en" ? -1 : b.code === "en" ? 1 : a.code.localeCompare(b.code)))

export const languageOf = (code: string): Language =>
  languages.find((language) => language.code === code) ?? languages[0]!

export type Params = Record<string, string | number>

export interface Translator {
  readonly language: Language
  /** The text of `key` with `{name}` placeholders filled; numbers written in the language's digits. */
  readonly t: (key: MessageKey, params?: Params) => string
  readonly number: (value: number, options?: Intl.NumberFormatOptions) => string
  readonly date: (value: Date | string | number) => string
  readonly bytes: (value: number) => string
  /** The text of `prefix.value` (a status, a state…), or the value itself when no file names it. */
  readonly word: (prefix: string, value: string) => string
  /** Free text (an answer) with its numbers in the language's digits, as `number` writes them. */
  readonly digits: (text: string) => string
}

/** Latin, Persian and Arabic-Indic digits, by value. */
const anyDigit = /[0-9\u06F0-\u06F9\u0660-\u0669]/g
const digitValue = (digit: string) => {
  const code = digit.charCodeAt(0)
  return code >= 0x06f0 ? code - 0x06f0 : code >= 0x0660 ? code - 0x0660 : code - 48
}

/**
 * Rewrites the digits of words that are numbers (`250,000`, `۳`, `2-5`), not those of words with letters or
 * links (`iPhone15`, `sku-12`, `https://…/12`), which a reader copies as they are.
 */
const localDigits = (glyphs: ReadonlyArray<string>) => (text: string) =>
  text.replace(/\S+/g, (word) =>
    /[\p{L}@]|:\/\//u.test(word.replace(/[\u06F0-\u06F9\u0660-\u0669]/g, ""))
      ? word
      : word.replace(anyDigit, (digit) => glyphs[digitValue(digit)] ?? digit))

export const makeTranslator = (language: Language): Translator => {
  const numbers = new Intl.NumberFormat(language.locale)
  const dates = new Intl.DateTimeFormat(language.locale, { dateStyle: "medium", timeStyle: "short" })
  const number = (value: number, options?: Intl.NumberFormatOptions) =>
    options === undefined ? numbers.format(value) : new Intl.NumberFormat(language.locale, options).format(value)
  const t = (key: MessageKey, params: Params = {}) => {
    const own = language.messages[key]
    const text = typeof own === "string" ? own : en[key]
    return text.replace(/\{(\w+)\}/g, (whole, name: string) => {
      const value = params[name]
      return value === undefined ? whole : typeof value === "number" ? number(value) : value
    })
  }
  const bytes = (value: number) =>
    value < 1024
      ? t("unit.bytes", { n: value })
      : value < 1024 * 1024
      ? t("unit.kb", { n: number(value / 1024, { maximumFractionDigits: 1 }) })
      : t("unit.mb", { n: number(value / (1024 * 1024), { maximumFractionDigits: 1 }) })
  const word = (prefix: string, value: string) => {
    const key = `${prefix}.${value}`
    const own = language.messages[key]
    const fallback: unknown = (en as Record<string, unknown>)[key]
    return typeof own === "string" ? own : typeof fallback === "string" ? fallback : value
  }
  const glyphs = Array.from({ length: 10 }, (_, digit) => numbers.format(digit))
  return { language, t, number, date: (value) => dates.format(new Date(value)), bytes, word, digits: localDigits(glyphs) }
}

export const I18n = createContext<Translator>(makeTranslator(languageOf("en")))
export const useI18n = () => useContext(I18n)
