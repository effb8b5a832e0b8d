/**
 * What an uploaded file really is, judged by its bytes only (never its name
 * or `Content-Type`): `file-type` for the magic numbers (a `.docx` among
 * zips included), plus the checks it cannot make: a `.doc` is an OLE
 * compound file with a `WordDocument` stream, an MP4 or WebM counts as audio
 * only when it has no video track, and text is valid UTF-8 or UTF-16 without
 * binary control bytes. Files are read in bounded pieces, never whole.
 */
import chardet from "chardet"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { fileTypeFromFile } from "file-type"
import * as fs from "node:fs/promises"

export type FileKind = "text" | "pdf" | "docx" | "doc" | "image" | "audio"

export type Sniffed =
  | { readonly _tag: "Supported"; readonly kind: FileKind; readonly mimeType: string }
  | { readonly _tag: "Unsupported"; readonly detected: string }

const supported = (kind: FileKind, mimeType: string): Sniffed => ({ _tag: "Supported", kind, mimeType })
const unsupported = (detected: string): Sniffed => ({ _tag: "Unsupported", detected })

const imageTypes = new Set(["png", "jpg", "webp", "gif", "tif", "bmp"])
const audioTypes = new Set(["mp3", "wav", "ogg", "oga", "opus", "m4a", "aac", "flac"])

const pieceBytes = 1024 * 1024

/** Calls `visit` with consecutive pieces of the file, each with `overlap` bytes of the previous one in front. */
const scanFile = async (
  handle: fs.FileHandle,
  options: { readonly overlap: number; readonly limit?: number },
  visit: (piece: Buffer, offset: number) => boolean
) => {
  const { size } = await handle.stat()
  const end = Math.min(size, options.limit ?? size)
  const buffer = Buffer.alloc(pieceBytes + options.overlap)
  let carried = 0
  for (let position = 0; position < end;) {
    const { bytesRead } = await handle.read(buffer, carried, Math.min(pieceBytes, end - position), position)
    if (bytesRead === 0) return
    const piece = buffer.subarray(0, carried + bytesRead)
    if (visit(piece, position - carried)) return
    position += bytesRead
    carried = Math.min(options.overlap, piece.length)
    piece.copyWithin(0, piece.length - carried)
  }
}

const readAt = async (handle: fs.FileHandle, position: number, length: number) => {
  const buffer = Buffer.alloc(length)
  const { bytesRead } = await handle.read(buffer, 0, length, position)
  return buffer.subarray(0, bytesRead)
}

const utf16Name = (name: string) => Buffer.from(`${name}\u0000`, "utf16le")
const wordDocumentName = utf16Name("WordDocument")
const encryptedPackageName = utf16Name("EncryptedPackage")

/**
 * Finds the streams of an OLE compound file by their directory entries, which
 * sit at 128-byte boundaries: name (UTF-16LE), name length at 0x40, type 2
 * (stream) at 0x42, start sector at 0x74.
 */
const oleStreams = async (handle: fs.FileHandle) => {
  const found = new Map<string, { readonly startSector: number; readonly size: number }>()
  await scanFile(handle, { overlap: 0 }, (piece, offset) => {
    for (let at = (128 - (offset % 128)) % 128; at + 128 <= piece.length; at += 128) {
      const names = [["WordDocument", wordDocumentName], ["EncryptedPackage", encryptedPackageName]] as const
      for (const [name, bytes] of names) {
        if (
          piece.readUInt16LE(at + 0x40) === bytes.length && piece[at + 0x42] === 2 &&
          piece.subarray(at, at + bytes.length).equals(bytes)
        ) {
          found.set(name, { startSector: piece.readUInt32LE(at + 0x74), size: piece.readUInt32LE(at + 0x78) })
        }
      }
    }
    return false
  })
  return found
}

/**
 * Whether a Word 97-2003 file is password-protected: `fEncrypted` (0x0100) in
 * the flags of the File Information Block that opens the `WordDocument` stream.
 */
export const isEncryptedWordFile = async (handle: fs.FileHandle, startSector: number): Promise<boolean> => {
  const header = await readAt(handle, 0, 0x20)
  if (header.length < 0x20) return false
  const sectorSize = 1 << header.readUInt16LE(0x1e)
  const fib = await readAt(handle, (startSector + 1) * sectorSize, 0x0c)
  return fib.length === 0x0c && fib.readUInt16LE(0) === 0xa5ec && (fib.readUInt16LE(0x0a) & 0x0100) !== 0
}

/** Looks for the `hdlr` boxes of an MP4: a `vide` handler means a video track. */
const mp4Handlers = async (handle: fs.FileHandle) => {
  const handlers = new Set<string>()
  const marker = Buffer.from("hdlr")
  await scanFile(handle, { overlap: 16 }, (piece) => {
    for (let at = piece.indexOf(marker); at >= 0 && at + 16 <= piece.length; at = piece.indexOf(marker, at + 1)) {
      handlers.add(piece.subarray(at + 12, at + 16).toString("latin1"))
    }
    return false
  })
  return handlers
}

const matroskaCluster = Buffer.from([0x1f, 0x43, 0xb6, 0x75])
const isUpperLetter = (byte: number | undefined) => byte !== undefined && byte >= 0x41 && byte <= 0x5a

/**
 * The track types of a WebM/Matroska file from its CodecID elements (0x86, a
 * one-byte size, then `V_…` or `A_…`), read up to the first cluster: the
 * track headers come before the media data.
 */
const matroskaTrackTypes = async (handle: fs.FileHandle) => {
  const types = new Set<"video" | "audio">()
  await scanFile(handle, { overlap: 5, limit: pieceBytes }, (piece) => {
    const cluster = piece.indexOf(matroskaCluster)
    const end = cluster < 0 ? piece.length : cluster
    for (let at = piece.indexOf(0x86); at >= 0 && at + 5 <= end; at = piece.indexOf(0x86, at + 1)) {
      if ((piece[at + 1] ?? 0) < 0x80 || piece[at + 3] !== 0x5f || !isUpperLetter(piece[at + 4])) continue
      if (piece[at + 2] === 0x56) types.add("video")
      if (piece[at + 2] === 0x41) types.add("audio")
    }
    return cluster >= 0
  })
  return types
}

/** C0 controls other than tab, line feed, vertical tab, form feed and carriage return, and DEL. */
const binaryControl = /[\u0000-\u0008\u000E-\u001F\u007F]/

type TextEncoding = "utf-8" | "utf-16le" | "utf-16be"

/** Mostly-ASCII UTF-16 without a byte-order mark: zero bytes on one side of each pair only. */
const utf16ByZeros = (head: Uint8Array): TextEncoding | undefined => {
  let zeroEven = 0
  let zeroOdd = 0
  for (let i = 0; i + 1 < head.length; i += 2) {
    if (head[i] === 0) zeroEven++
    if (head[i + 1] === 0) zeroOdd++
  }
  const pairs = Math.floor(head.length / 2)
  if (pairs === 0) return undefined
  if (zeroOdd / pairs > 0.3 && zeroEven / pairs < 0.02) return "utf-16le"
  if (zeroEven / pairs > 0.3 && zeroOdd / pairs < 0.02) return "utf-16be"
  return undefined
}

/** The encoding a byte-order mark names, if the text starts with one. */
const byteOrderMarkEncoding = (head: Uint8Array): TextEncoding | undefined => {
  if (head[0] === 0xff && head[1] === 0xfe) return "utf-16le"
  if (head[0] === 0xfe && head[1] === 0xff) return "utf-16be"
  if (head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return "utf-8"
  return undefined
}

/** UTF-16 without a byte-order mark, if the zero bytes or the charset detector say so. */
const utf16Of = (head: Uint8Array): TextEncoding | undefined => {
  const byZeros = utf16ByZeros(head)
  if (byZeros !== undefined) return byZeros
  const detected = chardet.detect(head)
  return detected === "UTF-16LE" ? "utf-16le" : detected === "UTF-16BE" ? "utf-16be" : undefined
}

/** Decodes the whole file piece by piece: valid in the encoding, and no binary control bytes. */
const decodesAsText = async (handle: fs.FileHandle, encoding: TextEncoding): Promise<boolean> => {
  const decoder = new TextDecoder(encoding, { fatal: true })
  let valid = true
  try {
    await scanFile(handle, { overlap: 0 }, (piece) => {
      if (binaryControl.test(decoder.decode(piece, { stream: true }))) valid = false
      return !valid
    })
    return valid && !binaryControl.test(decoder.decode())
  } catch {
    return false
  }
}

/**
 * A byte-order mark decides; otherwise UTF-8, then UTF-16 if the zero bytes or the charset detector say so.
 * The detector is slow and runs on the server's thread, so it runs only when UTF-8 did not decode.
 */
const textEncodingOf = async (handle: fs.FileHandle): Promise<TextEncoding | undefined> => {
  const head = await readAt(handle, 0, 64 * 1024)
  const marked = byteOrderMarkEncoding(head)
  if (marked !== undefined) return (await decodesAsText(handle, marked)) ? marked : undefined
  if (await decodesAsText(handle, "utf-8")) return "utf-8"
  const utf16 = utf16Of(head)
  return utf16 !== undefined && (await decodesAsText(handle, utf16)) ? utf16 : undefined
}

const textOrUnsupported = async (handle: fs.FileHandle, detected: string) => {
  const encoding = await textEncodingOf(handle)
  return encoding === undefined ? unsupported(detected) : supported("text", `text/plain; charset=${encoding}`)
}

const sniffOpen = async (path: string, handle: fs.FileHandle): Promise<Sniffed> => {
  // A byte-order mark can look like an MPEG audio frame to the sniffer; text that starts with one is text.
  if (byteOrderMarkEncoding(await readAt(handle, 0, 4)) !== undefined) {
    const encoding = await textEncodingOf(handle)
    if (encoding !== undefined) return supported("text", `text/plain; charset=${encoding}`)
  }
  const type = await fileTypeFromFile(path)
  if (type === undefined) return textOrUnsupported(handle, "binary data")
  const { ext, mime } = type
  if (ext === "pdf") return supported("pdf", mime)
  if (imageTypes.has(ext)) return supported("image", mime)
  if (audioTypes.has(ext)) return supported("audio", mime)
  if (ext === "docx") return supported("docx", mime)
  if (ext === "cfb") {
    const streams = await oleStreams(handle)
    // An encrypted .docx is an OLE file holding the encrypted package; its job fails as `encrypted`.
    if (streams.has("EncryptedPackage")) return supported("docx", "application/x-encrypted-office")
    const word = streams.get("WordDocument")
    if (word === undefined) return unsupported("OLE compound file without a Word document")
    const encrypted = await isEncryptedWordFile(handle, word.startSector)
    return supported("doc", encrypted ? "application/x-encrypted-office" : "application/msword")
  }
  if (ext === "mp4" || ext === "m4v" || ext === "mov") {
    const handlers = await mp4Handlers(handle)
    return handlers.has("soun") && !handlers.has("vide") ? supported("audio", "audio/mp4") : unsupported(`${ext} video`)
  }
  if (ext === "webm") {
    const tracks = await matroskaTrackTypes(handle)
    return tracks.has("audio") && !tracks.has("video") ? supported("audio", "audio/webm") : unsupported("webm video")
  }
  // Text formats file-type recognises by their opening (XML, for instance) must still be text.
  if (mime.startsWith("text/") || mime.endsWith("xml")) return textOrUnsupported(handle, ext)
  return unsupported(ext)
}

/** The file could not be read (gone, or not a regular file). */
class UnreadableFile extends Data.TaggedError("UnreadableFile")<{ readonly cause: unknown }> {}

/** The kind of the file at `path`; an unreadable file is unsupported. */
export const sniffFile = (path: string): Effect.Effect<Sniffed> =>
  Effect.acquireUseRelease(
    Effect.tryPromise({ try: () => fs.open(path, "r"), catch: (cause) => new UnreadableFile({ cause }) }),
    (handle) =>
      Effect.tryPromise({ try: () => sniffOpen(path, handle), catch: (cause) => new UnreadableFile({ cause }) }),
    (handle) => Effect.ignore(Effect.tryPromise(() => handle.close()))
  ).pipe(
    Effect.catchTag("UnreadableFile", () => Effect.succeed(unsupported("unreadable file"))),
    Effect.withSpan("Documents.sniff")
  )

/** Whether a text file's declared charset is one of ours; the extractor decodes with it. */
export const charsetOf = (mimeType: string): TextEncoding => {
  const charset = /charset=([\w-]+)/.exec(mimeType)?.[1]
  return charset === "utf-16le" || charset === "utf-16be" ? charset : "utf-8"
}

/** Set by the sniffer for password-protected Word files; the job fails `encrypted` without parsing. */
export const isEncryptedMarker = (mimeType: string) => mimeType === "application/x-encrypted-office"
