/**
 * The sniffer's own checks, the ones file-type cannot make: a legacy Word file
 * inside an OLE container, a video track in an MP4 or WebM, and text encodings.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { sniffFile } from "../../src/Documents/FileKind"
import { makeDocx } from "./support"

const fixtures = path.resolve(import.meta.dirname, "../fixtures/documents")
const sniffFixture = (name: string) => sniffFile(path.join(fixtures, name))

/** Sniffs bytes written to a temporary file. */
const sniffBytes = (bytes: Uint8Array) =>
  Effect.acquireUseRelease(
    Effect.sync(() => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-sniff-"))
      fs.writeFileSync(path.join(dir, "upload"), bytes)
      return dir
    }),
    (dir) => sniffFile(path.join(dir, "upload")),
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  )

describe("FileKind", () => {
  it.effect("a Word 97-2003 file is found inside its OLE compound container", () =>
    Effect.gen(function*() {
      expect(yield* sniffFixture("returns-policy.doc")).toEqual({
        _tag: "Supported",
        kind: "doc",
        mimeType: "application/msword"
      })
    }))

  it.effect("file-type tells a .docx from other zips", () =>
    Effect.gen(function*() {
      const docx = yield* makeDocx([{ heading: "Returns", body: "Fourteen days." }])
      expect(yield* sniffBytes(docx)).toMatchObject({ _tag: "Supported", kind: "docx" })
      expect(yield* sniffFixture("archive.zip")).toEqual({ _tag: "Unsupported", detected: "zip" })
    }))

  it.effect("an MP4 or WebM is audio only without a video track", () =>
    Effect.gen(function*() {
      expect(yield* sniffFixture("tone.m4a")).toMatchObject({ _tag: "Supported", kind: "audio" })
      expect(yield* sniffFixture("tone.webm")).toEqual({ _tag: "Supported", kind: "audio", mimeType: "audio/webm" })
      expect(yield* sniffFixture("clip.mp4")).toEqual({ _tag: "Unsupported", detected: "mp4 video" })
      expect(yield* sniffFixture("clip.webm")).toEqual({ _tag: "Unsupported", detected: "webm video" })
    }))

  it.effect("text is UTF-8 or UTF-16 (with or without a byte-order mark), never binary control bytes", () =>
    Effect.gen(function*() {
      const persian = "سلام، ارسال به شیراز دو روز طول می‌کشد.\nShipping to Shiraz takes two days.\n"
      const utf16le = Buffer.from(persian.repeat(4), "utf16le")
      const utf16be = Buffer.from(utf16le).swap16()
      expect(yield* sniffBytes(Buffer.from(persian, "utf8"))).toEqual({
        _tag: "Supported",
        kind: "text",
        mimeType: "text/plain; charset=utf-8"
      })
      expect(yield* sniffBytes(Buffer.concat([Buffer.of(0xff, 0xfe), utf16le]))).toMatchObject({
        mimeType: "text/plain; charset=utf-16le"
      })
      expect(yield* sniffBytes(Buffer.from("Shipping to Shiraz takes two days.\n".repeat(4), "utf16le")))
        .toMatchObject({ mimeType: "text/plain; charset=utf-16le" })
      expect(yield* sniffBytes(Buffer.concat([Buffer.of(0xfe, 0xff), utf16be]))).toMatchObject({
        mimeType: "text/plain; charset=utf-16be"
      })
      expect(yield* sniffBytes(Buffer.from("plain words\u0000\u0001 and a control byte"))).toMatchObject({
        _tag: "Unsupported"
      })
    }))

  it.effect("a file that cannot be read is unsupported, not a failure", () =>
    Effect.gen(function*() {
      expect(yield* sniffFile(path.join(fixtures, "no-such-file"))).toEqual({
        _tag: "Unsupported",
        detected: "unreadable file"
      })
    }))
})
