/**
 * An export's body as its records, read as it arrives: a line of NDJSON, or a CSV record (a quoted cell may hold
 * line breaks, so a record can span lines). Each record comes without its line end, and only the record not yet
 * ended is held, so memory does not grow with the export. Written once for both faces: the promise client's
 * `export` methods iterate it, an Effect caller pipes `exportConversations` through it.
 */
import * as Stream from "effect/Stream"

export type ExportFormat = "ndjson" | "csv"

const quote = 34
const lineFeed = 10

/** A record without the carriage return of a `\r\n` line end. */
const withoutReturn = (text: string) => (text.endsWith("\r") ? text.slice(0, -1) : text)

/** Splits text given piece by piece into records; `end` gives the last one when no line end follows it. */
const splitter = (format: ExportFormat) => {
  // NDJSON escapes line breaks inside strings, so only CSV's quotes can hide one.
  const quotesHideLineEnds = format === "csv"
  let quoted = false
  let held: Array<string> = []
  return {
    push: (text: string): Array<string> => {
      const records: Array<string> = []
      let start = 0
      for (let i = 0; i < text.length; i++) {
        const code = text.charCodeAt(i)
        if (code === quote && quotesHideLineEnds) quoted = !quoted
        else if (code === lineFeed && !quoted) {
          held.push(text.slice(start, i))
          records.push(withoutReturn(held.join("")))
          held = []
          start = i + 1
        }
      }
      if (start < text.length) held.push(text.slice(start))
      return records
    },
    end: (): Array<string> => {
      const rest = held.join("")
      held = []
      return rest === "" ? [] : [withoutReturn(rest)]
    }
  }
}

/** The records of an export's bytes (NDJSON lines, or CSV records with the header first). */
export const exportRecords =
  (format: ExportFormat) => <E, R>(bytes: Stream.Stream<Uint8Array, E, R>): Stream.Stream<string, E, R> =>
    Stream.suspend(() => {
      const records = splitter(format)
      return bytes.pipe(
        Stream.decodeText(),
        Stream.mapConcat(records.push),
        Stream.concat(Stream.suspend(() => Stream.fromIterable(records.end())))
      )
    })

/** The promise face: the records of a response body, as they arrive. */
export const recordsOf = (body: ReadableStream<Uint8Array>, format: ExportFormat): AsyncIterable<string> =>
  Stream.toAsyncIterable(
    Stream.fromReadableStream({ evaluate: () => body, onError: (error) => error }).pipe(exportRecords(format))
  )
