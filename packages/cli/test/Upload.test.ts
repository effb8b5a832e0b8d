import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { refusalOf } from "../src/Upload/Sniff"
import { selectFiles } from "../src/Upload/Walk"

const bytes = (...parts: ReadonlyArray<string | ReadonlyArray<number>>) =>
  new Uint8Array(
    parts.flatMap((part) => typeof part === "string" ? Array.from(Buffer.from(part, "latin1")) : [...part])
  )

const none = new Uint8Array()

describe("refusalOf", () => {
  it("refuses executables, archives, video; a zip only when it is not a Word document", async () => {
    expect(await refusalOf(bytes([0x7f], "ELF", [2, 1, 1, 0], new Array(12).fill(0)), none)).toBe("an executable (ELF)")
    expect(await refusalOf(bytes([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]), none)).toBe("an archive (gz)")
    const zip = bytes("PK", [3, 4, 20, 0, 0, 0, 0, 0], new Array(22).fill(0), "notes/readme.txt")
    expect(await refusalOf(zip, zip)).toBe("a zip archive that is not a Word document")
    const word = bytes("PK", [3, 4, 20, 0, 0, 0, 0, 0], new Array(22).fill(0), "notes.xml")
    expect(await refusalOf(word, bytes("PK", [1, 2], "word/document.xml"))).toBeUndefined()
    expect(await refusalOf(bytes([0, 0, 0, 0x20], "ftypisom", [0, 0, 2, 0], "isomiso2mp41"), none)).toBe(
      "a video (MP4)"
    )
    expect(await refusalOf(bytes([0, 0, 0, 0x20], "ftypM4A ", [0, 0, 2, 0], "M4A isom"), none)).toBeUndefined()
    expect(await refusalOf(bytes("RIFF", [0, 0, 0, 0], "AVI LIST"), none)).toBe("a video (AVI)")
  })

  it("accepts the kinds the server reads and text, even text that starts like a signature", async () => {
    expect(await refusalOf(bytes("%PDF-1.7\n"), none)).toBeUndefined()
    expect(await refusalOf(bytes([0x89], "PNG", [13, 10, 26, 10, 0, 0, 0, 13], "IHDR"), none)).toBeUndefined()
    expect(await refusalOf(bytes("RIFF", [0, 0, 0, 0], "WAVEfmt "), none)).toBeUndefined()
    expect(await refusalOf(bytes("MZ Motors price list\n"), none)).toBeUndefined()
    expect(await refusalOf(Buffer.from("\uFEFFسلام", "utf16le"), none)).toBeUndefined()
    expect(await refusalOf(Buffer.from("plain UTF-16 without BOM", "utf16le"), none)).toBeUndefined()
    expect(await refusalOf(bytes("data", [0, 1, 2, 0, 0, 7, 0xff, 0]), none)).toBe("binary data of no supported kind")
  })
})

describe("selectFiles", () => {
  it.effect("walks folders in order, leaves out hidden entries, skips refused, empty, too large and same-named files", () =>
    Effect.acquireUseRelease(
      Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-walk-"))),
      (dir) =>
        Effect.gen(function*() {
          fs.mkdirSync(path.join(dir, "sub"))
          fs.mkdirSync(path.join(dir, ".git"))
          fs.writeFileSync(path.join(dir, "b.txt"), "bee")
          fs.writeFileSync(path.join(dir, "a.md"), "# A")
          fs.writeFileSync(path.join(dir, ".hidden.txt"), "no")
          fs.writeFileSync(path.join(dir, ".git", "config"), "no")
          fs.writeFileSync(path.join(dir, "empty.txt"), "")
          fs.writeFileSync(path.join(dir, "tool.txt"), bytes([0x7f], "ELF", [2, 1, 1, 0, 0, 0]))
          fs.writeFileSync(path.join(dir, "sub", "a.md"), "# Another A")
          // Sparse: 26 MB on paper, nothing on disk.
          fs.closeSync(fs.openSync(path.join(dir, "sub", "big.pdf"), "w"))
          fs.truncateSync(path.join(dir, "sub", "big.pdf"), 26 * 1024 * 1024)
          const { send, skipped } = yield* selectFiles([dir])
          expect(send.map(({ file, name }) => [path.relative(dir, file), name])).toEqual([["a.md", "a.md"], [
            "b.txt",
            "b.txt"
          ]])
          expect(skipped.map(({ file, reason }) => [path.relative(dir, file), reason])).toEqual([
            ["empty.txt", "empty"],
            ["sub/a.md", `same name as ${path.join(dir, "a.md")}`],
            ["sub/big.pdf", "26.0 MB, over the 25 MB limit"],
            ["tool.txt", "an executable (ELF)"]
          ])
          const missing = yield* Effect.flip(selectFiles([path.join(dir, "nope")]))
          expect(missing.message).toMatch(/^cannot read the files to upload: ENOENT/)
        }),
      (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
    ))
})
