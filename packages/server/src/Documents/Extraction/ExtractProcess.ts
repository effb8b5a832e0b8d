/**
 * Entry of the child process that reads one uploaded file (see `Extraction`).
 * It runs under a heap limit and is killed when a file fails or takes too
 * long, so a file that makes a parser balloon or loop costs this process,
 * never the server.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import * as fs from "node:fs/promises"
import { permanent } from "../IngestFailure"
import { extractPdf } from "./Pdf"
import { ExtractionReply, ExtractionRequest } from "./Protocol"
import { extractText } from "./Text"
import { extractDoc, extractDocx } from "./Word"

const extractBytes = (request: ExtractionRequest, bytes: Uint8Array) => {
  switch (request.kind) {
    case "pdf":
      return extractPdf(bytes, request.budget)
    case "docx":
      return extractDocx(bytes, request.budget)
    case "doc":
      return extractDoc(bytes)
    case "text":
      return Effect.sync(() => extractText(bytes, request.mimeType))
  }
}

const extract = (request: ExtractionRequest) =>
  Effect.tryPromise({
    try: () => fs.readFile(request.path),
    catch: (error) => permanent("ingest_failed", `the file to read is missing: ${String(error)}`)
  }).pipe(Effect.flatMap((bytes) => extractBytes(request, bytes)))

const reply = (message: unknown) =>
  Effect.gen(function*() {
    const request = yield* Schema.decodeUnknown(ExtractionRequest)(message).pipe(
      Effect.mapError((error) => permanent("ingest_failed", `bad extraction request: ${error.message}`))
    )
    const text = yield* extract(request)
    if (text.length > request.budget.maxTextChars) {
      return yield* permanent("too_large", `the file holds more than ${request.budget.maxTextChars} characters of text`)
    }
    return text
  }).pipe(
    Effect.match({
      onFailure: (failure): ExtractionReply => ({
        _tag: "Failed",
        errorMessage: failure.errorMessage,
        detail: failure.detail
      }),
      onSuccess: (text): ExtractionReply => ({ _tag: "Extracted", text })
    })
  )

// One file at a time: the parent sends the next file only after this one's answer.
process.on("message", (message: unknown) => {
  void Effect.runPromise(reply(message)).then((answer) => process.send?.(answer))
})
