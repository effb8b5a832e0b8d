/**
 * Splits extracted text into retrieval chunks that follow its structure:
 * a Markdown heading starts a new chunk (and is repeated in front of every
 * chunk of its section), paragraphs are kept whole when they fit, longer ones
 * are cut at sentence ends (`.` `!` `?` `؟` `؛` `;` `…`), then at clause marks
 * (`,` `،` `:`), then between words. Chunks are at most `maxChars` long; a
 * chunk that continues the previous one inside a section repeats up to
 * `overlapChars` of its last sentences. The result depends on the text alone,
 * so chunk numbers 0..n-1 are stable for a document version.
 */

export interface ChunkOptions {
  readonly maxChars: number
  readonly overlapChars: number
}

export const defaultChunkOptions: ChunkOptions = { maxChars: 1200, overlapChars: 200 }

const heading = /^(#{1,6})\s+(.+)$/

const sentenceEnd = /(?<=[.!?؟؛;…])\s+/u
const clauseEnd = /(?<=[,،:])\s+/u

/** Pieces of `text` cut after `separator`, each at most `max` long (words, then characters, as a last resort). */
const splitBounded = (text: string, max: number, separators: ReadonlyArray<RegExp>): Array<string> => {
  if (text.length <= max) return [text]
  const [separator, ...finer] = separators
  if (separator === undefined) {
    const words = text.split(/\s+/)
    if (words.length === 1) {
      const pieces: Array<string> = []
      for (let i = 0; i < text.length; i += max) pieces.push(text.slice(i, i + max))
      return pieces
    }
    return packPieces(words.flatMap((word) => splitBounded(word, max, [])), max, " ")
  }
  const parts = text.split(separator).filter((part) => part.length > 0)
  if (parts.length === 1) return splitBounded(text, max, finer)
  return packPieces(parts.flatMap((part) => splitBounded(part, max, finer)), max, " ")
}

/** Greedily joins consecutive pieces while they fit in `max`. */
const packPieces = (pieces: ReadonlyArray<string>, max: number, joiner: string): Array<string> => {
  const packed: Array<string> = []
  let current = ""
  for (const piece of pieces) {
    if (current.length === 0) current = piece
    else if (current.length + joiner.length + piece.length <= max) current += joiner + piece
    else {
      packed.push(current)
      current = piece
    }
  }
  if (current.length > 0) packed.push(current)
  return packed
}

/** The last sentences of `text` that fit in `max` characters (or its last words when one sentence is longer). */
const tailOf = (text: string, max: number): string => {
  if (max <= 0) return ""
  const sentences = text.split(sentenceEnd)
  let tail = ""
  for (let i = sentences.length - 1; i >= 0; i--) {
    const candidate = tail.length === 0 ? sentences[i] : `${sentences[i]} ${tail}`
    if (candidate.length > max) break
    tail = candidate
  }
  if (tail.length > 0 && tail.length < text.length) return tail
  const cut = text.slice(-max)
  const space = cut.search(/\s/)
  return space < 0 ? "" : cut.slice(space + 1)
}

interface Block {
  readonly headingLevel: number | undefined
  readonly text: string
}

const blocksOf = (text: string): Array<Block> => {
  const blocks: Array<Block> = []
  for (const raw of text.split(/\n\s*\n/)) {
    const lines = raw.split("\n").map((line) => line.replace(/\s+$/, ""))
    let paragraph: Array<string> = []
    const flush = () => {
      const joined = paragraph.join("\n").trim()
      if (joined.length > 0) blocks.push({ headingLevel: undefined, text: joined })
      paragraph = []
    }
    for (const line of lines) {
      const match = heading.exec(line.trim())
      if (match) {
        flush()
        blocks.push({ headingLevel: match[1].length, text: match[2].trim() })
      } else {
        paragraph.push(line)
      }
    }
    flush()
  }
  return blocks
}

export const chunkText = (text: string, options: ChunkOptions = defaultChunkOptions): ReadonlyArray<string> => {
  const normalized = text.replace(/\r\n?/g, "\n").replace(/\u0000/g, "")
  const chunks: Array<string> = []
  const trail: Array<{ readonly level: number; readonly text: string }> = []
  let prefix = ""
  let body = ""

  const emit = () => {
    if (body.trim().length > 0) chunks.push(prefix + body)
    body = ""
  }

  for (const block of blocksOf(normalized)) {
    if (block.headingLevel !== undefined) {
      emit()
      while (trail.length > 0 && trail[trail.length - 1].level >= block.headingLevel) trail.pop()
      trail.push({ level: block.headingLevel, text: block.text })
      // The heading trail goes in front of each chunk of the section, within the size bound.
      prefix = `${trail.map((entry) => entry.text).join(" › ")}\n\n`.slice(0, Math.floor(options.maxChars / 4))
      continue
    }
    const room = options.maxChars - prefix.length
    for (const piece of splitBounded(block.text, room, [sentenceEnd, clauseEnd])) {
      const joined = body.length === 0 ? piece : `${body}\n\n${piece}`
      if (joined.length <= room) {
        body = joined
        continue
      }
      const overlap = tailOf(body, Math.min(options.overlapChars, room - piece.length - 2))
      emit()
      body = overlap.length > 0 ? `${overlap}\n\n${piece}` : piece
    }
  }
  emit()
  return chunks
}
