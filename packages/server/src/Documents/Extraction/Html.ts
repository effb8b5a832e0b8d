/**
 * HTML (from DOCX conversion or an uploaded .html) as plain text that keeps
 * its structure for the chunker: headings become Markdown `#` lines, blocks
 * become paragraphs, list items `- ` lines.
 */
const entities: Readonly<Record<string, string>> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: "\"",
  apos: "'",
  nbsp: " ",
  zwnj: "\u200c",
  rlm: "\u200f",
  lrm: "\u200e"
}

const decodeEntities = (text: string) =>
  text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, name: string) => {
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(Number.parseInt(name.slice(2), 16))
    if (name.startsWith("#")) return String.fromCodePoint(Number.parseInt(name.slice(1), 10))
    return entities[name.toLowerCase()] ?? whole
  })

export const looksLikeHtml = (text: string) => /^\s*(<!doctype html|<html[\s>])/i.test(text)

export const htmlToText = (html: string): string =>
  decodeEntities(
    html
      .replace(/<(script|style|head|template)[\s\S]*?<\/\1\s*>/gi, "")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<h([1-6])[^>]*>/gi, (_, level: string) => `\n\n${"#".repeat(Number(level))} `)
      .replace(/<li[^>]*>/gi, "\n- ")
      .replace(/<br\s*\/?>/gi, "\n")
      .replace(/<\/(p|div|h[1-6]|li|ul|ol|table|tr|blockquote|pre|section|article|header|footer)\s*>/gi, "\n\n")
      .replace(/<\/t[dh]\s*>/gi, "\t")
      .replace(/<[^>]+>/g, "")
  )
    .replace(/[ \t]+\n/g, "\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()
