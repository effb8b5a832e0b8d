/**
 * Hostile files, made in code (nothing large is committed): one or more per
 * container the service opens. Each is small on the wire and built to make a
 * reader loop, balloon or fail: OLE sector loops and huge declared sizes,
 * a PDF Flate bomb, a TIFF claiming billions of pixels, deeply nested XML and
 * billion-laughs entities in a DOCX, an HTML page declaring entities, and
 * files whose headers are corrupt.
 */
import { strToU8, Zip, ZipDeflate, ZipPassThrough, Zlib as FlateZlib } from "fflate"
import { fixture } from "./support"

// --- OLE compound files (.doc) ---------------------------------------------------------------------------------

/**
 * A copy of the `returns-policy.doc` fixture changed by `edit`, given the
 * offsets of the FAT (one sector) and the directory it holds.
 */
const editDoc = (
  edit: (bytes: Buffer, at: { fat: (sector: number) => number; entry: (n: number) => number }) => void
) => {
  const bytes = Buffer.from(fixture("returns-policy.doc"))
  const sectorSize = 1 << bytes.readUInt16LE(0x1e)
  const fatSector = bytes.readUInt32LE(0x4c)
  const directorySector = bytes.readUInt32LE(0x30)
  edit(bytes, {
    fat: (sector) => (fatSector + 1) * sectorSize + sector * 4,
    entry: (n) => (directorySector + 1) * sectorSize + n * 128
  })
  return new Uint8Array(bytes)
}

/** The directory's sector chain points back at its own start: a reader following it never reaches the end. */
export const makeDocDirectoryLoop = () =>
  editDoc((bytes, at) => {
    const first = bytes.readUInt32LE(0x30)
    let sector = first
    while (bytes.readUInt32LE(at.fat(sector)) < 0xfffffffa) sector = bytes.readUInt32LE(at.fat(sector))
    bytes.writeUInt32LE(first, at.fat(sector))
  })

/** The root entry's chain (the mini stream holding the Word text) loops back to its start. */
export const makeDocStreamLoop = () =>
  editDoc((bytes, at) => {
    const first = bytes.readUInt32LE(at.entry(0) + 0x74)
    let sector = first
    while (bytes.readUInt32LE(at.fat(sector)) < 0xfffffffa) sector = bytes.readUInt32LE(at.fat(sector))
    bytes.writeUInt32LE(first, at.fat(sector))
  })

/** The `WordDocument` stream (directory entry 5 of the fixture) declares 2 GB. */
export const makeDocHugeStream = () => editDoc((bytes, at) => bytes.writeUInt32LE(0x7fffffff, at.entry(5) + 0x78))

/** The header declares two billion FAT sectors. */
export const makeDocHugeFat = () => editDoc((bytes) => bytes.writeUInt32LE(0x7fffffff, 0x2c))

/** The OLE header, FAT and directory kept, the streams' sectors zeroed: no Word document inside. */
export const makeDocCorrupt = () =>
  editDoc((bytes) => bytes.fill(0, 2048, (bytes.readUInt32LE(0x30) + 1) * (1 << bytes.readUInt16LE(0x1e))))

// --- PDF ----------------------------------------------------------------------------------------------------

/**
 * A one-page PDF whose content stream is `inflatedBytes` of text-showing
 * operators, Flate-compressed to a few hundred KB: the reader must inflate it
 * to read the page.
 */
export const makePdfFlateBomb = (inflatedBytes: number) => {
  const block = strToU8("BT /F1 12 Tf 72 712 Td (a) Tj ET\n".repeat(32 * 1024))
  const compressed: Array<Uint8Array> = []
  const stream = new FlateZlib({ level: 9 }, (data) => compressed.push(data))
  for (let written = 0; written < inflatedBytes; written += block.length) stream.push(block)
  stream.push(new Uint8Array(0), true)
  const body = Buffer.concat(compressed)
  const objects = [
    "<< /Type /Catalog /Pages 2 0 R >>",
    "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
    "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R " +
    "/Resources << /Font << /F1 5 0 R >> >> >>",
    null,
    "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
  ]
  const parts: Array<Buffer> = [Buffer.from("%PDF-1.4\n")]
  const offsets: Array<number> = []
  let length = parts[0]?.length ?? 0
  const push = (piece: Buffer) => {
    parts.push(piece)
    length += piece.length
  }
  objects.forEach((object, index) => {
    offsets.push(length)
    if (object === null) {
      push(Buffer.from(`${index + 1} 0 obj\n<< /Length ${body.length} /Filter /FlateDecode >>\nstream\n`))
      push(body)
      push(Buffer.from("\nendstream\nendobj\n"))
    } else {
      push(Buffer.from(`${index + 1} 0 obj\n${object}\nendobj\n`))
    }
  })
  const xref = length
  push(Buffer.from(
    `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n` +
      offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n \n`).join("") +
      `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`
  ))
  return new Uint8Array(Buffer.concat(parts))
}

/** `%PDF-` and then bytes that are no PDF. */
export const makePdfCorrupt = () =>
  new Uint8Array(Buffer.concat([Buffer.from("%PDF-1.7\n"), Buffer.alloc(4096, 0x41), Buffer.from("\n%%EOF\n")]))

// --- Images --------------------------------------------------------------------------------------------------

/** A little-endian TIFF whose first image claims `width` × `height` pixels (and holds none). */
export const makeTiffHeader = (width: number, height: number) => {
  const entries: ReadonlyArray<readonly [tag: number, type: number, value: number]> = [
    [256, 4, width], // ImageWidth, LONG
    [257, 4, height], // ImageLength, LONG
    [258, 3, 8], // BitsPerSample
    [259, 3, 1], // Compression: none
    [262, 3, 1], // Photometric: black is zero
    [273, 4, 0], // StripOffsets
    [277, 3, 1], // SamplesPerPixel
    [278, 4, height], // RowsPerStrip
    [279, 4, 0] // StripByteCounts
  ]
  const bytes = Buffer.alloc(8 + 2 + entries.length * 12 + 4 + 64)
  bytes.write("II", 0, "latin1")
  bytes.writeUInt16LE(42, 2)
  bytes.writeUInt32LE(8, 4)
  bytes.writeUInt16LE(entries.length, 8)
  entries.forEach(([tag, type, value], index) => {
    const at = 10 + index * 12
    bytes.writeUInt16LE(tag, at)
    bytes.writeUInt16LE(type, at + 2)
    bytes.writeUInt32LE(1, at + 4)
    if (type === 3) bytes.writeUInt16LE(value, at + 8)
    else bytes.writeUInt32LE(value, at + 8)
  })
  return new Uint8Array(bytes)
}

/** A PNG with a sane 100 × 100 header whose image data is garbage. */
export const makePngCorrupt = () => {
  const ihdr = Buffer.alloc(25)
  ihdr.writeUInt32BE(13, 0)
  ihdr.write("IHDR", 4, "latin1")
  ihdr.writeUInt32BE(100, 8)
  ihdr.writeUInt32BE(100, 12)
  ihdr.writeUInt8(8, 16)
  ihdr.writeUInt8(2, 17)
  const idat = Buffer.alloc(12 + 500, 0xa7)
  idat.writeUInt32BE(500, 0)
  idat.write("IDAT", 4, "latin1")
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return new Uint8Array(Buffer.concat([signature, ihdr, idat]))
}

// --- DOCX ----------------------------------------------------------------------------------------------------

const contentTypes =
  `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
  `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
  `<Default Extension="xml" ContentType="application/xml"/>` +
  `<Override PartName="/word/document.xml" ` +
  `ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`

const rels =
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
  `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ` +
  `Target="word/document.xml"/></Relationships>`

const wordNs = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`

/** A DOCX with the given `word/document.xml`, streamed in `pieces`. */
const docxWith = (documentPieces: Iterable<string>) => {
  const out: Array<Uint8Array> = []
  const zip = new Zip((error, data) => {
    if (error) throw error
    out.push(data)
  })
  for (const [name, text] of [["[Content_Types].xml", contentTypes], ["_rels/.rels", rels]] as const) {
    const entry = new ZipPassThrough(name)
    zip.add(entry)
    entry.push(strToU8(text), true)
  }
  const document = new ZipDeflate("word/document.xml", { level: 6 })
  zip.add(document)
  for (const piece of documentPieces) document.push(strToU8(piece))
  document.push(new Uint8Array(0), true)
  zip.end()
  return new Uint8Array(Buffer.concat(out))
}

/** `depth` nested elements inside one paragraph: readers that recurse per level run out of stack. */
export const makeDocxDeepNesting = (depth: number) =>
  docxWith(function*() {
    yield `<?xml version="1.0" encoding="UTF-8"?><w:document ${wordNs}><w:body><w:p><w:r><w:t>deep</w:t></w:r>`
    const open = "<w:sdt><w:sdtContent>".repeat(1000)
    const close = "</w:sdtContent></w:sdt>".repeat(1000)
    for (let i = 0; i < depth; i += 1000) yield open
    for (let i = 0; i < depth; i += 1000) yield close
    yield "</w:p></w:body></w:document>"
  }())

/** Ten levels of ten-fold entities (10^10 `lol`s, ~30 GB) in a document under 2 KB. */
const laughs = (root: string) => {
  let dtd = `<!DOCTYPE ${root} [<!ENTITY lol0 "lol">`
  for (let level = 1; level <= 10; level++) {
    dtd += `<!ENTITY lol${level} "${`&lol${level - 1};`.repeat(10)}">`
  }
  return `${dtd}]>`
}

export const makeDocxBillionLaughs = () =>
  docxWith([
    `<?xml version="1.0" encoding="UTF-8"?>${laughs("w:document")}<w:document ${wordNs}><w:body>` +
    `<w:p><w:r><w:t>&lol10;</w:t></w:r></w:p></w:body></w:document>`
  ])

/** An HTML page declaring the same entities and using the largest. */
export const makeHtmlBillionLaughs = () =>
  new Uint8Array(Buffer.from(
    `<!DOCTYPE html>${laughs("html").slice("<!DOCTYPE html".length)}` +
      `<html><head><title>laughs</title></head><body><h1>Laughs</h1><p>&lol10;</p></body></html>`
  ))

/** A DOCX whose `word/document.xml` has its compressed bytes overwritten halfway through. */
export const makeDocxCorrupt = () => {
  const words = Array.from({ length: 4000 }, (_, i) => `word${(i * 7919) % 10007}`).join(" ")
  const bytes = Buffer.from(docxWith([
    `<?xml version="1.0" encoding="UTF-8"?><w:document ${wordNs}><w:body>`,
    `<w:p><w:r><w:t>${words}</w:t></w:r></w:p>`,
    "</w:body></w:document>"
  ]))
  // The central directory (at the end) stays whole, so the file is still recognised as a DOCX.
  bytes.fill(0xff, Math.floor(bytes.length * 0.5), Math.floor(bytes.length * 0.7))
  return new Uint8Array(bytes)
}

// --- Audio ---------------------------------------------------------------------------------------------------

/** A WAV whose RIFF and data chunks claim 4 GB, holding a few bytes. */
export const makeWavHugeDeclared = () => {
  const bytes = Buffer.alloc(44 + 1024)
  bytes.write("RIFF", 0, "latin1")
  bytes.writeUInt32LE(0xffffffff, 4)
  bytes.write("WAVEfmt ", 8, "latin1")
  bytes.writeUInt32LE(16, 16)
  bytes.writeUInt16LE(1, 20)
  bytes.writeUInt16LE(1, 22)
  bytes.writeUInt32LE(8000, 24)
  bytes.writeUInt32LE(16000, 28)
  bytes.writeUInt16LE(2, 32)
  bytes.writeUInt16LE(16, 34)
  bytes.write("data", 36, "latin1")
  bytes.writeUInt32LE(0xffffffff, 40)
  return new Uint8Array(bytes)
}
