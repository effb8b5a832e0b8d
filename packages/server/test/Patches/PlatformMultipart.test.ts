/**
 * What `patches/@effect__platform@0.97.2.patch` fixes: `Multipart.toPersisted` named each temporary file after
 * the client's file name, so a long non-Latin name broke the upload and two parts with one name overwrote each
 * other. The temporary files are numbered; the client's name stays in `name`. Read through the entry the server
 * uses (`NodeMultipart.persisted`); both cases fail on the unpatched library.
 */
import { NodeContext, NodeMultipart } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import { Readable } from "node:stream"

const boundary = "patch-test-boundary"
const headers = { "content-type": `multipart/form-data; boundary=${boundary}` }

const filePart = (name: string, text: string) =>
  [`--${boundary}`, `Content-Disposition: form-data; name="files"; filename="${name}"`, "", text].join("\r\n")

const upload = (...parts: ReadonlyArray<string>) => Buffer.from(`${parts.join("\r\n")}\r\n--${boundary}--\r\n`)

/** Each persisted file's name and the text stored at its temporary path, read while the scope is open. */
const persist = (bytes: Buffer) =>
  NodeMultipart.persisted(Readable.from([bytes]), headers).pipe(
    Effect.map((persisted) =>
      (persisted.files as ReadonlyArray<{ readonly name: string; readonly path: string }>).map((file) => ({
        name: file.name,
        text: fs.readFileSync(file.path, "utf8")
      }))
    ),
    Effect.scoped,
    Effect.provide(NodeContext.layer)
  )

describe("@effect/platform patch", () => {
  it.live("stores a file whose UTF-8 name is longer than a file system allows a name to be", () =>
    Effect.gen(function*() {
      const name = `${"漢字".repeat(50)}.txt`
      expect(Buffer.byteLength(name)).toBeGreaterThan(255)
      expect(yield* persist(upload(filePart(name, "long name")))).toEqual([{ name, text: "long name" }])
    }))

  it.live("keeps two parts that share a file name apart", () =>
    Effect.gen(function*() {
      const files = yield* persist(upload(filePart("a.txt", "first"), filePart("a.txt", "second")))
      expect(files).toEqual([{ name: "a.txt", text: "first" }, { name: "a.txt", text: "second" }])
    }))
})
