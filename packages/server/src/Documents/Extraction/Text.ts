/** Uploaded text files in the charset the sniffer found; HTML pages are reduced to their text. */
import { charsetOf } from "../FileKind"
import { htmlToText, looksLikeHtml } from "./Html"

// The sniffer already proved the bytes valid in this charset; the decoder drops a byte-order mark.
export const decodeText = (bytes: Uint8Array, mimeType: string): string =>
  new TextDecoder(charsetOf(mimeType)).decode(bytes)

export const extractText = (bytes: Uint8Array, mimeType: string): string => {
  const text = decodeText(bytes, mimeType)
  return looksLikeHtml(text) ? htmlToText(text) : text
}
