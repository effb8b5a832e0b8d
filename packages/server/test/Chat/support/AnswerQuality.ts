/**
 * The answers evaluation (see `scripts/eval/answers.ts`): each set's
 * documents ingested through the real service, its questions asked through
 * chat with the offline model (a follow-up in one conversation after its
 * `previous` question), and beside every figure a naive baseline measured
 * in the same run: the best retrieved passage, verbatim (no passage above
 * the relevance floor is its "I don't know"). The tuning set is reported
 * apart from the held-aside sets.
 */
import * as Effect from "effect/Effect"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { definePDFJSModule } from "unpdf"
import { resolveAfter } from "../../../src/Chat/FollowUp"
import { chunkText } from "../../../src/Documents/Chunker"
import { ChunkSearch } from "../../../src/Documents/ChunkSearch"
import type { ExtractionBudget } from "../../../src/Documents/Extraction/Budget"
import { extractPdf } from "../../../src/Documents/Extraction/Pdf"
import { extractDocx } from "../../../src/Documents/Extraction/Word"
import { normalizeText } from "../../../src/Search/TextNormalization"
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
  /** Asked first in the same conversation: this question follows up on it. */
  readonly previous?: string
}

interface Unanswerable {
  readonly id: string
  readonly language: "en" | "fa"
  readonly question: string
  /** Asked first in the same conversation: this question follows up on it. */
  readonly previous?: string
}

interface QuestionSet {
  readonly answerable: ReadonlyArray<Answerable>
  readonly unanswerable: ReadonlyArray<Unanswerable>
}

const dataDir = fileURLToPath(new URL("../../../../../scripts/eval/data", import.meta.url))
const readQuestions = (file: string): QuestionSet => JSON.parse(fs.readFileSync(path.join(dataDir, file), "utf8"))

const mimeTypes: Readonly<Record<string, string>> = {
  ".pdf": "application/pdf",
  ".docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  ".txt": "text/plain",
  ".md": "text/markdown"
}

const contains = (text: string, part: string) => normalizeText(text).includes(normalizeText(part))
const declines = /^(I don't know|نمی‌دانم)/

/** Reading in this process, for the CPU figure, without the service's limits. */
const generousBudget: ExtractionBudget = { maxInflatedBytes: 1e9, maxPages: 1e5, maxTextChars: 1e9, maxPixels: 1e9 }

/** The text the service extracts from the file. */
const extracted = (file: string, bytes: Uint8Array, budget: ExtractionBudget) => {
  if (file.endsWith(".pdf")) return extractPdf(bytes, budget)
  if (file.endsWith(".docx")) return extractDocx(bytes, budget)
  return Effect.succeed(new TextDecoder().decode(bytes))
}

/** CPU seconds `effect` takes in this process: a time the other programs on a busy machine barely change. */
const cpuSeconds = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  Effect.suspend(() => {
    const started = process.cpuUsage()
    return Effect.map(effect, (value) => {
      const used = process.cpuUsage(started)
      return [value, (used.user + used.system) / 1e6] as const
    })
  })

/** One set: its questions and the folder of documents they are asked over. */
interface EvalSet {
  readonly name: string
  readonly questions: string
  readonly documents: string
  readonly heldAside: boolean
}

export const sets: ReadonlyArray<EvalSet> = [
  { name: "tuning", questions: "answers-questions.json", documents: "answers-docs", heldAside: false },
  {
    name: "tuning-2: EN shipping & returns, quick-start guide, FAQ",
    questions: "tuning-2-en.json",
    documents: "tuning-2-en-docs",
    heldAside: false
  },
  {
    name: "tuning-2: FA shipping & returns, guarantee card, FAQ",
    questions: "tuning-2-fa.json",
    documents: "tuning-2-fa-docs",
    heldAside: false
  },
  {
    name: "tuning-3: EN bakery orders, size & exchange, course refunds",
    questions: "tuning-3-en.json",
    documents: "tuning-3-en-docs",
    heldAside: false
  },
  {
    name: "tuning-3: FA installments, cake orders, sizes, school refunds",
    questions: "tuning-3-fa.json",
    documents: "tuning-3-fa-docs",
    heldAside: false
  },
  {
    name: "tuning-4: EN furniture delivery, gym membership, pet food subscription",
    questions: "tuning-4-en.json",
    documents: "tuning-4-en-docs",
    heldAside: false
  },
  {
    name: "tuning-4: FA flower delivery, laptop repairs, tour cancellations",
    questions: "tuning-4-fa.json",
    documents: "tuning-4-fa-docs",
    heldAside: false
  },
  {
    name: "tuning-5: EN bicycle workshop, dental fees, dog grooming",
    questions: "tuning-5-en.json",
    documents: "tuning-5-en-docs",
    heldAside: false
  },
  {
    name: "tuning-5: FA carpet cleaning, photo studio, pest control",
    questions: "tuning-5-fa.json",
    documents: "tuning-5-fa-docs",
    heldAside: false
  },
  {
    name: "tuning-6: EN driving school, self-storage, optician",
    questions: "tuning-6-en.json",
    documents: "tuning-6-en-docs",
    heldAside: false
  },
  {
    name: "tuning-6: FA print shop, music school, appliance repairs",
    questions: "tuning-6-fa.json",
    documents: "tuning-6-fa-docs",
    heldAside: false
  },
  {
    name: "tuning-7: EN laundry prices, coworking membership, removals",
    questions: "tuning-7-en.json",
    documents: "tuning-7-en-docs",
    heldAside: false
  },
  {
    name: "tuning-7: FA tailor, car wash, courier prices",
    questions: "tuning-7-fa.json",
    documents: "tuning-7-fa-docs",
    heldAside: false
  },
  { name: "held-aside: earlier set", questions: "answers-held-aside.json", documents: "answers-docs", heldAside: true },
  {
    name: "held-aside: EN manual, warranty card, terms of sale",
    questions: "held-aside-en.json",
    documents: "held-en-docs",
    heldAside: true
  },
  {
    name: "held-aside: FA typed as people type",
    questions: "held-aside-fa.json",
    documents: "held-fa-docs",
    heldAside: true
  },
  {
    name: "held-aside: EN guesthouse booking, car hire terms, trade-in programme",
    questions: "held-aside-en-4.json",
    documents: "held-en-4-docs",
    heldAside: true
  },
  {
    name: "held-aside: FA pharmacy orders, internet packages, restaurant rules",
    questions: "held-aside-fa-4.json",
    documents: "held-fa-4-docs",
    heldAside: true
  }
]

/** Outcomes of one set, ours and the baseline's. */
export interface Outcomes {
  readonly answerable: number
  readonly unanswerable: number
  readonly followUps: number
  /** Answerable and the answer states the fact. */
  readonly answered: number
  /** Unanswerable and declined. */
  readonly declined: number
  /** An answer without the fact (to an answerable question) or any answer to an unanswerable one. */
  readonly wrong: number
  /** Declined though answerable. */
  readonly wrongDeclines: number
  /** Answerable follow-ups, and those answered. */
  readonly followUpsAnswerable: number
  readonly followUpsAnswered: number
  readonly hitAt5: number
}

export interface SetFigures {
  readonly name: string
  readonly heldAside: boolean
  readonly ours: Outcomes
  readonly baseline: Outcomes
}

export interface Figures {
  readonly sets: ReadonlyArray<SetFigures>
  readonly report: string
}

interface Options {
  readonly floor: number
  /** Only these sets (by questions file); all when empty. */
  readonly only: ReadonlyArray<string>
  /** Print the misses of the tuning set (never of a held-aside one). */
  readonly showMisses: boolean
}

const empty = (answerable: number, unanswerable: number, followUps: number, followUpsAnswerable: number): Outcomes => ({
  answerable,
  unanswerable,
  followUps,
  followUpsAnswerable,
  answered: 0,
  declined: 0,
  wrong: 0,
  wrongDeclines: 0,
  followUpsAnswered: 0,
  hitAt5: 0
})

const evaluation = ({ floor, only, showMisses }: Options) =>
  Effect.gen(function*() {
    yield* Effect.promise(() => definePDFJSModule(() => import("unpdf/pdfjs")))
    const search = yield* ChunkSearch
    // Tuning sets first, held-aside ones after: the report prints each group under its own heading.
    const chosen = [...sets].sort((a, b) => Number(a.heldAside) - Number(b.heldAside))
      .filter((set) => only.length === 0 || only.includes(set.questions))
    const ingestLines: Array<string> = []
    const assistants = new Map<string, { readonly key: string; readonly assistantId: string }>()

    /** An assistant holding the folder's documents, ingested once. */
    const assistantFor = (folder: string) =>
      Effect.gen(function*() {
        const known = assistants.get(folder)
        if (known !== undefined) return known
        const account = yield* setupAccount()
        const dir = path.join(dataDir, folder)
        const files = fs.readdirSync(dir).filter((file) => path.extname(file) in mimeTypes && file !== "SOURCES.md")
          .sort()
        for (const file of files) {
          const bytes = new Uint8Array(fs.readFileSync(path.join(dir, file)))
          const type = mimeTypes[path.extname(file)] ?? "application/octet-stream"
          const started = performance.now()
          const created = yield* upload(account.key, account.assistantId, [{ name: file, bytes, type }])
          const job = yield* waitForJob(account.key, account.assistantId, jobIdsOf(created)[0] ?? "", 600_000)
          const readyMs = performance.now() - started
          if (pick(job, "status") !== "ready") {
            return yield* Effect.dieMessage(`ingest of ${file} failed: ${JSON.stringify(job)}`)
          }
          const read = extracted(file, bytes, generousBudget).pipe(Effect.orDie)
          const [, cpu] = yield* cpuSeconds(Effect.map(read, chunkText))
          ingestLines.push(
            `${`${folder}/${file}`.padEnd(42)}${`${(bytes.length / 1024).toFixed(0)} KB`.padStart(7)}${
              `${(readyMs / 1000).toFixed(2)} s`.padStart(10)
            }${String(pick(job, "resultNChunks") ?? 0).padStart(8)}${`${cpu.toFixed(2)} s`.padStart(12)}`
          )
        }
        assistants.set(folder, account)
        return account
      })

    const results: Array<SetFigures> = []
    const misses: Array<string> = []
    for (const set of chosen) {
      const questions = readQuestions(set.questions)
      const { assistantId, key } = yield* assistantFor(set.documents)
      /** The answer to `question`, after `previous` in the same conversation when given. */
      const ask = (question: string, previous: string | undefined) =>
        Effect.gen(function*() {
          let conversationId: string | undefined
          if (previous !== undefined) {
            const first = yield* call("POST", `/v1/assistants/${assistantId}/chat`, {
              token: key,
              body: { principal: "eval", message: previous }
            })
            conversationId = pickString(first.json, "data", "conversationId")
          }
          const reply = yield* call("POST", `/v1/assistants/${assistantId}/chat`, {
            token: key,
            body: { principal: "eval", message: question, ...(conversationId === undefined ? {} : { conversationId }) }
          })
          if (reply.status !== 200) return yield* Effect.dieMessage(`chat answered ${reply.status}: ${reply.text}`)
          return pickString(reply.json, "data", "text")
        })
      /**
       * What retrieval finds for the turn, searching the query chat builds for it (a follow-up with the question
       * before it, colloquial words also without their endings): the baseline quotes the best of it, verbatim.
       */
      const retrieve = (question: string, previous: string | undefined) =>
        Effect.map(
          search.search({ assistantId, query: resolveAfter(question, previous).query, limit: 5 }),
          (hits) => hits.filter((hit) => hit.score >= floor)
        )
      const followUps = [...questions.answerable, ...questions.unanswerable].filter((q) => q.previous !== undefined)
      let ours = empty(
        questions.answerable.length,
        questions.unanswerable.length,
        followUps.length,
        questions.answerable.filter((q) => q.previous !== undefined).length
      )
      let baseline = ours
      for (const q of questions.answerable) {
        const hits = yield* retrieve(q.question, q.previous)
        const answer = yield* ask(q.question, q.previous)
        const best = hits[0]?.text
        const stated = contains(answer, q.fact)
        const declined = declines.test(answer)
        ours = {
          ...ours,
          answered: ours.answered + (stated ? 1 : 0),
          wrong: ours.wrong + (!stated && !declined ? 1 : 0),
          wrongDeclines: ours.wrongDeclines + (declined ? 1 : 0),
          followUpsAnswered: ours.followUpsAnswered + (stated && q.previous !== undefined ? 1 : 0),
          hitAt5: ours.hitAt5 + (hits.some((hit) => hit.path === q.path && contains(hit.text, q.fact)) ? 1 : 0)
        }
        const baselineStated = best !== undefined && contains(best, q.fact)
        baseline = {
          ...baseline,
          answered: baseline.answered + (baselineStated ? 1 : 0),
          wrong: baseline.wrong + (best !== undefined && !baselineStated ? 1 : 0),
          wrongDeclines: baseline.wrongDeclines + (best === undefined ? 1 : 0),
          followUpsAnswered: baseline.followUpsAnswered + (baselineStated && q.previous !== undefined ? 1 : 0),
          hitAt5: ours.hitAt5
        }
        if (!stated && showMisses && !set.heldAside) {
          // Where the fact was among the passages the baseline retrieves: the best, a lower one, or none.
          const factAt = hits.findIndex((hit) => contains(hit.text, q.fact))
          const where = factAt < 0 ? "fact not retrieved" : `fact in passage ${factAt + 1}`
          misses.push(
            `${q.id} ${declined ? "declined" : "quoted"}, ${where}: ${q.question} [${q.fact}]\n  answer: ${
              answer.replace(/\n/g, " / ")
            }`
          )
        }
      }
      for (const q of questions.unanswerable) {
        const answer = yield* ask(q.question, q.previous)
        const declined = declines.test(answer)
        ours = { ...ours, declined: ours.declined + (declined ? 1 : 0), wrong: ours.wrong + (declined ? 0 : 1) }
        const baselineDeclined = (yield* retrieve(q.question, q.previous)).length === 0
        baseline = {
          ...baseline,
          declined: baseline.declined + (baselineDeclined ? 1 : 0),
          wrong: baseline.wrong + (baselineDeclined ? 0 : 1)
        }
        if (!declined && showMisses && !set.heldAside) {
          misses.push(`${q.id} (unanswerable) ${q.question}\n  answer: ${answer.replace(/\n/g, " / ")}`)
        }
      }
      results.push({ name: set.name, heldAside: set.heldAside, ours, baseline })
    }

    const pct = (part: number, whole: number) => whole === 0 ? "-" : `${(100 * part / whole).toFixed(1)}%`
    const cell = (part: number, whole: number) => `${part}/${whole} ${pct(part, whole)}`.padStart(16)
    const row = (label: string, ours: string, baseline: string) => `  ${label.padEnd(34)}${ours}   ${baseline}`
    const lines = [
      `Answers evaluation, offline answerer, relevance floor ${floor} (load average ${
        os.loadavg()[0].toFixed(1)
      } on ${os.cpus().length} CPUs)`,
      "",
      `${"document".padEnd(42)}   size  ready in  chunks  read+chunk (CPU s)`,
      ...ingestLines
    ]
    for (const [index, { baseline, heldAside, name, ours }] of results.entries()) {
      const answerable = ours.answerable
      if (index === 0 || results[index - 1]?.heldAside !== heldAside) {
        lines.push("", heldAside ? "== held-aside sets (never tuned on) ==" : "== tuning sets ==")
      }
      lines.push(
        "",
        `${name}: ${answerable} answerable (${ours.followUps} follow-ups in all), ${ours.unanswerable} unanswerable`,
        row("", "offline answerer".padStart(16), "best passage verbatim".padStart(22)),
        row("answered, fact stated", cell(ours.answered, answerable), cell(baseline.answered, answerable)),
        row("declined correctly", cell(ours.declined, ours.unanswerable), cell(baseline.declined, ours.unanswerable)),
        row(
          "wrong answers (of all questions)",
          cell(ours.wrong, answerable + ours.unanswerable),
          cell(baseline.wrong, answerable + ours.unanswerable)
        ),
        row(
          "wrong declines (of answerable)",
          cell(ours.wrongDeclines, answerable),
          cell(baseline.wrongDeclines, answerable)
        ),
        row(
          "follow-ups answered",
          cell(ours.followUpsAnswered, ours.followUpsAnswerable),
          cell(baseline.followUpsAnswered, ours.followUpsAnswerable)
        ),
        row("retrieval hit@5 (chunk with fact)", cell(ours.hitAt5, answerable), "")
      )
    }
    if (misses.length > 0) lines.push("", "tuning-set misses:", ...misses)
    return { sets: results, report: lines.join("\n") } satisfies Figures
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
