/** Text of Word files: `.docx` through mammoth (headings kept), legacy `.doc` through word-extractor. */
import * as Effect from "effect/Effect"
import mammoth from "mammoth"
import WordExtractor from "word-extractor"
import { permanent } from "../IngestFailure"
import { htmlToText } from "./Html"

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

export const extractDocx = (bytes: Uint8Array) =>
  Effect.tryPromise({
    try: () => mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }),
    catch: (error) => permanent("corrupt_file", `the DOCX cannot be read: ${reason(error)}`)
  }).pipe(Effect.map((result) => htmlToText(result.value)), Effect.withSpan("Documents.extractDocx"))

export const extractDoc = (bytes: Uint8Array) =>
  Effect.tryPromise({
    try: () => new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    catch: (error) => permanent("corrupt_file", `the DOC cannot be read: ${reason(error)}`)
  }).pipe(
    Effect.map((document) => document.getBody().replace(/\r\n?/g, "\n")),
    Effect.withSpan("Documents.extractDoc")
  )
