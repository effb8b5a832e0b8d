/**
 * Abbreviations a document defines ("Personal training (PT)", "Value added tax (VAT)"): a sentence further on
 * that writes only the short form ("PT sessions are valid for …") is about the words it stands for, so a
 * question asking with those words finds it.
 */

/** A run of up to five words and a capitalised short form in brackets after it. */
const defined = /((?:[\p{L}'-]+\s+){1,5})\((\p{Lu}{2,5})s?\)/gu

/**
 * Short forms defined in `texts` and the words they stand for: the last words before the brackets whose
 * initials spell the short form ("Personal training (PT)" → "PT": "Personal training").
 */
export const abbreviationsIn = (texts: ReadonlyArray<string>): ReadonlyMap<string, string> => {
  const found = new Map<string, string>()
  for (const text of texts) {
    for (const match of text.matchAll(defined)) {
      const short = match[2] ?? ""
      const words = (match[1] ?? "").trim().split(/\s+/u)
      const spelled = words.slice(-short.length)
      const initials = spelled.map((word) => word.charAt(0).toUpperCase()).join("")
      if (spelled.length === short.length && initials === short) found.set(short, spelled.join(" "))
    }
  }
  return found
}

/** The words the short forms in `text` stand for, to be read with it; empty when it writes none. */
export const spelledOut = (text: string, abbreviations: ReadonlyMap<string, string>): string => {
  if (abbreviations.size === 0) return ""
  const out: Array<string> = []
  for (const [short, long] of abbreviations) {
    if (new RegExp(`(?:^|[^\\p{L}])${short}s?(?![\\p{L}])`, "u").test(text)) out.push(long)
  }
  return out.join(" ")
}
