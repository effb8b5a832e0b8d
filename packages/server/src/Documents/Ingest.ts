/**
 * One ingest job, start to end: read the uploaded bytes, extract the text
 * (offline, by kind), chunk it, embed the chunks in batches into a staged
 * document (batches are inserted while the next are embedded, and the
 * document's new words added to the term dictionary meanwhile), then swap it
 * in (see `DocumentsRepo.finish`). Transient failures (embeddings or transcription
 * provider down) are retried with exponential backoff; everything else ends
 * the job `failed` with its `errorMessage`.
 */
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as fs from "node:fs/promises"
import * as os from "node:os"
import * as path from "node:path"
import { CostLedger, transcriptTokens } from "../Accounts/CostLedger"
import { AppConfig } from "../Config"
import { newId } from "../Ids"
import { Embedder, type EmbedderError, halfvecBinary } from "../Search/Embedder"
import { wordsOf } from "../Search/TextNormalization"
import { Transcriber, type TranscriptionError } from "../Transcription/Transcriber"
import { type Chunk, chunksOf } from "./Chunker"
import { DocumentsRepo, type JobRow } from "./DocumentsRepo"
import { Extraction } from "./Extraction/Extraction"
import { looksLikeHtml } from "./Extraction/Html"
import { Ocr } from "./Extraction/Ocr"
import type { IsolatedKind } from "./Extraction/Protocol"
import { decodeText } from "./Extraction/Text"
import { isEncryptedMarker } from "./FileKind"
import { searchWords } from "./HybridChunkSearch"
import { IngestFailure, permanent } from "./IngestFailure"

/** A job whose worker died this many times (e.g. killed while reading it) is given up. */
export const maxAttempts = 3
/** Transient failures are retried this many times, the delay doubling from `DASTYAR_INGEST_RETRY_DELAY`. */
const transientRetries = 5
const embedBatchSize = 64
/** Chunk batches being inserted at once, each on its own connection. */
const insertsInFlight = 2

const fromTranscription = (error: TranscriptionError) =>
  error.reason === "not_configured"
    ? permanent("transcription_not_configured", error.message)
    : new IngestFailure({
      errorMessage: error.transient ? "transcription_unavailable" : "transcription_failed",
      detail: error.message,
      transient: error.transient
    })

const fromEmbedder = (error: EmbedderError) =>
  new IngestFailure({
    errorMessage: error.transient ? "embeddings_unavailable" : "embeddings_failed",
    detail: error.message,
    transient: error.transient
  })

export class Ingest extends Effect.Service<Ingest>()("Ingest", {
  effect: Effect.gen(function*() {
    const repo = yield* DocumentsRepo
    const embedder = yield* Embedder
    const transcriber = yield* Transcriber
    const ledger = yield* CostLedger
    const ocr = yield* Ocr
    const extraction = yield* Extraction
    const { ingest: settings } = yield* AppConfig

    const missing = () => permanent("ingest_failed", "the uploaded bytes are missing")

    /** The uploaded bytes in this process (text, images and audio are read here). */
    const uploadedBytes = (job: JobRow) =>
      repo.readUpload(job.id, job.sizeBytes).pipe(
        Effect.orDie,
        Effect.flatMap(Option.match({ onNone: () => Effect.fail(missing()), onSome: Effect.succeed }))
      )

    /**
     * Reads a file in a reader process from a temporary copy that `write` makes (false: the bytes are
     * missing); the copy is removed when the read ends.
     */
    const extractInChild = (
      kind: IsolatedKind,
      mimeType: string,
      write: (file: string) => Effect.Effect<boolean>
    ) =>
      Effect.gen(function*() {
        const dir = yield* Effect.acquireRelease(
          Effect.promise(() => fs.mkdtemp(path.join(os.tmpdir(), "dastyar-ingest-"))),
          (dir) => Effect.promise(() => fs.rm(dir, { recursive: true, force: true }))
        )
        const file = path.join(dir, "upload")
        if (!(yield* write(file))) return yield* missing()
        return yield* extraction.extract(kind, file, mimeType)
      }).pipe(Effect.scoped)

    const extract = (job: JobRow): Effect.Effect<string, IngestFailure> => {
      if (isEncryptedMarker(job.mimeType)) {
        return Effect.fail(permanent("encrypted", "the Word file is password-protected"))
      }
      switch (job.fileKind) {
        case "text":
          // Plain text is decoded here in one linear pass; HTML goes through its parser in a child process.
          return Effect.flatMap(uploadedBytes(job), (bytes) => {
            const text = decodeText(bytes, job.mimeType)
            return looksLikeHtml(text)
              ? extractInChild(
                "text",
                job.mimeType,
                (file) => Effect.promise(() => fs.writeFile(file, bytes)).pipe(Effect.as(true))
              )
              : Effect.succeed(text)
          })
        case "pdf":
        case "docx":
        case "doc":
          // Copied piece by piece: this process never holds the whole file.
          return extractInChild(
            job.fileKind,
            job.mimeType,
            (file) => repo.copyUpload(job.id, job.sizeBytes, file).pipe(Effect.orDie)
          )
        case "image":
          return Effect.flatMap(uploadedBytes(job), (bytes) => ocr.recognize(bytes, extraction.budget))
        case "audio":
          return Effect.flatMap(
            uploadedBytes(job),
            (bytes) =>
              transcriber.transcribe({ bytes, filename: job.filename, mimeType: job.mimeType }).pipe(
                Effect.tap((result) =>
                  ledger.meter({
                    kind: "transcription",
                    model: "transcription",
                    tokens: transcriptTokens(result.text),
                    shares: [{ assistantId: job.assistantId, weight: 1 }]
                  })
                ),
                Effect.map((result) => result.text),
                Effect.mapError(fromTranscription)
              )
          )
      }
    }

    /** Extract, chunk, embed and stage; then swap in. */
    const attempt = (job: JobRow) =>
      Effect.gen(function*() {
        yield* repo.removeStaging(job.id).pipe(Effect.orDie)
        const text = yield* extract(job)
        // Chunks are cut a batch at a time, the next while the last is being inserted.
        const chunks = chunksOf(text)
        const nextBatch = () => {
          const batch: Array<Chunk> = []
          for (let next = chunks.next(); !next.done; next = chunks.next()) {
            batch.push(next.value)
            if (batch.length === embedBatchSize) break
          }
          return batch
        }
        let batch = nextBatch()
        if (batch.length === 0) return yield* permanent("no_text", "no text was found in the file")
        const fileId = newId("file")
        // Its number of chunks is written when it is swapped in (`finish`).
        yield* repo.insertStaging({
          id: fileId,
          assistantId: job.assistantId,
          folderId: job.folderId,
          jobId: job.id,
          path: job.path,
          nChunks: 0,
          sizeBytes: job.sizeBytes
        }).pipe(Effect.orDie)
        // Batches are written while the next ones are embedded, two at a time (two connections, so Postgres
        // can use two cores), and the document's new words go to the term dictionary meanwhile: this process
        // and the database work at once. Each insert is its own statement, committed alone.
        const inserting: Array<Fiber.Fiber<void>> = []
        const terms = new Set<string>()
        let newTerms: Array<string> = []
        let addingTerms: Fiber.Fiber<void> | undefined
        const flushTerms = Effect.gen(function*() {
          if (addingTerms !== undefined) yield* Fiber.join(addingTerms)
          addingTerms = yield* Effect.forkScoped(repo.addTerms(job.assistantId, newTerms).pipe(Effect.orDie))
          newTerms = []
        })
        let start = 0
        for (; batch.length > 0; start += batch.length, batch = nextBatch()) {
          const { tokens, vectors } = yield* embedder.embed(batch.map((chunk) => chunk.text)).pipe(
            Effect.mapError(fromEmbedder)
          )
          yield* ledger.meter({
            kind: "embedding",
            model: embedder.modelId,
            tokens,
            shares: [{ assistantId: job.assistantId, weight: 1 }]
          })
          const rows = batch.map(({ headingPath, text }, i) => ({
            chunk: start + i,
            text,
            headingPath,
            // The text starts with the heading path, so its words count for keyword search too.
            searchText: searchWords(text),
            modelId: embedder.modelId,
            embedding: halfvecBinary(vectors[i] ?? [])
          }))
          // The words the search texts were made of (`wordsOf` still holds them), not split out of them again.
          for (const { text } of batch) {
            for (const term of wordsOf(text)) {
              if (!terms.has(term)) {
                terms.add(term)
                newTerms.push(term)
              }
            }
          }
          const oldest = inserting.length >= insertsInFlight ? inserting.shift() : undefined
          if (oldest !== undefined) yield* Fiber.join(oldest)
          inserting.push(yield* Effect.forkScoped(repo.insertChunks(job.assistantId, fileId, rows).pipe(Effect.orDie)))
          // While the dictionary's last statement runs, new words wait for the next one.
          const termsIdle = addingTerms === undefined || Option.isSome(yield* Fiber.poll(addingTerms))
          if (newTerms.length > 0 && termsIdle) yield* flushTerms
          // The forked statements are sent before this fiber cuts the next batch (the chunker does not yield until
          // it is done).
          yield* Effect.yieldNow()
        }
        yield* Fiber.joinAll(inserting)
        if (newTerms.length > 0) yield* flushTerms
        if (addingTerms !== undefined) yield* Fiber.join(addingTerms)
        return yield* repo.finish(job, fileId, start).pipe(Effect.orDie)
      }).pipe(
        // A failed attempt's statements still in flight are interrupted and awaited before it is retried
        // (the retry starts by removing what it wrote).
        Effect.scoped
      )

    const retryTransient = Schedule.exponential(settings.retryDelay, 2).pipe(
      Schedule.jittered,
      Schedule.intersect(Schedule.recurs(transientRetries))
    )

    /**
     * Processes the job once its queue element is taken. Ends with the job
     * final, except when the database itself fails (the queue retries that).
     */
    const run = Effect.fn("Documents.ingest")(function*(jobId: string) {
      const claimed = yield* repo.startAttempt(jobId).pipe(Effect.orDie)
      if (Option.isNone(claimed)) return
      const job = claimed.value
      yield* Effect.annotateCurrentSpan({
        "dastyar.job_id": job.id,
        "dastyar.file_kind": job.fileKind,
        attempt: job.attempts
      })
      if (job.attempts > maxAttempts) {
        yield* Effect.logWarning("ingest job given up after its workers stopped repeatedly").pipe(
          Effect.annotateLogs({ jobId: job.id, attempts: job.attempts })
        )
        return yield* repo.fail(job.id, "ingest_failed").pipe(Effect.orDie)
      }
      const outcome = yield* attempt(job).pipe(
        Effect.tapError((failure) =>
          failure.transient
            ? Effect.logInfo("ingest job hit a transient failure; retrying").pipe(
              Effect.annotateLogs({ jobId: job.id, detail: failure.detail })
            )
            : Effect.void
        ),
        Effect.retry({ schedule: retryTransient, while: (failure) => failure.transient }),
        Effect.timeoutFail({
          duration: settings.timeout,
          onTimeout: () => permanent("timeout", `processing took longer than ${Duration.format(settings.timeout)}`)
        }),
        Effect.either
      )
      if (outcome._tag === "Left") {
        yield* Effect.logInfo("ingest job failed").pipe(
          Effect.annotateLogs({ jobId: job.id, errorMessage: outcome.left.errorMessage, detail: outcome.left.detail })
        )
        return yield* repo.fail(job.id, outcome.left.errorMessage).pipe(Effect.orDie)
      }
      yield* Effect.logDebug("ingest job finished").pipe(Effect.annotateLogs({ jobId: job.id, outcome: outcome.right }))
    })

    return { run } as const
  }),
  dependencies: [DocumentsRepo.Default, Ocr.Default, Extraction.Default, CostLedger.Default]
}) {}
