/**
 * Message catalogs and the request's negotiated locale.
 *
 * The locale travels in a FiberRef (not the Context) so that the envelope
 * schemas can read it while encoding a response, wherever that happens.
 */
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { globalValue } from "effect/GlobalValue"
import { type Catalog, en, type MessageKey } from "./en"
import { fa } from "./fa"

export type { Catalog, MessageKey }

export const catalogs = { en, fa } satisfies Record<string, Catalog>
export type Locale = keyof typeof catalogs
export const defaultLocale: Locale = "en"

export const CurrentLocale: FiberRef.FiberRef<Locale> = globalValue(
  "@dastyar/domain/CurrentLocale",
  () => FiberRef.unsafeMake<Locale>(defaultLocale)
)

const isMessageKey = (key: string): key is MessageKey => key in en
const isLocale = (tag: string): tag is Locale => tag in catalogs

const pluralRules = Object.fromEntries(
  Object.keys(catalogs).map((locale) => [locale, new Intl.PluralRules(locale)])
) as Record<Locale, Intl.PluralRules>

/**
 * Fills `{name}` placeholders, and `{name:one|other}` with the form for that count under the locale's plural
 * rules; unknown placeholders are left as written.
 */
const interpolate = (locale: Locale, template: string, params: Readonly<Record<string, string>>) =>
  template.replace(/\{(\w+)(?::([^|}]*)\|([^}]*))?\}/g, (whole, name: string, one?: string, other?: string) => {
    const value = params[name]
    if (value === undefined) return whole
    if (one === undefined || other === undefined) return value
    return pluralRules[locale].select(Number(value)) === "one" ? one : other
  })

/**
 * Translates a message key, or a constraint token (see `Constraint.token`).
 * Text that is neither is returned unchanged, so already-translated text
 * (e.g. decoded by a client) passes through.
 */
export const translate = (locale: Locale, text: string): string => {
  const { key, params } = parseToken(text)
  return isMessageKey(key) ? interpolate(locale, catalogs[locale][key], params) : text
}

export const translateCurrent = (text: string): Effect.Effect<string> =>
  Effect.map(FiberRef.get(CurrentLocale), (locale) => translate(locale, text))

/** `key?{"max":"191"}` — a message key with parameters, carried through schema messages. */
export const token = (key: MessageKey, params?: Readonly<Record<string, string | number>>): string =>
  params === undefined ? key : `${key}?${JSON.stringify(params)}`

const parseToken = (text: string): { key: string; params: Readonly<Record<string, string>> } => {
  const at = text.indexOf("?")
  if (at < 0) return { key: text, params: {} }
  try {
    const parsed: unknown = JSON.parse(text.slice(at + 1))
    if (typeof parsed !== "object" || parsed === null) return { key: text, params: {} }
    const params: Record<string, string> = {}
    for (const [name, value] of Object.entries(parsed)) params[name] = String(value)
    return { key: text.slice(0, at), params }
  } catch {
    return { key: text, params: {} }
  }
}

/**
 * Picks the best supported locale from an `Accept-Language` header
 * (q-values honoured, region subtags ignored: `fa-IR` is `fa`).
 */
export const negotiate = (header: string | undefined): Locale => {
  if (!header) return defaultLocale
  const ranked = header
    .split(",")
    .map((part, index) => {
      const [tag = "", ...rest] = part.trim().split(";")
      const q = rest.map((p) => p.trim()).find((p) => p.startsWith("q="))
      const weight = q === undefined ? 1 : Number(q.slice(2))
      return { lang: tag.toLowerCase().split("-")[0] ?? "", weight: Number.isFinite(weight) ? weight : 0, index }
    })
    .filter((entry) => entry.weight > 0)
    .sort((a, b) => b.weight - a.weight || a.index - b.index)
  return ranked.map((entry) => entry.lang).find(isLocale) ?? defaultLocale
}
