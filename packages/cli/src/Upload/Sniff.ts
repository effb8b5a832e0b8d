/**
 * Kinds the server is certain to refuse (415 for the whole request), told by
 * their first bytes: executables, archives (a zip is fine only when it is a
 * Word document), video, databases, and binary data that is no known kind.
 * The server has the last word; this only keeps a refused file from failing
 * the other files sent in the same request.
 */

const startsWith = (bytes: Uint8Array, signature: ReadonlyArray<number>, offset = 0) =>
  signature.every((byte, index) => bytes[offset + index] === byte)

const ascii = (text: string) => Array.from(text, (char) => char.charCodeAt(0))

const textAt = (bytes: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + length))

interface Signature {
  readonly bytes: ReadonlyArray<number>
  readonly offset?: number
  readonly kind: string
  /** Printable signatures a text file could start with too: only binary data (with zero bytes) matches. */
  readonly printable?: true
}

const refused: ReadonlyArray<Signature> = [
  { bytes: [0x7f, 0x45, 0x4c, 0x46], kind: "an executable (ELF)" },
  { bytes: ascii("MZ"), kind: "a Windows executable", printable: true },
  { bytes: [0xcf, 0xfa, 0xed, 0xfe], kind: "an executable (Mach-O)" },
  { bytes: [0xce, 0xfa, 0xed, 0xfe], kind: "an executable (Mach-O)" },
  { bytes: [0xca, 0xfe, 0xba, 0xbe], kind: "an executable (Mach-O or Java class)" },
  { bytes: [0x00, 0x61, 0x73, 0x6d], kind: "a WebAssembly module" },
  { bytes: [0x1f, 0x8b], kind: "an archive (gzip)" },
  { bytes: ascii("BZh"), kind: "an archive (bzip2)", printable: true },
  { bytes: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], kind: "an archive (xz)" },
  { bytes: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], kind: "an archive (7z)" },
  { bytes: ascii("Rar!"), kind: "an archive (rar)", printable: true },
  { bytes: [0x28, 0xb5, 0x2f, 0xfd], kind: "an archive (zstd)" },
  { bytes: ascii("ustar"), offset: 257, kind: "an archive (tar)", printable: true },
  { bytes: ascii("FLV"), kind: "a video (FLV)", printable: true },
  { bytes: [0x00, 0x00, 0x01, 0xba], kind: "a video (MPEG)" },
  { bytes: ascii("SQLite format 3"), kind: "a database (SQLite)", printable: true }
]

/** Kinds the server reads; binary data starting like one of these is left to it. */
const accepted: ReadonlyArray<ReadonlyArray<number>> = [
  ascii("%PDF"),
  [0x89, 0x50, 0x4e, 0x47],
  [0xff, 0xd8, 0xff],
  ascii("GIF8"),
  [0x49, 0x49, 0x2a, 0x00],
  [0x4d, 0x4d, 0x00, 0x2a],
  ascii("BM"),
  ascii("RIFF"),
  ascii("OggS"),
  ascii("fLaC"),
  ascii("ID3"),
  [0xd0, 0xcf, 0x11, 0xe0],
  [0x1a, 0x45, 0xdf, 0xa3],
  [0xff, 0xf1],
  [0xff, 0xf9],
  [0xff, 0xfb],
  [0xff, 0xf3],
  [0xff, 0xf2]
]

/** MPEG-4 brands of audio files (the rest of the family is video). */
const audioBrands = new Set(["M4A ", "M4B ", "M4P ", "F4A ", "F4B "])

const isUtf16Bom = (bytes: Uint8Array) => startsWith(bytes, [0xff, 0xfe]) || startsWith(bytes, [0xfe, 0xff])

/** Text in UTF-16 without a BOM has its zero bytes all on even or all on odd offsets. */
const zerosLookLikeUtf16 = (bytes: Uint8Array) => {
  const parities = new Set<number>()
  bytes.forEach((byte, index) => {
    if (byte === 0) parities.add(index % 2)
  })
  return parities.size === 1 && bytes.length >= 2
}

/**
 * Why the server would refuse a file, from its first bytes (`head`, 4 KB is
 * plenty) and, for zips, its last bytes (`tail`, where the zip directory is).
 * Undefined when it may be accepted.
 */
export const refusalOf = (head: Uint8Array, tail: Uint8Array): string | undefined => {
  const binary = head.includes(0)
  const match = refused.find((signature) =>
    startsWith(head, signature.bytes, signature.offset) && (signature.printable !== true || binary)
  )
  if (match !== undefined) return match.kind
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04]) || startsWith(head, [0x50, 0x4b, 0x05, 0x06])) {
    const names = new TextDecoder("latin1").decode(tail)
    return names.includes("word/document.xml") ? undefined : "a zip archive that is not a Word document"
  }
  if (textAt(head, 4, 4) === "ftyp") {
    return audioBrands.has(textAt(head, 8, 4)) ? undefined : "a video (MP4/QuickTime)"
  }
  if (startsWith(head, ascii("RIFF")) && textAt(head, 8, 4) === "AVI ") return "a video (AVI)"
  if (startsWith(head, [0x1a, 0x45, 0xdf, 0xa3]) && !textAt(head, 0, 64).includes("webm")) return "a video (Matroska)"
  if (accepted.some((signature) => startsWith(head, signature))) return undefined
  if (binary && !isUtf16Bom(head) && !zerosLookLikeUtf16(head)) return "binary data of no supported kind"
  return undefined
}
