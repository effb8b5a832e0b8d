import { describe, expect, it } from "@effect/vitest"
import * as Chunk from "effect/Chunk"
import * as Effect from "effect/Effect"
import * as Stream from "effect/Stream"
import { type ExportFormat, exportRecords } from "../src/ExportRecords"

/** The records of `text` when its bytes arrive cut every `size` bytes. */
const recordsInPieces = (text: string, size: number, format: ExportFormat) => {
  const bytes = new TextEncoder().encode(text)
  const pieces = Array.from({ length: Math.ceil(bytes.length / size) }, (_, i) => bytes.slice(i * size, (i + 1) * size))
  return Stream.fromIterable(pieces).pipe(exportRecords(format), Stream.runCollect, Effect.map(Chunk.toArray))
}

describe("exportRecords", () => {
  it.effect("gives the same records wherever the body is cut, without line ends", () =>
    Effect.gen(function*() {
      const csv = "id,text\r\n1,\"two\r\nlines, with \"\"quotes\"\"\"\r\n2,قوری آبی\r\n"
      const ndjson = "{\"q\":\"a \\\"quoted\\\" line\"}\n{\"q\":\"چای\"}\n{\"q\":\"no line end after me\"}"
      for (const size of [1, 2, 3, 7, 1000]) {
        expect(yield* recordsInPieces(csv, size, "csv")).toEqual([
          "id,text",
          "1,\"two\r\nlines, with \"\"quotes\"\"\"",
          "2,قوری آبی"
        ])
        expect(yield* recordsInPieces(ndjson, size, "ndjson")).toEqual([
          "{\"q\":\"a \\\"quoted\\\" line\"}",
          "{\"q\":\"چای\"}",
          "{\"q\":\"no line end after me\"}"
        ])
      }
    }))

  it.effect("runs afresh each time: nothing is carried from one run to the next", () =>
    Effect.gen(function*() {
      const records = Stream.make(new TextEncoder().encode("a,\"open")).pipe(exportRecords("csv"))
      expect(Chunk.toArray(yield* Stream.runCollect(records))).toEqual(["a,\"open"])
      expect(Chunk.toArray(yield* Stream.runCollect(records))).toEqual(["a,\"open"])
    }))
})
