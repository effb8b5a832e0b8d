/**
 * What `patches/multipasta@0.2.8.patch` fixes in the multipart parser, read through the same entry the server
 * uses (`NodeMultipart.persisted`). Each case fails on the unpatched library; if an upgrade makes one pass
 * without the patch, the patch can go (see patches/README.md).
 */
import { NodeContext, NodeMultipart } from "@effect/platform-node"
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import { Readable } from "node:stream"

const boundary = "patch-test-boundary"
const headers = { "content-type": `multipart/form-data; boundary=${boundary}` }

const part = (disposition: string | undefined, body: string) =>
  [
    `--${boundary}`,
    ...(disposition === undefined ? [] : [`Content-Disposition: ${disposition}`]),
    "Content-Type: text/plain",
    "",
    body
  ].join("\r\n")

const body = (...parts: ReadonlyArray<string>) => Buffer.from(`${parts.join("\r\n")}\r\n--${boundary}--\r\n`)

const read = (bytes: Buffer) =>
  NodeMultipart.persisted(Readable.from([bytes]), headers).pipe(Effect.scoped, Effect.provide(NodeContext.layer))

/** The parser's own error (`InvalidDisposition`, `EndNotReached`…) under the platform's `MultipartError`. */
const parserError = (exit: Exit.Exit<unknown, { readonly cause?: unknown }>) =>
  Exit.isFailure(exit) && exit.cause._tag === "Fail" ? exit.cause.error.cause : undefined

describe("multipasta patch", () => {
  it.live("reads a UTF-8 file name sent raw in the quoted filename, as browsers and curl send it", () =>
    Effect.gen(function*() {
      const files = yield* read(body(part(`form-data; name="files"; filename="راهنمای کتری.md"`, "hello")))
      expect(files.files).toEqual([expect.objectContaining({ name: "راهنمای کتری.md" })])
    }), 10_000)

  it.live("refuses a filename* that is not valid percent-encoded UTF-8, naming the part", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(read(body(part(`form-data; name="files"; filename*=UTF-8''%FF%FE.md`, "x"))))
      expect(parserError(exit)).toMatchObject({ _tag: "InvalidDisposition", part: 0 })
    }), 10_000)

  it.live("refuses a part without Content-Disposition instead of passing it on nameless", () =>
    Effect.gen(function*() {
      const exit = yield* Effect.exit(read(body(part(`form-data; name="a"`, "kept"), part(undefined, "lost"))))
      expect(parserError(exit)).toMatchObject({ _tag: "InvalidDisposition", part: 1 })
    }), 10_000)

  it.live("fails a body cut off inside a file part instead of waiting for an end that never comes", () =>
    Effect.gen(function*() {
      const cut = Buffer.from(part(`form-data; name="files"; filename="a.txt"`, "half a fi"))
      const exit = yield* Effect.exit(read(cut).pipe(Effect.timeout("5 seconds")))
      expect(parserError(exit)).toMatchObject({ _tag: "EndNotReached" })
    }), 10_000)
})
