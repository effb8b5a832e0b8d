/** Uploaded text files in the charset the sniffer found; HTML pages are reduced to their text. */
import { charsetOf } from "../FileKind"
import { htmlToText, looksLikeHtml } from "./Html"

export const extractText = (bytes: Uint8Array, mimeType: string): string => {
  // The sniffer already proved the bytes valid in this charset; the decoder drops a byte-order mark.
  const text = new TextDecoder(charsetOf(mimeType)).decode(bytes)
  return looksLikeHtml(text) ? htmlToText(text) : text
}
