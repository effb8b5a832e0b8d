/**
 * Text for Telegram in its HTML parse mode: everything the assistant wrote is
 * escaped (so `<`, `>` and `&` never break or inject formatting), long answers
 * are split under the 4,096-character message limit at paragraph, line or word
 * boundaries, and a product becomes a photo caption (1,024 characters at most).
 */
import type { Products } from "@dastyar/domain"

export const messageLimit = 4096
export const captionLimit = 1024

export const escapeHtml = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const escapeAttribute = (text: string) => escapeHtml(text).replace(/"/g, "&quot;")

const escapedLength = (text: string) => escapeHtml(text).length

/** Does not cut a surrogate pair (an emoji) in half. */
const safeCut = (text: string, at: number) =>
  at > 0 && at < text.length && /[\uD800-\uDBFF]/.test(text[at - 1] ?? "") ? at - 1 : at

/** The longest prefix of `text` whose escaped form fits `limit`. */
const fittingPrefix = (text: string, limit: number) => {
  let length = 0
  let index = 0
  for (; index < text.length; index++) {
    const ch = text[index] ?? ""
    const size = ch === "&" ? 5 : ch === "<" || ch === ">" ? 4 : 1
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
export const splitMessage = (text: string, limit: number = messageLimit): Array<string> => {
  const parts: Array<string> = []
  let rest = text.trim()
  while (rest.length > 0) {
    if (escapedLength(rest) <= limit) {
      parts.push(escapeHtml(rest))
      break
    }
    const window = fittingPrefix(rest, limit)
    const slice = rest.slice(0, window)
    const floor = Math.floor(window / 2)
    const boundary = [slice.lastIndexOf("\n\n"), slice.lastIndexOf("\n"), slice.lastIndexOf(" ")]
      .find((at) => at >= floor)
    const cut = boundary === undefined ? window : boundary
    parts.push(escapeHtml(rest.slice(0, cut).trimEnd()))
    rest = rest.slice(cut).trimStart()
  }
  return parts.filter((part) => part.length > 0)
}

const formatPrice = (price: number, currency: string | null) =>
  `${price.toLocaleString("en-US", { maximumFractionDigits: 2 })}${currency === null ? "" : ` ${currency}`}`

type ShownProduct = Pick<Products.Product, "title" | "price" | "currency" | "url">

/** `<b>title</b>`, the price, and a link: within the caption limit (the title is shortened first). */
export const productCaption = (product: ShownProduct, linkLabel: string): string => {
  const price = product.price === null ? [] : [escapeHtml(formatPrice(product.price, product.currency))]
  // A link too long for a caption is left out rather than cut.
  const link = product.url === null || product.url.length > captionLimit / 2
    ? []
    : [`<a href="${escapeAttribute(product.url)}">${escapeHtml(linkLabel)}</a>`]
  const tail = [...price, ...link]
  const room = captionLimit - tail.reduce((sum, line) => sum + line.length + 1, 0) - "<b></b>".length
  const title = product.title.trim()
  const shortTitle = escapedLength(title) <= room
    ? title
    : `${title.slice(0, fittingPrefix(title, Math.max(0, room - 1)))}…`
  return [`<b>${escapeHtml(shortTitle)}</b>`, ...tail].join("\n")
}
