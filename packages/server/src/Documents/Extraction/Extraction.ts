/**
 * Reads the text of an uploaded file in a process of its own: one child per
 * file, started with a heap limit, given the bytes, and killed when it
 * answers, runs out of time or dies. A hostile file (a decompression bomb, a
 * parser loop) then fails its own job with `too_large` while the server, and
 * every other tenant on it, keeps answering; heavy parsers (PDF.js, mammoth)
 * never load into the server's heap, and their memory is returned when the
 * child ends. (Worker threads were tried first: a thread that reaches its
 * heap limit during a large allocation can still abort the whole process.)
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { fork } from "node:child_process"
import { AppConfig } from "../../Config"
import { childEntry } from "../../Platform/ChildEntry"
import { type IngestFailure, permanent } from "../IngestFailure"
import { ExtractionReply, type ExtractionRequest, type IsolatedKind } from "./Protocol"

export class Extraction extends Effect.Service<Extraction>()("Extraction", {
  effect: Effect.gen(function*() {
    const { extraction: settings } = yield* AppConfig
    const entry = childEntry("ExtractProcess", import.meta.url)
    const decodeReply = Schema.decodeUnknownEither(ExtractionReply)
    const timeoutMs = Duration.toMillis(settings.timeout)

    const inChild = (request: ExtractionRequest) =>
      Effect.async<string, IngestFailure>((resume) => {
        const child = fork(entry.modulePath, [...entry.args], {
          execArgv: [`--max-old-space-size=${settings.memoryMb}`],
          serialization: "advanced",
          // PDF.js and others print warnings on stdout, which would break the JSON log.
          stdio: ["ignore", "ignore", "inherit", "ipc"]
        })
        let settled = false
        const settle = (outcome: Effect.Effect<string, IngestFailure>) => {
          if (settled) return
          settled = true
          clearTimeout(timer)
          child.kill("SIGKILL")
          resume(outcome)
        }
        const timer = setTimeout(
          () =>
            settle(Effect.fail(permanent("too_large", `reading the file took longer than ${Duration.format(settings.timeout)}`))),
          timeoutMs
        )
        child.once("message", (message: unknown) =>
          settle(Either.match(decodeReply(message), {
            onLeft: (error) => Effect.fail(permanent("ingest_failed", `unreadable answer from the reader: ${error.message}`)),
            onRight: (reply) =>
              reply._tag === "Extracted" ? Effect.succeed(reply.text) : Effect.fail(permanent(reply.errorMessage, reply.detail))
          })))
        child.once("error", (error) => settle(Effect.fail(permanent("ingest_failed", `the reader did not start: ${error.message}`))))
        // A reader that ends without answering ran out of memory (V8 aborts) or was killed.
        child.once("exit", (code, signal) =>
          settle(Effect.fail(
            permanent("too_large", `reading the file needed more than ${settings.memoryMb} MB (exit ${code ?? signal})`)
          )))
        child.send(request)
        return Effect.sync(() => {
          settled = true
          clearTimeout(timer)
          child.kill("SIGKILL")
        })
      })

    const extract = Effect.fn("Documents.extractInChild")(function*(kind: IsolatedKind, bytes: Uint8Array, mimeType: string) {
      yield* Effect.annotateCurrentSpan({ "dastyar.file_kind": kind, "dastyar.size_bytes": bytes.length })
      return yield* inChild({ kind, bytes, mimeType, budget: settings.budget })
    })

    return { extract, budget: settings.budget } as const
  })
}) {}
