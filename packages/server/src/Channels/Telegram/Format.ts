/**
 * Message text for the Bot API platforms, in the platform's markup: for
 * Telegram's HTML parse mode everything the assistant wrote is escaped (so `<`,
 * `>` and `&` never break or inject formatting); for plain text (Bale) it goes
 * as written. Long answers are split under the platform's message limit at
 * paragraph, line or word boundaries, and a product becomes a caption within
 * the caption limit.
 */
import type { Products } from "@dastyar/domain"
import type { BotPlatform } from "../BotPlatform"

/** Telegram's limits, the defaults. */
export const messageLimit = 4096
export const captionLimit = 1024

export type Markup = BotPlatform["markup"]

export const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const escapeAttribute = (text: string) => escapeHtml(text).replace(/"/g, "&quot;")

const escapeFor = (markup: Markup) => markup === "html" ? escapeHtml : (text: string) => text

/** Length of one character once escaped. */
const sizeOf = (markup: Markup, ch: string) =>
  markup === "plain" ? 1 : ch === "&" ? 5 : ch === "<" || ch === ">" ? 4 : 1

/** Does not cut a surrogate pair (an emoji) in half. */
const safeCut = (text: string, at: number) =>
  at > 0 && at < text.length && /[\uD800-\uDBFF]/.test(text[at - 1] ?? "") ? at - 1 : at

/** The longest prefix of `text` whose escaped form fits `limit`. */
const fittingPrefix = (text: string, limit: number, markup: Markup) => {
  let length = 0
  let index = 0
  for (; index < text.length; index++) {
    const size = sizeOf(markup, text[index] ?? "")
    if (length + size > limit) break
    length += size
  }
  return safeCut(text, index)
}

/**
 * Splits `text` into escaped messages of at most `limit` characters, cutting
 * at the last paragraph break, else line break, else space, in the second half
 * of the window (a hard cut only when there is none).
 */
export const splitMessage = (text: string, limit: number = messageLimit, markup: Markup = "html"): Array<string> => {
  const escape = escapeFor(markup)
  const parts: Array<string> = []
  let rest = text.trim()
  while (rest.length > 0) {
    if (escape(rest).length <= limit) {
      parts.push(escape(rest))
      break
    }
    const window = fittingPrefix(rest, limit, markup)
    const slice = rest.slice(0, window)
    const floor = Math.floor(window / 2)
    const boundary = [slice.lastIndexOf("\n\n"), slice.lastIndexOf("\n"), slice.lastIndexOf(" ")]
      .find((at) => at >= floor)
    const cut = boundary === undefined ? window : boundary
    parts.push(escape(rest.slice(0, cut).trimEnd()))
    rest = rest.slice(cut).trimStart()
  }
  return parts.filter((part) => part.length > 0)
}

export const formatPrice = (price: number, currency: string | null) =>
  `${price.toLocaleString("en-US", { maximumFractionDigits: 2 })}${currency === null ? "" : ` ${currency}`}`

type ShownProduct = Pick<Products.Product, "title" | "price" | "currency" | "url">

/**
 * The title (bold in HTML), the price, and a link, within `limit` (the title
 * is shortened first): `<a>` in HTML, the label and the bare URL in plain text.
 */
export const productCaption = (
  product: ShownProduct,
  linkLabel: string,
  markup: Markup = "html",
  limit: number = captionLimit
): string => {
  const escape = escapeFor(markup)
  const price = product.price === null ? [] : [escape(formatPrice(product.price, product.currency))]
  // A link too long for a caption is left out rather than cut.
  const link = product.url === null || product.url.length > limit / 2
    ? []
    : [
      markup === "html"
        ? `<a href="${escapeAttribute(product.url)}">${escapeHtml(linkLabel)}</a>`
        : `${linkLabel}: ${product.url}`
    ]
  const tail = [...price, ...link]
  const wrapper = markup === "html" ? "<b></b>".length : 0
  const room = limit - tail.reduce((sum, line) => sum + line.length + 1, 0) - wrapper
  const title = product.title.trim()
  const shortTitle = escape(title).length <= room
    ? title
    : `${title.slice(0, fittingPrefix(title, Math.max(0, room - 1), markup))}…`
  const head = markup === "html" ? `<b>${escapeHtml(shortTitle)}</b>` : shortTitle
  return [head, ...tail].join("\n")
}
