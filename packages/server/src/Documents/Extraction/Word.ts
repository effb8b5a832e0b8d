/** Text of Word files: `.docx` through mammoth (headings kept), legacy `.doc` through word-extractor. */
import * as Effect from "effect/Effect"
import mammoth from "mammoth"
import WordExtractor from "word-extractor"
import { permanent } from "../IngestFailure"
import type { ExtractionBudget } from "./Budget"
import { htmlToText } from "./Html"
import { measureInflated } from "./Zip"

const reason = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** mammoth inflates the whole container in memory, so its inflated size is counted first. */
const checkInflatedSize = (bytes: Uint8Array, budget: ExtractionBudget) =>
  Effect.suspend(() => {
    const measured = measureInflated(bytes, budget.maxInflatedBytes)
    switch (measured._tag) {
      case "WithinBudget":
        return Effect.void
      case "OverBudget":
        return Effect.fail(
          permanent("too_large", `the DOCX inflates to more than ${budget.maxInflatedBytes} bytes`)
        )
      case "Corrupt":
        return Effect.fail(permanent("corrupt_file", `the DOCX cannot be read: ${measured.reason}`))
    }
  })

export const extractDocx = (bytes: Uint8Array, budget: ExtractionBudget) =>
  checkInflatedSize(bytes, budget).pipe(
    Effect.zipRight(Effect.tryPromise({
      try: () => mammoth.convertToHtml({ buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) }),
      catch: (error) => permanent("corrupt_file", `the DOCX cannot be read: ${reason(error)}`)
    })),
    Effect.map((result) => htmlToText(result.value)),
    Effect.withSpan("Documents.extractDocx")
  )

export const extractDoc = (bytes: Uint8Array) =>
  Effect.tryPromise({
    try: () => new WordExtractor().extract(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
    catch: (error) => permanent("corrupt_file", `the DOC cannot be read: ${reason(error)}`)
  }).pipe(
    Effect.map((document) => document.getBody().replace(/\r\n?/g, "\n")),
    Effect.withSpan("Documents.extractDoc")
  )
