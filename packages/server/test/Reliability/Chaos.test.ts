/**
 * Chaos: the compiled server on real Postgres, driven with product imports
 * and creates, text and file ingests and chat by four clients, is killed with
 * SIGKILL at seeded random moments and started again each time
 * (`RELIABILITY_CHAOS_KILLS`: CI 10, `pnpm test:reliability` 50). Then, once
 * the work left behind has settled, the database must show: every
 * acknowledged write present, no import half-written, every job `ready` or
 * `failed`, every product `synced`, no queue element left open and no stored
 * upload piece left over. No answer may be a 5xx other than the 503 of a
 * server still starting.
 */
import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import pg from "pg"
import { freePort } from "../support/Ports"
import { adminToken } from "../support/TestApp"
import { type ChildServer, kill, startServer, storage } from "./ChildServer"
import { report, setting } from "./Fixture"
import { cutReason, requestOnce } from "./Requests"

const kills = setting("RELIABILITY_CHAOS_KILLS", 10)
const seed = setting("RELIABILITY_SEED", 14)
const clients = 4
const importSize = 20

/** mulberry32: a small seeded generator, so a run can be replayed. */
const generator = (start: number) => {
  let state = start >>> 0
  return () => {
    state = (state + 0x6d2b79f5) >>> 0
    let t = state
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

type Outcome =
  | { readonly kind: "answer"; readonly status: number; readonly json: unknown }
  | { readonly kind: "cut"; readonly error: string }

const send = async (base: string, method: string, path: string, token: string, body?: unknown | FormData) => {
  try {
    return { kind: "answer", ...await requestOnce(base, method, path, token, body) } satisfies Outcome
  } catch (error) {
    return { kind: "cut", error: cutReason(error) } satisfies Outcome
  }
}

const field = (value: unknown, ...path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>(
    (current, key) => (typeof current === "object" && current !== null ? Reflect.get(current, key) : undefined),
    value
  )

const text = (value: unknown, ...path: ReadonlyArray<string | number>): string => {
  const found = field(value, ...path)
  if (typeof found !== "string") throw new Error(`expected a string at ${path.join(".")}: ${JSON.stringify(value)}`)
  return found
}

/** What the clients were told was done, and what they tried without an answer. */
interface Ledger {
  readonly products: Set<string>
  readonly imports: Array<{ readonly ids: ReadonlyArray<string>; readonly acknowledged: boolean }>
  readonly jobs: Set<string>
  readonly turns: Map<string, number>
  requests: number
  acknowledged: number
  cut: number
  readonly failures: Array<string>
}

describe("reliability: chaos", () => {
  it.live.skipIf(process.env.DATABASE_URL === undefined)(
    `${kills} SIGKILLs under load on Postgres: nothing acknowledged lost, nothing half-done, nothing stuck`,
    () =>
      Effect.gen(function*() {
        const store = yield* storage
        const databaseUrl = store.databaseUrl ?? ""
        const port = yield* Effect.promise(freePort)
        const env = { DASTYAR_INGEST_RETRY_DELAY: "200 millis" }
        const current: { server: ChildServer } = { server: yield* startServer(store, env, port) }
        yield* Effect.addFinalizer(() => kill(current.server))
        const base = current.server.base
        const started = Date.now()

        const admin = (method: string, path: string, body?: unknown) =>
          Effect.promise(() => send(base, method, `/admin/v1${path}`, adminToken, body)).pipe(
            Effect.map((outcome) => (outcome.kind === "answer" ? outcome.json : undefined))
          )
        const accountId = text(yield* admin("POST", "/accounts", { name: "Chaos" }), "data", "id")
        const key = text(yield* admin("POST", `/accounts/${accountId}/keys`, { name: "chaos" }), "data", "key")
        const assistantId = text(yield* admin("POST", `/accounts/${accountId}/assistants`, { name: "C" }), "data", "id")
        for (let i = 0; i < 200; i++) {
          if (field(yield* admin("GET", `/assistants/${assistantId}`), "data", "status") === "active") break
          yield* Effect.sleep("100 millis")
        }
        const api = `/v1/assistants/${assistantId}`

        const random = generator(seed)
        const ledger: Ledger = {
          products: new Set(),
          imports: [],
          jobs: new Set(),
          turns: new Map(),
          requests: 0,
          acknowledged: 0,
          cut: 0,
          failures: []
        }
        let serial = 0

        /** One request of a random kind; its answer, or the lack of one, goes into the ledger. */
        const step = async (client: number) => {
          const n = serial++
          const choice = random()
          ledger.requests++
          const check = (outcome: Outcome, label: string): outcome is Extract<Outcome, { kind: "answer" }> => {
            if (outcome.kind === "cut") {
              ledger.cut++
              return false
            }
            // 503 is the answer of a server still starting (or whose database is not reachable yet).
            if (outcome.status >= 500 && outcome.status !== 503) {
              ledger.failures.push(`${label} → ${outcome.status} ${JSON.stringify(outcome.json).slice(0, 200)}`)
            }
            if (outcome.status >= 200 && outcome.status < 300) {
              ledger.acknowledged++
              return true
            }
            return false
          }
          if (choice < 0.3) {
            const ids = Array.from({ length: importSize }, (_, i) => `imp-${n}-${i}`)
            const batch = { ids, acknowledged: false }
            ledger.imports.push(batch)
            const outcome = await send(base, "POST", `${api}/products/import`, key, {
              products: ids.map((externalId, i) => ({ externalId, title: `Chaos item ${n} ${i}`, category: "chaos" }))
            })
            if (check(outcome, "import")) {
              ledger.imports[ledger.imports.indexOf(batch)] = { ids, acknowledged: true }
              for (const id of ids) ledger.products.add(id)
            }
          } else if (choice < 0.45) {
            const externalId = `one-${n}`
            const outcome = await send(base, "POST", `${api}/products`, key, { externalId, title: `Single ${n}` })
            if (check(outcome, "create")) ledger.products.add(externalId)
          } else if (choice < 0.65) {
            const outcome = await send(base, "POST", `${api}/documents/text`, key, {
              filename: `note-${n}.md`,
              content: `# Note ${n}\nDeliveries to district ${n % 22} take ${1 + (n % 5)} days.`
            })
            if (check(outcome, "text ingest")) ledger.jobs.add(text(outcome.json, "data", "list", 0, "id"))
          } else if (choice < 0.8) {
            const form = new FormData()
            form.append(
              "files",
              new Blob([`# File ${n}\nReturns within ${n % 30} days.`], { type: "text/markdown" }),
              `file-${n}.md`
            )
            const outcome = await send(base, "POST", `${api}/documents`, key, form)
            if (check(outcome, "upload")) ledger.jobs.add(text(outcome.json, "data", "list", 0, "id"))
          } else {
            const outcome = await send(base, "POST", `${api}/chat`, key, {
              principal: `chaos-${client}`,
              message: `How long does delivery to district ${n % 22} take?`
            })
            if (check(outcome, "chat")) {
              const conversationId = text(outcome.json, "data", "conversationId")
              ledger.turns.set(conversationId, (ledger.turns.get(conversationId) ?? 0) + 1)
            }
          }
        }

        for (let round = 0; round < kills; round++) {
          const running = { value: true }
          const drivers = Array.from({ length: clients }, async (_, client) => {
            while (running.value) await step(client)
          })
          yield* Effect.sleep(`${Math.round(300 + random() * 1700)} millis`)
          yield* kill(current.server)
          running.value = false
          yield* Effect.promise(() => Promise.all(drivers))
          current.server = yield* startServer(store, env, port)
        }

        // Let the work left behind settle: a job whose worker was killed waits out its queue lease (30 s).
        const db = new pg.Client({ connectionString: databaseUrl })
        yield* Effect.promise(() => db.connect())
        yield* Effect.addFinalizer(() => Effect.promise(() => db.end()))
        const count = (query: string, values: ReadonlyArray<unknown> = []) =>
          Effect.promise(() => db.query<{ readonly n: string }>(query, [...values])).pipe(
            Effect.map((result) => Number(result.rows[0]?.n ?? 0))
          )
        const open = Effect.all({
          jobs: count(`SELECT count(*) AS n FROM document_jobs WHERE status IN ('queued', 'processing')`),
          products: count(`SELECT count(*) AS n FROM products WHERE index_state <> 'synced'`)
        })
        const settleStarted = Date.now()
        let left = yield* open
        while ((left.jobs > 0 || left.products > 0) && Date.now() - settleStarted < 240_000) {
          yield* Effect.sleep("500 millis")
          left = yield* open
        }
        const settleSeconds = (Date.now() - settleStarted) / 1000

        const present = new Set(
          (yield* Effect.promise(() =>
            db.query<{ readonly external_id: string }>(
              `SELECT external_id FROM products WHERE assistant_id = $1`,
              [assistantId]
            )
          )).rows.map((row) => row.external_id)
        )
        const lostProducts = [...ledger.products].filter((id) => !present.has(id))
        const partialImports = ledger.imports.filter(({ ids }) => {
          const found = ids.filter((id) => present.has(id)).length
          return found !== 0 && found !== ids.length
        })
        const jobRows = (yield* Effect.promise(() =>
          db.query<{ readonly id: string; readonly status: string }>(`SELECT id, status FROM document_jobs`)
        )).rows
        const jobStatus = new Map(jobRows.map((row) => [row.id, row.status]))
        const lostJobs = [...ledger.jobs].filter((id) =>
          !jobStatus.has(id)
        )
        const stuckJobs = jobRows.filter((row) => row.status !== "ready" && row.status !== "failed")
        const failedJobs = jobRows.filter((row) => row.status === "failed").length
        const messages = new Map(
          (yield* Effect.promise(() =>
            db.query<{ readonly conversation_id: string; readonly n: string }>(
              `SELECT conversation_id, count(*) AS n FROM chat_messages WHERE role = 'user' GROUP BY conversation_id`
            )
          )).rows.map((row) => [row.conversation_id, Number(row.n)])
        )
        const lostTurns = [...ledger.turns].filter(([conversation, turns]) => (messages.get(conversation) ?? 0) < turns)
        const unsynced = yield* count(`SELECT count(*) AS n FROM products WHERE index_state <> 'synced'`)
        const openElements = yield* count(`SELECT count(*) AS n FROM dastyar_queue WHERE completed = false`)
        const pieces = yield* count(`SELECT count(*) AS n FROM document_upload_pieces`)

        yield* report("chaos", {
          kills,
          seed,
          requests: ledger.requests,
          acknowledged: ledger.acknowledged,
          cut: ledger.cut,
          failures: ledger.failures.length + lostProducts.length + partialImports.length + lostJobs.length +
            stuckJobs.length + lostTurns.length + unsynced + openElements + pieces,
          products: present.size,
          jobs: jobRows.length,
          failedJobs,
          settleSeconds: settleSeconds.toFixed(1),
          seconds: ((Date.now() - started) / 1000).toFixed(1)
        })
        expect(ledger.failures.slice(0, 20)).toEqual([])
        expect(lostProducts.slice(0, 20)).toEqual([])
        expect(partialImports.slice(0, 5)).toEqual([])
        expect(lostJobs).toEqual([])
        expect(stuckJobs).toEqual([])
        expect(lostTurns).toEqual([])
        expect({ unsynced, openElements, pieces }).toEqual({ unsynced: 0, openElements: 0, pieces: 0 })
        expect(ledger.acknowledged).toBeGreaterThan(kills)
      }).pipe(Effect.scoped),
    1_800_000
  )
})
