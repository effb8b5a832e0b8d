/**
 * What never leaves the process in a span or a log line: credential-bearing
 * headers (by name) and credentials inside URLs (a bot token in the path, a
 * key in the query, a password in the user info). One rule, used by the server
 * spans (header names), the upstream client (URLs) and any future driver.
 */
import { Headers } from "@effect/platform"
import * as Layer from "effect/Layer"

/**
 * Header names whose values are secrets: Effect's four defaults, and any name
 * that speaks of a token, secret, signature, password, credential, key or auth
 * (`x-telegram-bot-api-secret-token`, `x-dastyar-signature`, `x-hub-signature-256`,
 * `proxy-authorization`, `x-goog-api-key`, …).
 */
export const credentialHeaders: ReadonlyArray<string | RegExp> = [
  "authorization",
  "cookie",
  "set-cookie",
  "x-api-key",
  /token|secret|signature|password|passwd|credential|api[-_]?key|auth|session/i
]

/** Applies `credentialHeaders` to every span the platform makes (server and client), for the layers built after it. */
export const layerRedactHeaders = Layer.fiberRefLocallyScopedWith(
  Headers.currentRedactedNames,
  (names) => [...names, ...credentialHeaders]
)

export const redacted = "<redacted>"

/** Query parameters whose values are secrets, by the same words as the header names. */
const credentialParameter = /token|secret|signature|^sig$|password|passwd|credential|api[-_]?key|^key$|auth|session/i

/**
 * Path segments that carry a credential: the Bot API's `/bot<id>:<secret>/` (Telegram,
 * Bale and other Bot API servers put the bot token in every URL, files included).
 */
const credentialSegment = /\/bot[0-9]+:[^/?#]*/g

/** User info and query values whose names speak of a secret, replaced (URL-encoded) in a parsable URL. */
const redactParts = (url: string): string => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return url
  }
  let changed = false
  if (parsed.username !== "" || parsed.password !== "") {
    parsed.username = redacted
    parsed.password = ""
    changed = true
  }
  for (const name of new Set(parsed.searchParams.keys())) {
    if (!credentialParameter.test(name)) continue
    parsed.searchParams.set(name, redacted)
    changed = true
  }
  return changed ? parsed.toString() : url
}

/**
 * The URL with its credentials replaced by `<redacted>`: `/bot<token>/` path
 * segments, user info, and query values whose names speak of a secret. A string
 * that is not a URL (a path alone) has its path segments redacted all the same.
 */
export const redactUrl = (url: string): string => redactParts(url).replace(credentialSegment, `/bot${redacted}`)

/** Whether `url` carries a credential `redactUrl` would hide. */
export const hasCredential = (url: string): boolean => redactUrl(url) !== url
