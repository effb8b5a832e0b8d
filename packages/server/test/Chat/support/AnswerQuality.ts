/**
 * The real-document evaluation (see `scripts/eval/answers.ts`): real public
 * documents (a PDF, a DOCX, a plain-text policy, a Persian FAQ) ingested
 * through the real service, questions asked through chat with the offline
 * model, and beside every figure a naive baseline measured in the same run
 * on the same database: the same extracted text cut into fixed-size windows
 * (no structure, no headings) for retrieval, and the first sentence of the
 * best retrieved window as the answer.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { definePDFJSModule, extractText as unpdfText, getDocumentProxy } from "unpdf"
import { chunkText } from "../../../src/Documents/Chunker"
import { ChunkSearch } from "../../../src/Documents/ChunkSearch"
import { DocumentsRepo } from "../../../src/Documents/DocumentsRepo"
import type { ExtractionBudget } from "../../../src/Documents/Extraction/Budget"
import { extractPdf } from "../../../src/Documents/Extraction/Pdf"
import { extractDocx } from "../../../src/Documents/Extraction/Word"
import { searchWords } from "../../../src/Documents/HybridChunkSearch"
import { Embedder, vectorLiteral } from "../../../src/Search/Embedder"
import { normalizeText, wordsOf } from "../../../src/Search/TextNormalization"
import { TestApp } from "../../../src/Testing"
import { jobIdsOf, upload, waitForJob } from "../../Documents/support"
import { call, pick, pickString, setupAccount } from "../../support/TestApp"

interface Answerable {
  readonly id: string
  readonly language: "en" | "fa"
  readonly question: string
  readonly path: string
  /**
   * Words of the document that answer it; the chunk holding them is the hit,
   * an answer quoting them states the fact.
   */
  readonly fact: string
}

interface Unanswerable {
  readonly id: string
  readonly language: "en" | "fa"
  readonly question: string
}

interface QuestionSet {
  readonly answerable: ReadonlyArray<Answerable>
  readonly unanswerable: ReadonlyArray<Unanswerable>
}

const dataDir = fileURLToPath(new URL("../../../../../scripts/eval/data", import.meta.url))
const documentsDir = path.join(dataDir, "answers-docs")
const readQuestions = (file: string): QuestionSet => JSON.parse(fs.readFileSync(path.join(dataDir, file), "utf8"))

const mimeTypes: Readonly<Record<string, string>> = {
  ".pdf": "application/pdf",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".txt": "text/plain",
  ".md": "text/markdown"
}

const contains = (text: string, part: string) => normalizeText(text).includes(normalizeText(part))
const declines = /^(I don't know|نمی‌دانم)/

/**
 * The baseline's chunks: windows of 1200 characters every 1000, cut between
 * words, of the text with its whitespace collapsed.
 */
export const fixedSizeChunks = (text: string, size = 1200, step = 1000): ReadonlyArray<string> => {
  const flat = text.replace(/\s+/g, " ").trim()
  const chunks: Array<string> = []
  for (let start = 0; start < flat.length; start += step) {
    const from = start === 0 ? 0 : flat.indexOf(" ", start) + 1
    let to = Math.min(flat.length, start + size)
    if (to < flat.length) to = Math.max(from + 1, flat.lastIndexOf(" ", to))
    chunks.push(flat.slice(from, to))
    if (to >= flat.length) break
  }
  return chunks
}

/** The baseline reads the file in this process, without the service's limits. */
const generousBudget: ExtractionBudget = { maxInflatedBytes: 1e9, maxPages: 1e5, maxTextChars: 1e9, maxPixels: 1e9 }

const firstSentence = (text: string) => text.split(/(?<=[.!?؟])\s+/u)[0] ?? ""

/** The text the service extracts from the file. */
const extracted = (file: string, bytes: Uint8Array, budget: ExtractionBudget) => {
  if (file.endsWith(".pdf")) return extractPdf(bytes, budget)
  if (file.endsWith(".docx")) return extractDocx(bytes, budget)
  return Effect.succeed(new TextDecoder().decode(bytes))
}

/**
 * The baseline's text: a PDF's plain text per page as PDF.js gives it (how
 * the service read PDFs before), else the same.
 */
const naiveText = (file: string, bytes: Uint8Array) =>
  file.endsWith(".pdf")
    ? Effect.promise(async () => {
      const pdf = await getDocumentProxy(new Uint8Array(bytes), { verbosity: 0 })
      const { text } = await unpdfText(pdf, { mergePages: true })
      await pdf.destroy()
      return text
    })
    : extracted(file, bytes, generousBudget).pipe(Effect.orDie)

/** CPU seconds `effect` takes in this process: a time the other programs on a busy machine barely change. */
const cpuSeconds = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const started = process.cpuUsage()
    return Effect.map(effect, (value) => {
      const used = process.cpuUsage(started)
      return [value, (used.user + used.system) / 1e6] as const
    })
  })

interface Row {
  readonly id: string
  readonly hit: boolean
  readonly stated: boolean
  readonly baselineHit: boolean
  readonly baselineStated: boolean
}

export interface Figures {
  readonly questions: number
  readonly hitAt5: number
  readonly baselineHitAt5: number
  readonly factStated: number
  readonly baselineFactStated: number
  readonly declined: number
  readonly baselineDeclined: number
  readonly unanswerable: number
  readonly report: string
}

interface Options {
  readonly floor: number
  /** The 10 questions kept aside, run only at the end, instead of the main set. */
  readonly heldAside: boolean
  readonly showMisses: boolean
}

const evaluation = ({ floor, heldAside, showMisses }: Options) =>
  Effect.gen(function*() {
    yield* Effect.promise(() => definePDFJSModule(() => import("unpdf/pdfjs")))
    const questions = readQuestions(heldAside ? "answers-held-aside.json" : "answers-questions.json")
    const files = fs.readdirSync(documentsDir).filter((file) => file in mimeTypes || path.extname(file) in mimeTypes)
      .filter((file) => file !== "SOURCES.md").sort()
    const ours = yield* setupAccount()
    const baseline = yield* setupAccount()
    const sql = yield* SqlClient.SqlClient
    const embedder = yield* Embedder
    const search = yield* ChunkSearch

    const ingestLines: Array<string> = []
    for (const file of files) {
      const bytes = new Uint8Array(fs.readFileSync(path.join(documentsDir, file)))
      const type = mimeTypes[path.extname(file)] ?? "application/octet-stream"
      const started = performance.now()
      const created = yield* upload(ours.key, ours.assistantId, [{ name: file, bytes, type }])
      const job = yield* waitForJob(ours.key, ours.assistantId, jobIdsOf(created)[0] ?? "", 600_000)
      const readyMs = performance.now() - started
      if (pick(job, "status") !== "ready") {
        return yield* Effect.dieMessage(`ingest of ${file} failed: ${JSON.stringify(job)}`)
      }
      const chunks = Number(pick(job, "resultNChunks") ?? 0)

      // Reading and chunking alone, in this process, ours and the baseline's, in CPU seconds.
      const [, oursCpu] = yield* cpuSeconds(
        Effect.map(extracted(file, bytes, generousBudget).pipe(Effect.orDie), chunkText)
      )
      const [windows, baselineCpu] = yield* cpuSeconds(Effect.map(naiveText(file, bytes), fixedSizeChunks))
      // The baseline: the same file stored, then its chunks replaced by fixed-size windows of the plain text.
      const { vectors } = yield* embedder.embed(windows).pipe(Effect.orDie)
      const stored = yield* upload(baseline.key, baseline.assistantId, [{ name: file, bytes, type }])
      const copy = yield* waitForJob(baseline.key, baseline.assistantId, jobIdsOf(stored)[0] ?? "", 600_000)
      if (pick(copy, "status") !== "ready") {
        return yield* Effect.dieMessage(`baseline copy of ${file} failed: ${JSON.stringify(copy)}`)
      }
      yield* Effect.gen(function*() {
        const [document] = yield* sql<{ readonly id: string }>`
        SELECT id FROM documents WHERE assistant_id = ${baseline.assistantId} AND path = ${file} AND state = 'ready'`
        if (document === undefined) return yield* Effect.dieMessage(`baseline copy of ${file} is missing`)
        yield* sql`DELETE FROM document_chunks WHERE file_id = ${document.id}`
        for (let start = 0; start < windows.length; start += 200) {
          yield* sql`INSERT INTO document_chunks ${
            sql.insert(
              windows.slice(start, start + 200).map((window, i) => ({
                assistantId: baseline.assistantId,
                fileId: document.id,
                chunk: start + i,
                text: window,
                searchText: searchWords(window),
                modelId: embedder.modelId,
                embedding: vectorLiteral(vectors[start + i] ?? [])
              }))
            )
          }`
        }
        const repo = yield* DocumentsRepo
        yield* repo.addTerms(baseline.assistantId, [...new Set(windows.flatMap((window) => wordsOf(window)))])
        yield* sql`UPDATE documents SET n_chunks = ${windows.length} WHERE id = ${document.id}`
      }).pipe(Effect.provide(DocumentsRepo.Default), Effect.orDie)
      ingestLines.push(
        `${file.padEnd(26)}${`${(bytes.length / 1024).toFixed(0)} KB`.padStart(7)}${
          `${(readyMs / 1000).toFixed(2)} s`.padStart(10)
        }` +
          `${String(chunks).padStart(8)}${`${oursCpu.toFixed(2)} s`.padStart(11)}${
            `${baselineCpu.toFixed(2)} s`.padStart(14)
          }` +
          `${String(windows.length).padStart(9)}`
      )
    }

    const ask = (question: string) =>
      Effect.gen(function*() {
        const reply = yield* call("POST", `/v1/assistants/${ours.assistantId}/chat`, {
          token: ours.key,
          body: { principal: "eval", message: question }
        })
        if (reply.status !== 200) return yield* Effect.dieMessage(`chat answered ${reply.status}: ${reply.text}`)
        return pickString(reply.json, "data", "text")
      })
    const retrieve = (assistantId: string, question: string) =>
      Effect.map(search.search({ assistantId, query: question, limit: 5 }), (hits) =>
        hits.filter((hit) => hit.score >= floor))

    const rows: Array<Row> = []
    const misses: Array<string> = []
    for (const q of questions.answerable) {
      const hits = yield* retrieve(ours.assistantId, q.question)
      const baselineHits = yield* retrieve(baseline.assistantId, q.question)
      const answer = yield* ask(q.question)
      const baselineAnswer = baselineHits[0] === undefined ? "" : firstSentence(baselineHits[0].text)
      const row: Row = {
        id: q.id,
        hit: hits.some((hit) =>
          hit.path === q.path && contains(hit.text, q.fact)
        ),
        stated: contains(answer, q.fact),
        baselineHit: baselineHits.some((hit) => hit.path === q.path && contains(hit.text, q.fact)),
        baselineStated: contains(baselineAnswer, q.fact)
      }
      rows.push(row)
      if (!row.hit || !row.stated) {
        misses.push(
          `${q.id} ${q.question} [${q.fact}]\n  hit ${row.hit}, top: ${
            hits.map((hit) => `${hit.path}#${hit.chunk}:${hit.score.toFixed(2)}`).join(" ")
          }\n  answer: ${answer.replace(/\n/g, " / ")}`
        )
      }
    }
    let declined = 0
    let baselineDeclined = 0
    for (const q of questions.unanswerable) {
      const answer = yield* ask(q.question)
      if (declines.test(answer)) declined++
      else misses.push(`${q.id} (unanswerable) ${q.question}\n  answer: ${answer.replace(/\n/g, " / ")}`)
      if ((yield* retrieve(baseline.assistantId, q.question)).length === 0) baselineDeclined++
    }

    const share = (test: (row: Row) => boolean) => rows.filter(test).length / Math.max(1, rows.length)
    const pct = (value: number) => `${(100 * value).toFixed(1)}%`
    const figures = {
      questions: rows.length,
      hitAt5: share((row) => row.hit),
      baselineHitAt5: share((row) => row.baselineHit),
      factStated: share((row) => row.stated),
      baselineFactStated: share((row) => row.baselineStated),
      declined,
      baselineDeclined,
      unanswerable: questions.unanswerable.length
    }
    const lines = [
      `${
        heldAside ? "HELD-ASIDE questions" : "Main questions"
      }: ${rows.length} answerable, ${questions.unanswerable.length} unanswerable, ` +
      `${files.length} documents, relevance floor ${floor}`,
      "",
      `document                     size  ready in  chunks   read+chunk  baseline read  windows   (load average ${
        os.loadavg()[0].toFixed(1)
      } on ${os.cpus().length} CPUs; read+chunk in CPU seconds)`,
      ...ingestLines,
      "",
      "                                   structure-aware + offline answerer   fixed-size windows + first sentence",
      `retrieval hit@5 (chunk with fact)  ${pct(figures.hitAt5).padStart(34)}   ${
        pct(figures.baselineHitAt5).padStart(35)
      }`,
      `answer states the fact             ${pct(figures.factStated).padStart(34)}   ${
        pct(figures.baselineFactStated).padStart(35)
      }`,
      `unanswerable declined              ${`${declined}/${figures.unanswerable}`.padStart(34)}   ${
        `${baselineDeclined}/${figures.unanswerable}`.padStart(35)
      }`
    ]
    if (showMisses && misses.length > 0) lines.push("", "misses:", ...misses)
    return { ...figures, report: lines.join("\n") } satisfies Figures
  })

/** The evaluation inside an already running service (a test's `TestApp` layer). */
export const runAnswerQuality = (options: Options) => Effect.scoped(evaluation(options))

/** The evaluation on its own service, with the given relevance floor. */
export const runStandalone = (options: Options): Promise<Figures> =>
  Effect.runPromise(
    runAnswerQuality(options).pipe(
      Effect.provide(TestApp({
        DASTYAR_CHAT_MIN_RELEVANCE: String(options.floor),
        DASTYAR_RATE_LIMIT_PER_MINUTE: "100000",
        // A busy shared machine must not turn a slow read into a failed job.
        DASTYAR_EXTRACTION_TIMEOUT: "10 minutes",
        DASTYAR_INGEST_TIMEOUT: "15 minutes"
      }))
    )
  )
