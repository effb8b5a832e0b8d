/**
 * Knowledge-base ingest benchmark against the real server (a child process):
 *
 * - text and PDF throughput: MB/s and chunks/s from upload to `ready`;
 * - time to `ready` of one 25 MB PDF (400 pages of text, padded to 25 MB with an embedded file);
 * - the server's resident memory (RSS, sampled from /proc every 25 ms) while ten
 *   25 MB files upload at once, and while they are then ingested.
 *
 *   pnpm bench:ingest
 *
 * Uses `DATABASE_URL` (its user must be allowed to CREATE DATABASE), default
 * the local Postgres; creates a fresh database and drops it at the end.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import * as zlib from "node:zlib"
import type PgModule from "pg"
import type * as PdfLibModule from "../../packages/server/node_modules/pdf-lib"
import { serverNodeFlags } from "../../packages/server/src/Platform/NodeFlags"
import { halfvecBinary } from "../../packages/server/src/Search/Embedder"
import { embedOne } from "../../packages/server/src/Search/OfflineEmbedder"
import { freePort } from "./Harness"

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")
const serverRequire = createRequire(path.join(repoRoot, "packages/server/package.json"))
const pg: typeof PgModule = serverRequire("pg")
const pdfLib: typeof PdfLibModule = serverRequire("pdf-lib")
const { PDFDocument, StandardFonts } = pdfLib

const baseDatabaseUrl = process.env.DATABASE_URL ?? "postgres://postgres@127.0.0.1:5432/postgres"
const adminToken = "bench-admin-token-0123456789abcdef"
const MB = 1024 * 1024

const withPg = async <A>(f: (client: PgModule.Client) => Promise<A>) => {
  const client = new pg.Client({ connectionString: baseDatabaseUrl })
  await client.connect()
  try {
    return await f(client)
  } finally {
    await client.end()
  }
}

/** Reads `a.b.c` of parsed JSON, or undefined. */
const field = (value: unknown, ...path: ReadonlyArray<string | number>): unknown =>
  path.reduce<unknown>(
    (current, key) => (typeof current === "object" && current !== null ? Reflect.get(current, key) : undefined),
    value
  )
const text = (value: unknown, ...path: ReadonlyArray<string | number>) => String(field(value, ...path))

const rssOf = (pid: number): number => {
  const status = fs.readFileSync(`/proc/${pid}/status`, "utf8")
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? "0")
  return kb * 1024
}

/** CPU seconds a process and its reaped children have used (`/proc/<pid>/stat`, 100 ticks a second). */
const cpuOf = (pid: number): number => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? []
    return [11, 12, 13, 14].reduce((sum, i) => sum + Number(fields[i] ?? 0), 0) / 100
  } catch {
    return 0 // the process ended
  }
}

/** Samples the child's RSS until stopped; returns the peak. */
const sampleRss = (pid: number) => {
  let peak = 0
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssOf(pid))
    } catch {
      // the process ended
    }
  }, 25)
  return { stop: () => (clearInterval(timer), peak), peek: () => peak }
}

const paragraph = (i: number) =>
  `Section ${i}. Our kettles are made of stainless steel and ship within two working days. ` +
  `The warranty covers heating elements for eighteen months; descale monthly with white vinegar. ` +
  `کتری‌های ما از فولاد ضدزنگ ساخته شده‌اند و ظرف دو روز کاری ارسال می‌شوند. شماره ${i}.`

const makeText = (bytes: number) => {
  const parts: Array<string> = []
  let size = 0
  for (let i = 0; size < bytes; i++) {
    const text = i % 20 === 0 ? `\n# Chapter ${i / 20}\n\n` : `${paragraph(i)}\n\n`
    parts.push(text)
    size += Buffer.byteLength(text)
  }
  return Buffer.from(parts.join(""))
}

/** A grey-noise PNG (8-bit greyscale): an image OCR has to work through. */
const makePng = (width: number, height: number) => {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    return c >>> 0
  })
  const crc = (bytes: Buffer) => {
    let c = 0xffffffff
    for (const byte of bytes) c = (crcTable[(c ^ byte) & 0xff] ?? 0) ^ (c >>> 8)
    return (c ^ 0xffffffff) >>> 0
  }
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data])
    const length = Buffer.alloc(4)
    length.writeUInt32BE(data.length)
    const sum = Buffer.alloc(4)
    sum.writeUInt32BE(crc(body))
    return Buffer.concat([length, body, sum])
  }
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8 // bit depth
  header[9] = 0 // greyscale
  const rows = Buffer.alloc((width + 1) * height)
  let seed = 1
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      rows[y * (width + 1) + 1 + x] = seed & 0xff
    }
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(rows)),
    chunk("IEND", Buffer.alloc(0))
  ])
}

const percentile = (sorted: ReadonlyArray<number>, p: number) =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0

const makePdf = async (pages: number, padToBytes = 0) => {
  const pdf = await PDFDocument.create()
  const font = await pdf.embedFont(StandardFonts.Helvetica)
  for (let p = 0; p < pages; p++) {
    const page = pdf.addPage([595, 842])
    const lines = Array.from(
      { length: 6 },
      (_, i) => `Page ${p}, line ${i}: kettles ship within two working days; warranty eighteen months.`
    )
    page.drawText(lines.join("\n"), { x: 40, y: 800, size: 10, font, lineHeight: 14 })
  }
  const base = await pdf.save()
  if (padToBytes <= base.length) return Buffer.from(base)
  // An embedded file (incompressible bytes) brings the PDF to the wanted size, as scans and attachments do.
  const padded = async (fillerBytes: number) => {
    const copy = await PDFDocument.load(base)
    const filler = Buffer.alloc(fillerBytes)
    for (let i = 0; i + 4 <= filler.length; i += 4) filler.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, i)
    await copy.attach(filler, "filler.bin", { mimeType: "application/octet-stream" })
    return Buffer.from(await copy.save({ useObjectStreams: false }))
  }
  const first = await padded(padToBytes - base.length)
  return first.length <= padToBytes ? first : padded(padToBytes - base.length - (first.length - padToBytes) - 1024)
}

interface Server {
  readonly base: string
  readonly child: ChildProcess
  readonly pid: number
}

/**
 * The baseline for text ingest, in this process with bare `pg` on the same database: the text decoded, cut
 * into fixed 1,200-character windows, each embedded by the same offline embedder (the same halfvec sent in
 * binary) and its lower-cased words split on anything but letters and digits, inserted 64 rows a statement
 * on one connection into a table with a GIN over the words. No upload, no job, no structure, no dictionary:
 * the floor of what a text's chunks cost to embed and index here. Returns seconds, the CPU of this process
 * and of its Postgres backend, and the chunk count.
 */
const bareTextIngest = async (databaseUrl: string, bytes: Buffer) => {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await client.query(`
      CREATE TABLE bare_chunks (n integer PRIMARY KEY, text text NOT NULL, words text[] COLLATE "C" NOT NULL,
        embedding halfvec(512) NOT NULL)`)
    await client.query(`CREATE INDEX ON bare_chunks USING gin (words)`)
    const backend = (await client.query<{ pid: number }>(`SELECT pg_backend_pid() AS pid`)).rows[0]?.pid ?? 0
    const backendCpuBefore = cpuOf(backend)
    const cpuBefore = process.cpuUsage()
    const started = performance.now()
    const text = new TextDecoder().decode(bytes)
    const windowChars = 1200
    const batch = 64
    let n = 0
    for (let at = 0; at < text.length; at += windowChars * batch) {
      const values: Array<unknown> = []
      const rows: Array<string> = []
      for (let i = 0; i < batch && at + i * windowChars < text.length; i++, n++) {
        const window = text.slice(at + i * windowChars, at + (i + 1) * windowChars)
        values.push(
          n,
          window,
          [...new Set(window.toLowerCase().split(/[^\p{L}\p{N}]+/u))].filter((word) => word !== ""),
          halfvecBinary(embedOne(window))
        )
        const k = values.length
        rows.push(`($${k - 3}, $${k - 2}, $${k - 1}, $${k})`)
      }
      await client.query(`INSERT INTO bare_chunks (n, text, words, embedding) VALUES ${rows.join(", ")}`, values)
    }
    const seconds = (performance.now() - started) / 1000
    const cpu = process.cpuUsage(cpuBefore)
    return { seconds, cpu: (cpu.user + cpu.system) / 1e6, postgresCpu: cpuOf(backend) - backendCpuBefore, chunks: n }
  } finally {
    await client.query(`DROP TABLE IF EXISTS bare_chunks`)
    await client.end()
  }
}

const startServer = async (databaseUrl: string): Promise<Server> => {
  const port = await freePort()
  // The compiled server, as `pnpm start` runs it (built by main when needed).
  // BENCH_SERVER_NODE_ARGS adds node flags to the server alone, e.g. "--cpu-prof --cpu-prof-dir=…".
  const nodeArgs = (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/).filter((arg) => arg !== "")
  const child = spawn(process.execPath, [...serverNodeFlags, ...nodeArgs, "dist/js/main.js"], {
    cwd: path.join(repoRoot, "packages/server"),
    env: {
      ...process.env,
      PORT: String(port),
      DATABASE_URL: databaseUrl,
      DASTYAR_ADMIN_TOKEN: adminToken,
      DASTYAR_SEED_DEMO: "false",
      DASTYAR_LOG_LEVEL: "Error",
      DASTYAR_RATE_LIMIT_PER_MINUTE: "1000000"
    },
    stdio: ["ignore", "inherit", "inherit"]
  })
  const base = `http://127.0.0.1:${port}`
  for (let i = 0; i < 600; i++) {
    const ready = await fetch(`${base}/ready`, { signal: AbortSignal.timeout(2000) }).then((r) => r.ok, () => false)
    if (ready) return { base, child, pid: child.pid ?? 0 }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  child.kill("SIGKILL")
  throw new Error("the server did not become ready")
}

const main = async () => {
  execFileSync(process.execPath, [path.join(repoRoot, "scripts/build.mjs"), "--if-needed"], { stdio: "inherit" })
  const dbName = `dastyar_bench_ingest_${Date.now()}`
  await withPg((client) => client.query(`CREATE DATABASE ${dbName}`))
  const url = new URL(baseDatabaseUrl)
  url.pathname = `/${dbName}`
  let server: Server | undefined
  try {
    console.log("starting the server…")
    server = await startServer(url.toString())
    console.log("server ready")
    const { base, pid } = server
    const admin = async (method: string, route: string, body?: unknown): Promise<unknown> =>
      (await fetch(`${base}/admin/v1${route}`, {
        method,
        headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })).json()
    const account = await admin("POST", "/accounts", { name: "Bench" })
    const accountId = text(account, "data", "id")
    const key = text(await admin("POST", `/accounts/${accountId}/keys`, { name: "bench" }), "data", "key")
    const assistantId = text(await admin("POST", `/accounts/${accountId}/assistants`, { name: "Bench" }), "data", "id")
    for (let i = 0; i < 100; i++) {
      if (field(await admin("GET", `/assistants/${assistantId}`), "data", "status") === "active") break
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const documents = `${base}/v1/assistants/${assistantId}/documents`
    const uploadFiles = async (files: ReadonlyArray<{ readonly name: string; readonly bytes: Buffer }>) => {
      const form = new FormData()
      for (const file of files) form.append("files", new Blob([file.bytes]), file.name)
      const reply: unknown =
        await (await fetch(documents, { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form }))
          .json()
      const list = field(reply, "data", "list")
      if (!Array.isArray(list)) throw new Error(`upload refused: ${JSON.stringify(reply)}`)
      return list.map((job) => text(job, "id"))
    }
    const waitReady = async (jobId: string) => {
      for (;;) {
        const reply: unknown =
          await (await fetch(`${documents}/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } })).json()
        const status = field(reply, "data", "status")
        if (status === "ready") {
          // When the job turned ready by its own record (the server's clock is this machine's), not when a
          // poll saw it, so the polling interval is not part of the figure.
          return {
            resultNChunks: Number(field(reply, "data", "resultNChunks")),
            readyAt: Date.parse(text(reply, "data", "updatedAt"))
          }
        }
        if (status === "failed") throw new Error(`job ${jobId} failed: ${text(reply, "data", "errorMessage")}`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    }
    // CPU of the server and of the database's backends (those still open at the end of a phase), so that
    // runs on a busy machine can be compared by the work done rather than by the time taken.
    const postgresCpu = () =>
      withPg((client) => client.query<{ pid: number }>(`SELECT pid FROM pg_stat_activity WHERE datname = $1`, [dbName]))
        .then((result) => result.rows.reduce((sum, row) => sum + cpuOf(row.pid), 0))
    const timed = async (name: string, files: ReadonlyArray<{ readonly name: string; readonly bytes: Buffer }>) => {
      const serverCpuBefore = cpuOf(pid)
      const postgresCpuBefore = await postgresCpu()
      const startedAt = Date.now()
      const started = performance.now()
      const jobs = await uploadFiles(files)
      const uploaded = performance.now()
      const results = await Promise.all(jobs.map(waitReady))
      const polled = (performance.now() - started) / 1000
      const seconds = (Math.max(...results.map((result) => result.readyAt)) - startedAt) / 1000
      const bytes = files.reduce((sum, file) => sum + file.bytes.length, 0)
      const chunks = results.reduce((sum, result) => sum + result.resultNChunks, 0)
      console.log(
        `${name.padEnd(34)} ${(bytes / MB).toFixed(1).padStart(6)} MB ${String(chunks).padStart(6)} chunks ` +
          `${seconds.toFixed(2).padStart(7)} s to ready (upload ${((uploaded - started) / 1000).toFixed(2)} s, ` +
          `seen by polling after ${polled.toFixed(2)} s)  ` +
          `${(bytes / MB / seconds).toFixed(2).padStart(6)} MB/s ${
            (chunks / seconds).toFixed(0).padStart(6)
          } chunks/s  ` +
          `CPU: server ${(cpuOf(pid) - serverCpuBefore).toFixed(2)} s, Postgres ${
            ((await postgresCpu()) - postgresCpuBefore).toFixed(2)
          } s`
      )
    }

    console.log(`server pid ${server.pid}, RSS at rest ${(rssOf(server.pid) / MB).toFixed(0)} MB\n`)
    await timed("warm-up (small text)", [{ name: "warm.txt", bytes: makeText(64 * 1024) }])
    const book = makeText(5 * MB)
    await timed("text, 5 MB", [{ name: "book.md", bytes: book }])
    {
      const bare = await bareTextIngest(url.toString(), book)
      console.log(
        `${"baseline: bare pg, text, 5 MB".padEnd(34)} ${(book.length / MB).toFixed(1).padStart(6)} MB ${
          String(bare.chunks).padStart(6)
        } chunks ${bare.seconds.toFixed(2).padStart(7)} s (fixed windows, same embedder, GIN; no upload or job)  ` +
          `${(book.length / MB / bare.seconds).toFixed(2).padStart(6)} MB/s ${
            (bare.chunks / bare.seconds).toFixed(0).padStart(6)
          } chunks/s  ` +
          `CPU: this process ${bare.cpu.toFixed(2)} s, Postgres ${bare.postgresCpu.toFixed(2)} s`
      )
    }
    // BENCH_INGEST_TEXT_ONLY=1 stops here (e.g. to profile text ingest alone).
    if (process.env.BENCH_INGEST_TEXT_ONLY === "1") return
    await timed("PDF, 200 text pages", [{ name: "pages.pdf", bytes: await makePdf(200) }])
    await timed("PDF, 25 MB (400 text pages)", [{ name: "big.pdf", bytes: await makePdf(400, 25 * MB - 64 * 1024) }])

    // The API's latency while a 25 MB PDF and an image are ingested: GET /v1/assistants, four clients.
    {
      const bigPdf = await makePdf(400, 25 * MB - 64 * 1024)
      const latencies: Array<number> = []
      let busy = true
      const client = async () => {
        while (busy) {
          const started = performance.now()
          const reply = await fetch(`${base}/v1/assistants`, { headers: { authorization: `Bearer ${key}` } })
          await reply.arrayBuffer()
          if (reply.status === 200) latencies.push(performance.now() - started)
        }
      }
      const quiet: Array<number> = []
      const quietUntil = performance.now() + 2000
      while (performance.now() < quietUntil) {
        const started = performance.now()
        await (await fetch(`${base}/v1/assistants`, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer()
        quiet.push(performance.now() - started)
      }
      const clients = Array.from({ length: 4 }, client)
      const started = performance.now()
      const jobs = await uploadFiles([{ name: "big.pdf", bytes: bigPdf }, {
        name: "noise.png",
        bytes: makePng(400, 300)
      }])
      // Noise has no text: the image's job may end `failed` (no_text) once OCR has read it; either end counts.
      await Promise.all(jobs.map(async (jobId) => {
        for (;;) {
          const reply: unknown =
            await (await fetch(`${documents}/jobs/${jobId}`, { headers: { authorization: `Bearer ${key}` } })).json()
          const status = field(reply, "data", "status")
          if (status === "ready" || status === "failed") return
          await new Promise((resolve) => setTimeout(resolve, 50))
        }
      }))
      busy = false
      await Promise.all(clients)
      const sorted = latencies.sort((a, b) => a - b)
      const quietSorted = quiet.sort((a, b) => a - b)
      console.log(
        `GET /v1/assistants while a 25 MB PDF and a 400x300 image ingest (${
          ((performance.now() - started) / 1000).toFixed(1)
        } s, ${sorted.length} requests, 4 clients): p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${
          percentile(sorted, 99).toFixed(1)
        } ms, max ${(sorted.at(-1) ?? 0).toFixed(1)} ms (idle, one client: p50 ${
          percentile(quietSorted, 50).toFixed(1)
        } ms, p99 ${percentile(quietSorted, 99).toFixed(1)} ms)\n`
      )
    }

    const ten = await Promise.all(
      Array.from(
        { length: 10 },
        async (_, i) => ({ name: `big-${i}.pdf`, bytes: await makePdf(20 + i, 25 * MB - 64 * 1024) })
      )
    )
    const before = rssOf(server.pid)
    const sampler = sampleRss(server.pid)
    const started = performance.now()
    const jobs = (await Promise.all(ten.map((file) => uploadFiles([file])))).flat()
    const uploadSeconds = (performance.now() - started) / 1000
    const uploadPeak = sampler.peek()
    await Promise.all(jobs.map(waitReady))
    const totalSeconds = (performance.now() - started) / 1000
    const overallPeak = sampler.stop()
    console.log(
      `\nten 25 MB PDFs in ten parallel requests: uploaded in ${uploadSeconds.toFixed(2)} s, all ready after ${
        totalSeconds.toFixed(2)
      } s`
    )
    console.log(
      `server RSS: ${(before / MB).toFixed(0)} MB before, peak ${(uploadPeak / MB).toFixed(0)} MB while uploading, ` +
        `peak ${(overallPeak / MB).toFixed(0)} MB until all were ready`
    )
  } finally {
    // A graceful stop (so a `--cpu-prof` profile is written), killed if it takes over 15 s.
    const child = server?.child
    if (child !== undefined && child.exitCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve))
      child.kill("SIGTERM")
      const timer = setTimeout(() => child.kill("SIGKILL"), 15_000)
      await exited
      clearTimeout(timer)
    }
    await withPg((client) => client.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`))
  }
}

main().catch((error) => {
  console.error(error)
  process.exitCode = 1
})
