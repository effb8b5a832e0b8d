/**
 * The chat quality evaluation (see `scripts/eval/chat-quality.ts`): the
 * knowledge base and questions of `scripts/eval/data`, asked through the real
 * service with the offline model.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { resolveAfter } from "../../../src/Chat/FollowUp"
import { ChunkSearch } from "../../../src/Documents/ChunkSearch"
import { normalizeText } from "../../../src/Search/TextNormalization"
import { TestApp } from "../../../src/Testing"
import { call, pick, pickString, setupAccount } from "../../support/TestApp"

interface Answerable {
  readonly id: string
  readonly language: "en" | "fa"
  readonly question: string
  readonly path: string
  readonly passage: string
  readonly fact: string
}

interface Unanswerable {
  readonly id: string
  readonly language: "en" | "fa"
  readonly question: string
}

const dataDir = fileURLToPath(new URL("../../../../../scripts/eval/data", import.meta.url))
const questions: {
  /** The 40 questions of the evaluation; the offline model was tuned while looking at its misses on them. */
  answerable: ReadonlyArray<Answerable>
  unanswerable: ReadonlyArray<Unanswerable>
  /** Written after that tuning and never tuned on: the honest figure for new questions. */
  heldOut: ReadonlyArray<Answerable>
} = JSON.parse(
  fs.readFileSync(path.join(dataDir, "chat-questions.json"), "utf8")
)
const documents = fs.readdirSync(path.join(dataDir, "chat-kb")).sort().map((file) => ({
  filename: file,
  content: fs.readFileSync(path.join(dataDir, "chat-kb", file), "utf8")
}))

const contains = (text: string, part: string) => normalizeText(text).includes(normalizeText(part))
const dontKnow = /^(I don't know|نمی‌دانم)/

const percentile = (values: ReadonlyArray<number>, p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0
}

export interface Figures {
  /** en, fa and all: the 40 questions; heldOut: the questions never tuned on. */
  readonly byLanguage: Readonly<
    Record<"en" | "fa" | "all" | "heldOut", {
      readonly questions: number
      readonly hitAt1: number
      readonly hitAt3: number
      readonly hitAt5: number
      readonly hitAt5WithoutFloor: number
      readonly factInAnswer: number
      readonly citesDocument: number
    }>
  >
  /** Unanswerable questions answered "I don't know" with no sources. */
  readonly honest: number
  readonly unanswerable: number
  readonly p50Ms: number
  readonly p99Ms: number
  readonly report: string
}

interface Options {
  readonly floor: number
  readonly showMisses?: boolean | undefined
  /** Every question is asked this many times for the latency figures (default 3). */
  readonly latencyRounds?: number | undefined
}

const evaluation = ({ floor, latencyRounds = 3, showMisses = false }: Options) =>
  Effect.gen(function*() {
    const { assistantId, key } = yield* setupAccount()
    for (const document of documents) {
      const created = yield* call("POST", `/v1/assistants/${assistantId}/documents/text`, {
        token: key,
        body: document
      })
      const jobId = pickString(created.json, "data", "list", 0, "id")
      for (;;) {
        const job = yield* call("GET", `/v1/assistants/${assistantId}/documents/jobs/${jobId}`, { token: key })
        const status = pick(job.json, "data", "status")
        if (status === "ready") break
        if (status === "failed") return yield* Effect.dieMessage(`ingest of ${document.filename} failed`)
        yield* Effect.sleep("50 millis")
      }
    }
    const chunks = yield* ChunkSearch

    const turn = (question: string) =>
      Effect.gen(function*() {
        const started = performance.now()
        const reply = yield* call("POST", `/v1/assistants/${assistantId}/chat`, {
          token: key,
          body: { principal: "eval", message: question }
        })
        const elapsed = performance.now() - started
        if (reply.status !== 200) return yield* Effect.dieMessage(`chat answered ${reply.status}: ${reply.text}`)
        const sources = pick(reply.json, "data", "sources")
        return {
          text: pickString(reply.json, "data", "text"),
          paths: Array.isArray(sources) ? sources.map((source) => pickString(source, "path")) : [],
          elapsed
        }
      })

    const latencies: Array<number> = []
    const rows: Array<
      {
        language: string
        heldOut: boolean
        hit: Record<"at1" | "at3" | "at5" | "raw5", boolean>
        fact: boolean
        cited: boolean
      }
    > = []
    const misses: Array<string> = []
    for (const q of [...questions.answerable, ...questions.heldOut]) {
      // The query chat searches for the question (colloquial words also without their endings).
      const ranked = yield* chunks.search({ assistantId, query: resolveAfter(q.question, undefined).query, limit: 5 })
      const aboveFloor = ranked.filter((hit) => hit.score >= floor)
      const rank = (list: typeof ranked) => list.findIndex((hit) => contains(hit.text, q.passage))
      const kept = rank(aboveFloor)
      const raw = rank(ranked)
      const answer = yield* turn(q.question)
      latencies.push(answer.elapsed)
      const row = {
        language: q.language,
        heldOut: q.id.startsWith("h-"),
        hit: { at1: kept === 0, at3: kept >= 0 && kept < 3, at5: kept >= 0 && kept < 5, raw5: raw >= 0 },
        fact: contains(answer.text, q.fact),
        cited: answer.paths.includes(q.path)
      }
      rows.push(row)
      if (!row.fact || !row.hit.at5) {
        misses.push(
          `${q.id} ${q.question}\n  passage rank ${kept < 0 ? "-" : kept + 1} (before floor ${
            raw < 0 ? "-" : raw + 1
          }), ` +
            `scores ${ranked.map((hit) => `${hit.path}#${hit.chunk}:${hit.score.toFixed(2)}`).join(" ")}\n  answer: ${
              answer.text.replace(/\n/g, " / ")
            }`
        )
      }
    }
    let honest = 0
    for (const q of questions.unanswerable) {
      const answer = yield* turn(q.question)
      latencies.push(answer.elapsed)
      if (dontKnow.test(answer.text) && answer.paths.length === 0) {
        honest++
        continue
      }
      const ranked = yield* chunks.search({ assistantId, query: resolveAfter(q.question, undefined).query, limit: 3 })
      misses.push(
        `${q.id} (unanswerable) ${q.question}\n  scores ${
          ranked.map((hit) => `${hit.path}#${hit.chunk}:${hit.score.toFixed(2)}`).join(" ")
        }\n` +
          `  sources ${answer.paths.join(", ")}; answer: ${answer.text.replace(/\n/g, " / ")}`
      )
    }
    for (let round = 1; round < latencyRounds; round++) {
      for (const q of [...questions.answerable, ...questions.heldOut, ...questions.unanswerable]) {
        latencies.push((yield* turn(q.question)).elapsed)
      }
    }

    const share = (subset: ReadonlyArray<(typeof rows)[number]>, test: (row: (typeof rows)[number]) => boolean) =>
      subset.filter(test).length / Math.max(1, subset.length)
    const figuresOf = (language: "en" | "fa" | "all" | "heldOut") => {
      const subset = rows.filter((row) =>
        language === "heldOut" ? row.heldOut : !row.heldOut && (language === "all" || row.language === language)
      )
      return {
        questions: subset.length,
        hitAt1: share(subset, (r) => r.hit.at1),
        hitAt3: share(subset, (r) => r.hit.at3),
        hitAt5: share(subset, (r) => r.hit.at5),
        hitAt5WithoutFloor: share(subset, (r) => r.hit.raw5),
        factInAnswer: share(subset, (r) => r.fact),
        citesDocument: share(subset, (r) => r.cited)
      }
    }
    const byLanguage = {
      en: figuresOf("en"),
      fa: figuresOf("fa"),
      all: figuresOf("all"),
      heldOut: figuresOf("heldOut")
    }
    const pct = (value: number) => `${(100 * value).toFixed(1)}%`
    const lines: Array<string> = [
      `${documents.length} documents, ${questions.answerable.length} answerable questions (+${questions.heldOut.length} held out) and ` +
      `${questions.unanswerable.length} unanswerable, relevance floor ${floor}`,
      "",
      "language  questions   hit@1   hit@3   hit@5  hit@5 (no floor)  answer has fact  cites document"
    ]
    for (const [language, f] of Object.entries(byLanguage)) {
      lines.push(
        `${language.padEnd(8)}${String(f.questions).padStart(11)}  ${pct(f.hitAt1).padStart(6)}  ${
          pct(f.hitAt3).padStart(6)
        }  ` +
          `${pct(f.hitAt5).padStart(6)}  ${pct(f.hitAt5WithoutFloor).padStart(16)}  ${
            pct(f.factInAnswer).padStart(15)
          }  ${pct(f.citesDocument).padStart(14)}`
      )
    }
    const p50Ms = percentile(latencies, 50)
    const p99Ms = percentile(latencies, 99)
    lines.push(
      "",
      `unanswerable: "I don't know" with no sources ${honest}/${questions.unanswerable.length}`,
      `chat turn over HTTP, offline model, ${latencies.length} turns: p50 ${p50Ms.toFixed(1)} ms, p99 ${
        p99Ms.toFixed(1)
      } ms`
    )
    if (showMisses && misses.length > 0) lines.push("", "misses:", ...misses)
    return {
      byLanguage,
      honest,
      unanswerable: questions.unanswerable.length,
      p50Ms,
      p99Ms,
      report: lines.join("\n")
    } satisfies Figures
  })

/** The evaluation inside an already running service (a test's `TestApp` layer). */
export const runChatQuality = (options: Options) => Effect.scoped(evaluation(options))

/** The evaluation on its own service, configured with the given relevance floor. */
export const runStandalone = (options: Options): Promise<Figures> =>
  Effect.runPromise(
    runChatQuality(options).pipe(
      Effect.provide(
        TestApp({ DASTYAR_CHAT_MIN_RELEVANCE: String(options.floor), DASTYAR_RATE_LIMIT_PER_MINUTE: "100000" })
      )
    )
  )
