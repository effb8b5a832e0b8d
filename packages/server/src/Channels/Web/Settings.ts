/**
 * A web connection's settings from what the operator sent: defaults for the
 * options left out, origins in the form browsers send them (so the check is
 * an exact comparison), each once. Pure.
 */
import { WebSettings } from "@dastyar/domain"

const uniqueOrigins = (origins: ReadonlyArray<string>) =>
  Array.from(new Set(origins.map((origin) => WebSettings.normaliseOrigin(origin) ?? origin)))

/** Settings of a new connection. */
export const fromCreate = (input: WebSettings.WebConnectionCreate): WebSettings.WebSettings => ({
  allowedOrigins: uniqueOrigins(input.allowedOrigins),
  title: input.title ?? WebSettings.defaultWebSettings.title,
  greeting: input.greeting ?? WebSettings.defaultWebSettings.greeting,
  colour: input.colour ?? WebSettings.defaultWebSettings.colour,
  defaultLanguage: input.defaultLanguage ?? WebSettings.defaultWebSettings.defaultLanguage,
  showProducts: input.showProducts ?? WebSettings.defaultWebSettings.showProducts,
  showSources: input.showSources ?? WebSettings.defaultWebSettings.showSources,
  rateLimits: input.rateLimits ?? WebSettings.defaultWebSettings.rateLimits
})

/** The stored settings with the fields the update sends replaced. */
export const applyUpdate = (
  settings: WebSettings.WebSettings,
  update: WebSettings.WebSettingsUpdate
): WebSettings.WebSettings => ({
  allowedOrigins: update.allowedOrigins === undefined ? settings.allowedOrigins : uniqueOrigins(update.allowedOrigins),
  title: update.title ?? settings.title,
  greeting: update.greeting ?? settings.greeting,
  colour: update.colour ?? settings.colour,
  defaultLanguage: update.defaultLanguage ?? settings.defaultLanguage,
  showProducts: update.showProducts ?? settings.showProducts,
  showSources: update.showSources ?? settings.showSources,
  rateLimits: update.rateLimits ?? settings.rateLimits
})

/** Whether a request's `Origin` header may use the connection: exact match after normalisation. */
export const originAllowed = (settings: WebSettings.WebSettings, origin: string | undefined) => {
  if (origin === undefined) return false
  const normalised = WebSettings.normaliseOrigin(origin)
  return normalised !== undefined && settings.allowedOrigins.includes(normalised)
}

/** The line a shop pastes into its pages. */
export const embedSnippet = (publicUrl: string, code: string) =>
  `<script src="${publicUrl}/widget.js" data-connection="${code}" async></script>`
