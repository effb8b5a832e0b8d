/**
 * Reads the text of an uploaded file in a child process: a reader started
 * with a heap limit, given a copy of the file, and killed when it runs out of time,
 * dies, or fails a file. A hostile file (a decompression bomb, a parser loop)
 * then fails its own job with `too_large` while the server, and every other
 * tenant on it, keeps answering; heavy parsers (PDF.js, mammoth) never load
 * into the server's heap. Readers that answered are kept for the next file
 * (starting one costs more than reading most files) and end after a short
 * idle time, so an idle server holds none. (Worker threads were tried first:
 * a thread that reaches its heap limit during a large allocation can still
 * abort the whole process.)
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import { type ChildProcess, fork } from "node:child_process"
import { AppConfig } from "../../Config"
import { childEntry } from "../../Platform/ChildEntry"
import { type IngestFailure, permanent } from "../IngestFailure"
import { ExtractionReply, type ExtractionRequest, type IsolatedKind } from "./Protocol"

/** How long a reader that answered waits for the next file before it ends. */
const readerIdleMs = 30_000

interface Reader {
  readonly child: ChildProcess
  idleTimer?: ReturnType<typeof setTimeout>
}

export class Extraction extends Effect.Service<Extraction>()("Extraction", {
  scoped: Effect.gen(function*() {
    const { extraction: settings } = yield* AppConfig
    const entry = childEntry("ExtractProcess", import.meta.url)
    const decodeReply = Schema.decodeUnknownEither(ExtractionReply)
    const timeoutMs = Duration.toMillis(settings.timeout)
    const idle: Array<Reader> = []

    const stop = (reader: Reader) => {
      clearTimeout(reader.idleTimer)
      reader.child.kill("SIGKILL")
    }
    yield* Effect.addFinalizer(() => Effect.sync(() => idle.splice(0).forEach(stop)))

    const start = (): Reader => {
      const child = fork(entry.modulePath, [...entry.args], {
        execArgv: [`--max-old-space-size=${settings.memoryMb}`],
        serialization: "advanced",
        // PDF.js and others print warnings on stdout, which would break the JSON log.
        stdio: ["ignore", "ignore", "inherit", "ipc"]
      })
      const reader: Reader = { child }
      // A reader that ends while idle is simply forgotten.
      child.once("exit", () => {
        const index = idle.indexOf(reader)
        if (index >= 0) idle.splice(index, 1)
      })
      return reader
    }

    const keep = (reader: Reader) => {
      if (reader.child.exitCode !== null || reader.child.signalCode !== null) return
      reader.idleTimer = setTimeout(() => stop(reader), readerIdleMs)
      reader.idleTimer.unref()
      idle.push(reader)
    }

    const read = (request: ExtractionRequest) =>
      Effect.async<string, IngestFailure>((resume) => {
        const reader = idle.pop() ?? start()
        clearTimeout(reader.idleTimer)
        const { child } = reader
        let settled = false
        const release = (reusable: boolean) => {
          settled = true
          clearTimeout(timer)
          child.off("message", onMessage)
          child.off("exit", onExit)
          child.off("error", onError)
          // Only a reader that read its file is used again; after any failure its state is not trusted.
          if (reusable) keep(reader)
          else stop(reader)
        }
        const settle = (outcome: Effect.Effect<string, IngestFailure>, reusable: boolean) => {
          if (settled) return
          release(reusable)
          resume(outcome)
        }
        const onMessage = (message: unknown) =>
          Either.match(decodeReply(message), {
            onLeft: (error) =>
              settle(
                Effect.fail(permanent("ingest_failed", `unreadable answer from the reader: ${error.message}`)),
                false
              ),
            onRight: (reply) =>
              reply._tag === "Extracted"
                ? settle(Effect.succeed(reply.text), true)
                : settle(Effect.fail(permanent(reply.errorMessage, reply.detail)), false)
          })
        const onError = (error: Error) =>
          settle(Effect.fail(permanent("ingest_failed", `the reader did not start: ${error.message}`)), false)
        // A reader that ends without answering ran out of memory (V8 aborts) or was killed.
        const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
          settle(
            Effect.fail(
              permanent(
                "too_large",
                `reading the file needed more than ${settings.memoryMb} MB (exit ${code ?? signal})`
              )
            ),
            false
          )
        const timer = setTimeout(
          () =>
            settle(
              Effect.fail(
                permanent("too_large", `reading the file took longer than ${Duration.format(settings.timeout)}`)
              ),
              false
            ),
          timeoutMs
        )
        child.on("message", onMessage)
        child.once("exit", onExit)
        child.once("error", onError)
        child.send(request)
        return Effect.sync(() => {
          if (!settled) release(false)
        })
      })

    /**
     * Starts a reader ahead of a file that will need one (an upload of a PDF or
     * Word file was just accepted), so its start overlaps storing the
     * upload and the worker's pickup; it ends after the idle time if unused.
     */
    const prepare = Effect.sync(() => {
      if (idle.length === 0) keep(start())
    })

    /** Reads the file at `path` (which the caller keeps until this ends) in a reader process. */
    const extract = Effect.fn("Documents.extractInChild")(
      function*(kind: IsolatedKind, path: string, mimeType: string) {
        yield* Effect.annotateCurrentSpan({ "dastyar.file_kind": kind })
        return yield* read({ kind, path, mimeType, budget: settings.budget })
      }
    )

    return { extract, prepare, budget: settings.budget } as const
  })
}) {}
