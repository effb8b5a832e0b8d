/**
 * The website widget's connection settings (`driver: "web"`): which sites may
 * embed it, how it looks and how much one visitor or the whole site may ask.
 * Kept apart from `Web.ts` (the browser's routes) because `Channels.ts` needs
 * these shapes and `Web.ts` needs `Channels.ts`.
 */
import * as Schema from "effect/Schema"
import * as Constraint from "./Constraint"

/** An origin as a browser sends it: scheme, host and optional port, nothing else. */
export const Origin = Constraint.pattern(/^https?:\/\/[^\s/?#]+\/?$/i, "constraint.origin").pipe(
  Schema.maxLength(300)
).annotations({
  description: "`https://shop.example` or `http://localhost:8080`: no path; stored in the form browsers send"
})

export const WidgetLanguage = Constraint.oneOf("fa", "en")
export type WidgetLanguage = typeof WidgetLanguage.Type

const Colour = Constraint.pattern(/^#[0-9a-fA-F]{6}$/, "constraint.colour")

export const WebRateLimits = Schema.Struct({
  perIpPerMinute: Constraint.intBetween(1, 10_000).annotations({
    description: "Requests per minute one client IP may make to this connection (all browser routes together)"
  }),
  perConnectionPerMinute: Constraint.intBetween(1, 1_000_000).annotations({
    description: "Requests per minute of all visitors of this connection together"
  })
}).annotations({ identifier: "WebRateLimits" })
export type WebRateLimits = typeof WebRateLimits.Type

/** The stored settings, every field set. */
export const WebSettings = Schema.Struct({
  allowedOrigins: Constraint.arrayOf(Origin, { min: 1, max: 20 }).annotations({
    description: "Sites that may embed the widget, matched exactly (scheme, host, port) after normalisation"
  }),
  title: Constraint.text({ min: 1, max: 80 }),
  greeting: Constraint.text({ max: 500 }),
  colour: Colour.annotations({ description: "The shop's colour, `#rrggbb`" }),
  defaultLanguage: WidgetLanguage.annotations({
    description: "The widget's language unless the page's `lang` is Persian or the visitor switches"
  }),
  showProducts: Constraint.Boolean,
  showSources: Constraint.Boolean,
  rateLimits: WebRateLimits
}).annotations({ identifier: "WebSettings" })
export type WebSettings = typeof WebSettings.Type

/** Defaults of every optional setting at creation. */
export const defaultWebSettings = {
  title: "Assistant",
  greeting: "",
  colour: "#0f766e",
  defaultLanguage: "en",
  showProducts: true,
  showSources: true,
  rateLimits: { perIpPerMinute: 30, perConnectionPerMinute: 600 }
} as const satisfies Omit<WebSettings, "allowedOrigins">

const optionalSettings = {
  title: Schema.optional(WebSettings.fields.title),
  greeting: Schema.optional(WebSettings.fields.greeting),
  colour: Schema.optional(WebSettings.fields.colour),
  defaultLanguage: Schema.optional(WebSettings.fields.defaultLanguage),
  showProducts: Schema.optional(WebSettings.fields.showProducts),
  showSources: Schema.optional(WebSettings.fields.showSources),
  rateLimits: Schema.optional(WebRateLimits)
}

export const WebConnectionCreate = Schema.Struct({
  driver: Schema.Literal("web"),
  allowedOrigins: WebSettings.fields.allowedOrigins,
  ...optionalSettings
}).annotations({ identifier: "WebConnectionCreate" })
export type WebConnectionCreate = typeof WebConnectionCreate.Type

/** A shop owner's web connection (the key-protected routes): the kind is implied. */
export const WebSettingsCreate = Schema.Struct({
  allowedOrigins: WebSettings.fields.allowedOrigins,
  ...optionalSettings
}).annotations({ identifier: "WebSettingsCreate", parseOptions: { errors: "all" } })
export type WebSettingsCreate = typeof WebSettingsCreate.Type

/** A change of some settings; fields not sent keep their value. */
export const WebSettingsUpdate = Schema.Struct({
  allowedOrigins: Schema.optional(WebSettings.fields.allowedOrigins),
  ...optionalSettings
}).annotations({ identifier: "WebSettingsUpdate", parseOptions: { errors: "all" } })
export type WebSettingsUpdate = typeof WebSettingsUpdate.Type

/**
 * `https://Shop.Example:443/` → `https://shop.example`: the form browsers send
 * in `Origin` (lower-case scheme and host, no default port, no path).
 */
export const normaliseOrigin = (origin: string): string | undefined => {
  try {
    const url = new URL(origin)
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined
    return url.origin
  } catch {
    return undefined
  }
}
