/**
 * Conversation-log benchmark: one assistant with `--conversations` conversations
 * (5 messages each, a fifth flagged, 10% of them with a question in the
 * unanswered report), then latency of
 *
 * - a list page (`GET …/conversations?limit=50`, first pages and deep cursors,
 *   with and without a filter) beside the bare SQL statement it runs;
 * - the unanswered report (`GET …/unanswered`, the default 30 days) beside its bare SQL;
 * - a chat turn answered from a curated answer beside a normal (offline model) turn.
 *
 *   pnpm bench:conversations [-- --conversations 100000 --requests 200]   (scripts/bench/conversations.ts)
 *
 * The service runs in this process on the in-memory test server (no socket), on a
 * fresh database from `DATABASE_URL` (dropped at the end). Rows are made with
 * `generate_series` in Postgres, not through chat: the point is reading them.
 */
import { SqlClient } from "@effect/sql"
import * as Effect from "effect/Effect"
import { performance } from "node:perf_hooks"
import { parseArgs } from "node:util"
import { call, pick, pickString, setupAccount, TestApp } from "./TestApp"

const { values } = parseArgs({
  options: { conversations: { type: "string", default: "100000" }, requests: { type: "string", default: "200" } },
  args: process.argv.slice(2).filter((arg) => arg !== "--")
})
const conversations = Number(values.conversations)
const requests = Number(values.requests)

const quantile = (sorted: ReadonlyArray<number>, q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN

/** Runs `once` `requests` times after a tenth as many warm-up runs; p50 and p99 in ms. */
const timed = <A, E, R>(once: (i: number) => Effect.Effect<A, E, R>, count = requests) =>
  Effect.gen(function*() {
    for (let i = 0; i < Math.max(5, count / 10); i++) yield* once(i)
    const times: Array<number> = []
    for (let i = 0; i < count; i++) {
      const start = performance.now()
      yield* once(i)
      times.push(performance.now() - start)
    }
    times.sort((a, b) => a - b)
    return { p50: quantile(times, 0.5), p99: quantile(times, 0.99) }
  })

/** A measured call that answered anything but 200 would measure the wrong thing. */
const ok = <E, R>(reply: Effect.Effect<{ readonly status: number; readonly text: string }, E, R>) =>
  Effect.flatMap(
    reply,
    (answer) =>
      answer.status === 200 ? Effect.succeed(answer) : Effect.die(new Error(`${answer.status}: ${answer.text}`))
  )

const row = (name: string, figures: { readonly p50: number; readonly p99: number }) =>
  `${name.padEnd(44)} p50 ${figures.p50.toFixed(2).padStart(8)} ms   p99 ${figures.p99.toFixed(2).padStart(8)} ms`

const program = Effect.gen(function*() {
  const sql = yield* SqlClient.SqlClient
  const { accountId, assistantId, key } = yield* setupAccount()
  const base = `/v1/assistants/${assistantId}`
  const seedStart = performance.now()
  yield* sql`
    INSERT INTO conversations (id, account_id, assistant_id, principal, channel, title, message_count,
      needs_attention, created_at, updated_at)
    SELECT 'conv_b' || i, ${accountId}, ${assistantId}, 'customer-' || (i % 5000),
      (ARRAY['api','web','telegram','bale','whatsapp','webhook'])[1 + i % 6], 'Question number ' || i, 5, i % 5 = 0,
      now() - (i || ' seconds')::interval, now() - (i || ' seconds')::interval
    FROM generate_series(1, ${conversations}) AS i`
  yield* sql`
    INSERT INTO chat_messages (assistant_id, conversation_id, role, content, tokens, meta, created_at)
    SELECT ${assistantId}, 'conv_b' || i, CASE WHEN m % 2 = 1 THEN 'user' ELSE 'assistant' END, 'Message ' || m || ' of ' || i, 5,
      '{"sources":[],"products":[],"model":"dastyar-local","degraded":false}', now() - (i || ' seconds')::interval
    FROM generate_series(1, ${conversations}) AS i, generate_series(1, 5) AS m`
  // A tenth of the conversations left a question unanswered, in 500 groups.
  yield* sql`
    INSERT INTO question_groups (assistant_id, model_id, label, terms, vector, size)
    SELECT ${assistantId}, 'bench', 'Group ' || g, ARRAY['group' || g], array_fill(0.1::real, ARRAY[8])::vector, 1
    FROM generate_series(1, 500) AS g`
  yield* sql`
    INSERT INTO unanswered_questions (message_id, group_id, assistant_id, conversation_id, question, reasons, channel,
      created_at)
    SELECT m.id, (SELECT min(id) FROM question_groups) + (m.id % 500), ${assistantId}, m.conversation_id,
      'Unanswered ' || (m.id % 2000), ARRAY['declined'], 'api', m.created_at
    FROM chat_messages m WHERE m.role = 'assistant' AND m.id % 20 = 0`
  yield* sql`ANALYZE conversations`
  yield* sql`ANALYZE chat_messages`
  yield* sql`ANALYZE unanswered_questions`
  const [counted] = yield* sql<{ readonly messages: number }>`SELECT count(*)::int AS messages FROM chat_messages`
  const messages = counted?.messages ?? 0
  console.log(
    `seeded ${conversations} conversations, ${messages} messages in ${
      ((performance.now() - seedStart) / 1000).toFixed(1)
    } s`
  )

  // Cursors deep into the list, taken from real pages.
  const cursors: Array<string> = []
  let cursor: string | undefined
  for (let i = 0; i < 20; i++) {
    const page = yield* call("GET", `${base}/conversations?limit=200${cursor ? `&cursor=${cursor}` : ""}`, {
      token: key
    })
    cursor = encodeURIComponent(pickString(page.json, "data", "nextCursor"))
    cursors.push(cursor)
  }
  const listUrl = (i: number) =>
    i % 4 === 0
      ? `${base}/conversations?limit=50`
      : i % 4 === 1
      ? `${base}/conversations?limit=50&cursor=${cursors[i % cursors.length]}`
      : i % 4 === 2
      ? `${base}/conversations?limit=50&needsAttention=true`
      : `${base}/conversations?limit=50&channel=telegram`
  const service = yield* timed((i) => ok(call("GET", listUrl(i), { token: key })))
  const bare = yield* timed((i) =>
    i % 4 === 2
      ? sql`SELECT * FROM conversations WHERE assistant_id = ${assistantId} AND needs_attention
            ORDER BY created_at DESC, id DESC LIMIT 51`
      : i % 4 === 3
      ? sql`SELECT * FROM conversations WHERE assistant_id = ${assistantId} AND channel = 'telegram'
            ORDER BY created_at DESC, id DESC LIMIT 51`
      : sql`SELECT * FROM conversations WHERE assistant_id = ${assistantId}
            ORDER BY created_at DESC, id DESC LIMIT 51`
  )
  // What any key-protected route costs in this harness (the in-process test server and client), for reference.
  const reference = yield* timed(() => ok(call("GET", "/v1/assistants", { token: key })))
  console.log(row("reference: GET /v1/assistants", reference))
  console.log(row("list page, service (HTTP, in process)", service))
  console.log(row("list page, bare SQL", bare))

  const reportRequests = Math.max(10, Math.floor(requests / 10))
  const reportService = yield* timed(() => ok(call("GET", `${base}/unanswered`, { token: key })), reportRequests)
  const reportBare = yield* timed(() =>
    sql`SELECT group_id, count(*) FROM unanswered_questions
        WHERE assistant_id = ${assistantId} AND created_at >= now() - interval '30 days'
        GROUP BY group_id ORDER BY count(*) DESC LIMIT 50`, reportRequests)
  console.log(row("unanswered report, service", reportService))
  console.log(row("unanswered report, bare SQL (counts only)", reportBare))

  // Chat: a curated hit beside a turn the offline model answers.
  yield* call("POST", `${base}/curated`, {
    token: key,
    body: { questions: ["Do you offer gift wrapping?"], answer: "Yes, free at checkout." }
  })
  const curated = yield* timed((i) =>
    ok(
      call("POST", `${base}/chat`, { token: key, body: { principal: `c${i}`, message: "Is gift wrapping available?" } })
    )
  )
  const normal = yield* timed((i) =>
    ok(call("POST", `${base}/chat`, { token: key, body: { principal: `n${i}`, message: "Do you ship to Shiraz?" } }))
  )
  const check = yield* call("POST", `${base}/chat`, {
    token: key,
    body: { principal: "x", message: "Is gift wrapping available?" }
  })
  if (pick(check.json, "data", "model") !== "curated") {
    throw new Error(`the curated answer did not match: ${check.text}`)
  }
  console.log(row("chat, curated hit", curated))
  console.log(row("chat, offline model (no documents)", normal))
})

Effect.runPromise(program.pipe(Effect.provide(TestApp({ DASTYAR_RATE_LIMIT_PER_MINUTE: "1000000" })), Effect.scoped))
  .catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
