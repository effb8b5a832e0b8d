/**
 * Kinds the server is certain to refuse (415 for the whole request), told by
 * their first bytes. `file-type` recognises the kind; this module keeps only
 * what it cannot decide: which kinds the server reads, whether a zip is a
 * Word document (its directory is at the end of the file), and whether
 * unrecognised bytes are text (UTF-8 or UTF-16, with or without BOM) or binary
 * data. The server has the last word; this only keeps a refused file from
 * failing the other files sent in the same request.
 */
import { fileTypeFromBuffer } from "file-type"

/** Extensions (as file-type names them) of the kinds the server reads. */
const readable = new Set([
  "pdf",
  "docx",
  // Legacy Word (.doc) is an OLE compound file; the server tells it from other OLE files.
  "cfb",
  "png",
  "jpg",
  "gif",
  "tif",
  "bmp",
  "webp",
  "mp3",
  "wav",
  "ogg",
  "oga",
  "opus",
  "flac",
  "m4a",
  "aac",
  // WebM audio is read; the server refuses a WebM with a video track itself.
  "webm"
])

const executables = new Set(["elf", "exe", "macho", "wasm", "class", "dll"])
const archives = new Set(["gz", "bz2", "xz", "7z", "rar", "zst", "tar", "lz", "lzh", "cab", "ar", "rpm", "deb", "dmg"])

const isUtf16Bom = (bytes: Uint8Array) =>
  (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)

/** Text in UTF-16 without a BOM has its zero bytes all on even or all on odd offsets. */
const zerosLookLikeUtf16 = (bytes: Uint8Array) => {
  const parities = new Set<number>()
  bytes.forEach((byte, index) => {
    if (byte === 0) parities.add(index % 2)
  })
  return parities.size === 1 && bytes.length >= 2
}

/**
 * Text that happens to start like a signature (`MZ Motors…`, `Rar!…`) is text:
 * no zero bytes and valid UTF-8 (a character cut at the end of `head` is fine).
 */
const isUtf8Text = (bytes: Uint8Array) => {
  if (bytes.includes(0)) return false
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes, { stream: true })
    return true
  } catch {
    return false
  }
}

/** UTF-8 text, or UTF-16 text (a BOM, or zero bytes on one parity only, as ASCII letters in UTF-16 have). */
const looksLikeText = (bytes: Uint8Array) => isUtf8Text(bytes) || isUtf16Bom(bytes) || zerosLookLikeUtf16(bytes)

/** The refusal reason for a kind file-type recognised, or undefined when the server reads it. */
const refusalOfKind = (ext: string, mime: string, tail: Uint8Array): string | undefined => {
  if (readable.has(ext)) return undefined
  if (ext === "zip") {
    return new TextDecoder("latin1").decode(tail).includes("word/document.xml")
      ? undefined
      : "a zip archive that is not a Word document"
  }
  if (executables.has(ext)) return `an executable (${ext.toUpperCase()})`
  if (archives.has(ext)) return `an archive (${ext})`
  if (mime.startsWith("video/")) return `a video (${ext.toUpperCase()})`
  if (ext === "sqlite") return "a database (SQLite)"
  return `a ${ext.toUpperCase()} file (${mime}), a kind the server does not read`
}

/**
 * Why the server would refuse a file, from its first bytes (`head`, 4 KB is
 * plenty) and, for zips, its last bytes (`tail`, where the zip directory is).
 * Undefined when it may be accepted.
 */
export const refusalOf = async (head: Uint8Array, tail: Uint8Array): Promise<string | undefined> => {
  const kind = await fileTypeFromBuffer(head)
  if (kind !== undefined) {
    const refusal = refusalOfKind(kind.ext, kind.mime, tail)
    return refusal !== undefined && looksLikeText(head) ? undefined : refusal
  }
  return looksLikeText(head) ? undefined : "binary data of no supported kind"
}
