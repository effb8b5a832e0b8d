import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { ChunkSearch } from "../../src/Documents/ChunkSearch"
import { admin, call, pick, pickString, setupAccount, TestApp } from "../support/TestApp"
import {
  fixture,
  getJob,
  jobIdsOf,
  listDocuments,
  makeDocx,
  makeElf,
  makeExe,
  makePdf,
  makeWav,
  type TranscriptionServer,
  transcriptionServer,
  upload,
  uploadRaw,
  uploadText,
  waitForJob
} from "./support"

const transcription: { current?: TranscriptionServer } = {}

const App = Layer.unwrapScoped(
  Effect.map(transcriptionServer, ({ state }) => {
    transcription.current = state
    return TestApp({
      DASTYAR_TRANSCRIPTION_BASE_URL: state.url,
      DASTYAR_INGEST_RETRY_DELAY: "50 millis",
      DASTYAR_RATE_LIMIT_PER_MINUTE: "100000"
    })
  })
)

const searchFor = (assistantId: string, query: string, limit = 5) =>
  Effect.flatMap(ChunkSearch, (search) => search.search({ assistantId, query, limit }))

layer(App, { excludeTestServices: true, timeout: 120_000 })("documents", (it) => {
  it.effect("a two-page PDF becomes a ready, listed and searchable document", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const pdf = yield* makePdf([
        "Shipping. Orders leave our warehouse in Tehran within two working days.",
        "Warranty. Every samovar carries a warranty of eighteen months against defects."
      ])
      const reply = yield* upload(key, assistantId, [{ name: "policies.pdf", bytes: pdf, type: "application/pdf" }])
      expect(reply.status).toBe(202)
      expect(reply.json).toMatchObject({
        data: {
          count: 1,
          list: [{
            status: "queued",
            path: "policies.pdf",
            kind: "create",
            resultFileId: null,
            resultNChunks: null,
            resultSizeBytes: null,
            errorMessage: null
          }]
        },
        response: { status: "success" }
      })
      const [jobId = ""] = jobIdsOf(reply)
      const job = yield* waitForJob(key, assistantId, jobId)
      expect(job).toMatchObject({ status: "ready", errorMessage: null, resultSizeBytes: pdf.length })
      const fileId = pickString(job, "resultFileId")
      expect(pick(job, "resultNChunks")).toBeGreaterThanOrEqual(1)

      const list = yield* listDocuments(key, assistantId)
      expect(list.json).toMatchObject({
        data: { count: 1, list: [{ fileId, path: "policies.pdf", size: pdf.length }] }
      })
      const createdAt = pick(list.json, "data", "list", 0, "createdAt")
      expect(Number.isInteger(createdAt)).toBe(true)
      expect(Math.abs(Number(createdAt) - Date.now() / 1000)).toBeLessThan(120)

      const hits = yield* searchFor(assistantId, "warranty of the samovar")
      expect(hits[0]).toMatchObject({ fileId, path: "policies.pdf" })
      expect(hits[0]?.text).toContain("eighteen months")
      expect(hits[0]?.score).toBeGreaterThan(0.5)
      // Text from both pages was extracted.
      expect((yield* searchFor(assistantId, "Tehran warehouse"))[0]?.text).toContain("two working days")
      // An unrelated question scores low: a relevance floor can drop it.
      const unrelated = yield* searchFor(assistantId, "quantum chromodynamics lattice")
      expect(unrelated.every((hit) => hit.score < 0.3)).toBe(true)
    }))

  it.effect("DOCX, legacy DOC and text renamed .pdf are read; headings and Persian text survive", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const docx = yield* makeDocx([
        { heading: "Care instructions", body: "Descale the kettle monthly with white vinegar." },
        { heading: "نگهداری", body: "کتری را هر ماه با سرکه سفید رسوب‌زدایی کنید." }
      ])
      const reply = yield* upload(key, assistantId, [
        { name: "care.docx", bytes: docx },
        { name: "returns-policy.doc", bytes: fixture("returns-policy.doc") },
        {
          name: "faq.pdf",
          bytes: new TextEncoder().encode("# FAQ\n\nIs gift wrapping available? Yes, for a small fee.\n")
        }
      ])
      expect(reply.status).toBe(202)
      const [docxJob = "", docJob = "", textJob = ""] = jobIdsOf(reply)
      for (const jobId of [docxJob, docJob, textJob]) {
        expect(yield* waitForJob(key, assistantId, jobId)).toMatchObject({ status: "ready" })
      }
      expect((yield* searchFor(assistantId, "descale vinegar"))[0]).toMatchObject({ path: "care.docx" })
      expect((yield* searchFor(assistantId, "سرکه سفید"))[0]?.text).toContain("سرکه")
      const doc = yield* searchFor(assistantId, "return kettle fourteen days")
      expect(doc[0]).toMatchObject({ path: "returns-policy.doc" })
      expect((yield* searchFor(assistantId, "بازگرداند چهارده روز"))[0]).toMatchObject({ path: "returns-policy.doc" })
      const text = yield* searchFor(assistantId, "gift wrapping")
      expect(text[0]).toMatchObject({ path: "faq.pdf" })
      expect(text[0]?.text).toContain("small fee")
    }))

  it.effect("a Persian PDF printed by Chromium is searched and quoted in reading order", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const reply = yield* upload(key, assistantId, [
        { name: "shipping.pdf", bytes: fixture("rtl/shipping-fa.chromium.pdf"), type: "application/pdf" },
        { name: "shipping.docx", bytes: fixture("rtl/shipping-fa.docx") }
      ])
      for (const jobId of jobIdsOf(reply)) {
        expect(yield* waitForJob(key, assistantId, jobId)).toMatchObject({ status: "ready" })
      }
      for (const path of ["shipping.pdf", "shipping.docx"]) {
        const free = (yield* searchFor(assistantId, "ارسال رایگان سفارش", 10)).filter((hit) => hit.path === path)
        expect(free[0]?.text).toContain("ارسال سفارش های بالای 500 هزار تومان رایگان است.")
        const warranty = (yield* searchFor(assistantId, "گارانتی Samovar 2000", 10)).filter((hit) => hit.path === path)
        expect(warranty[0]?.text).toContain("سماور برقی Samovar 2000 دو سال گارانتی دارد و تا ۱۴ روز")
      }
    }))

  it.effect("OCR reads printed English and Persian words from a PNG", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const reply = yield* upload(key, assistantId, [{
        name: "card.png",
        bytes: fixture("ocr-en-fa.png"),
        type: "image/png"
      }])
      const job = yield* waitForJob(key, assistantId, jobIdsOf(reply)[0] ?? "")
      expect(job).toMatchObject({ status: "ready" })
      const english = yield* searchFor(assistantId, "Samovar warranty card")
      expect(english[0]?.text).toMatch(/Warranty card/)
      expect(english[0]?.text).toMatch(/Samovar 2000/)
      const persian = yield* searchFor(assistantId, "کتری برقی")
      expect(persian[0]?.text).toContain("گارانتی کتری برقی")
    }))

  it.effect("a WAV is transcribed through the OpenAI-compatible endpoint, retrying a busy provider", () =>
    Effect.gen(function*() {
      const server = transcription.current
      if (server === undefined) return yield* Effect.die(new Error("no transcription server"))
      const { assistantId, key } = yield* setupAccount()
      const before = server.requests.length
      server.failuresBeforeSuccess = 2
      const wav = makeWav()
      const reply = yield* upload(key, assistantId, [{ name: "note.wav", bytes: wav, type: "audio/wav" }])
      const job = yield* waitForJob(key, assistantId, jobIdsOf(reply)[0] ?? "")
      expect(job).toMatchObject({ status: "ready", resultSizeBytes: wav.length })
      const seen = server.requests.slice(before)
      expect(seen).toHaveLength(3)
      expect(seen[2]).toMatchObject({ model: "whisper-1", filename: "note.wav" })
      expect((yield* searchFor(assistantId, "kettle warranty two years"))[0]?.text).toContain("Spoken note")
    }))

  it.effect("unsupported files refuse the whole request with 415 before any job exists", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const good = { name: "ok.txt", bytes: new TextEncoder().encode("fine text") }
      for (
        const [bad, detected] of [
          [{ name: "archive.zip", bytes: fixture("archive.zip") }, "zip"],
          [{ name: "tool", bytes: makeElf() }, "elf"],
          [{ name: "clip.mp4", bytes: fixture("clip.mp4") }, "mp4 video"],
          [{ name: "clip.webm", bytes: fixture("clip.webm") }, "webm video"],
          [{ name: "notes.txt", bytes: makeExe(), type: "text/plain" }, "exe"]
        ] as const
      ) {
        const reply = yield* upload(key, assistantId, [good, bad])
        expect(reply.status).toBe(415)
        expect(reply.json).toMatchObject({
          data: null,
          response: { status: "bad_request", code: "documents.unsupported_file_type" },
          fields: [{ property: "files.1" }]
        })
        expect(pickString(reply.json, "fields", 0, "constraints", 0)).toContain(bad.name)
        expect(pickString(reply.json, "fields", 0, "constraints", 0)).toContain(detected)
      }
      expect(pick((yield* listDocuments(key, assistantId)).json, "data", "count")).toBe(0)
      // Audio-only WebM and M4A are audio, not video.
      const audio = yield* upload(key, assistantId, [
        { name: "tone.webm", bytes: fixture("tone.webm") },
        { name: "tone.m4a", bytes: fixture("tone.m4a") }
      ])
      expect(audio.status).toBe(202)
    }))

  it.effect("11 parts → 400 naming the 11th; a 26 MB part → 413 naming it; nothing is queued", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const files = Array.from(
        { length: 11 },
        (_, i) => ({ name: `f${i}.txt`, bytes: new TextEncoder().encode(`file ${i}`) })
      )
      const many = yield* upload(key, assistantId, files)
      expect(many.status).toBe(400)
      expect(many.json).toMatchObject({
        data: null,
        response: { status: "bad_request", code: "documents.too_many_files" },
        fields: [{ property: "files.10" }]
      })
      expect(pickString(many.json, "fields", 0, "constraints", 0)).toContain("f10.txt")

      const big = new Uint8Array(26 * 1024 * 1024).fill(0x61)
      const large = yield* upload(key, assistantId, [{ name: "small.txt", bytes: new Uint8Array([0x61]) }, {
        name: "big.txt",
        bytes: big
      }])
      expect(large.status).toBe(413)
      expect(large.json).toMatchObject({
        data: null,
        response: { code: "documents.file_too_large" },
        fields: [{ property: "files.1" }]
      })
      expect(pickString(large.json, "fields", 0, "constraints", 0)).toContain("big.txt")

      const none = yield* call("POST", `/v1/assistants/${assistantId}/documents`, {
        token: key,
        rawBody: {
          contentType: "multipart/form-data; boundary=x",
          text:
            "--x\r\nContent-Disposition: form-data; name=\"folderId\"\r\n\r\n0123456789abcdef0123456789abcdef\r\n--x--\r\n"
        }
      })
      expect(none.status).toBe(400)
      expect(pick((yield* listDocuments(key, assistantId)).json, "data", "count")).toBe(0)
    }))

  it.effect("file names in any script arrive intact: quoted UTF-8 and filename*, alone and beside an ASCII name", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      // The last is 303 bytes in UTF-8, over a file system's 255-byte name limit.
      const names = [
        "سیاست-گارانتی.md",
        "سياسة الإرجاع.md",
        "保修政策.md",
        "🎁 gift wrap.md",
        `${"保修政策".repeat(25)}.md`
      ]
      const text = (name: string) => new TextEncoder().encode(`# ${name}\nWarranty and returns.`)
      const pathsOf = (reply: { readonly json: unknown }) => {
        const list = pick(reply.json, "data", "list")
        return Array.isArray(list) ? list.map((job) => pickString(job, "path")) : []
      }
      const percentEncoded = (name: string) => encodeURIComponent(name).replace(/'/g, "%27")
      const jobs: Array<string> = []
      for (const name of names) {
        // FormData (undici, as browsers): the name as raw UTF-8 inside quotes.
        const alone = yield* upload(key, assistantId, [{ name: `form-${name}`, bytes: text(name) }])
        expect(alone.status).toBe(202)
        expect(pathsOf(alone)).toEqual([`form-${name}`])
        const mixed = yield* upload(key, assistantId, [
          { name: "wrapping.md", bytes: text("wrapping") },
          { name: `mixed-${name}`, bytes: text(name) }
        ])
        expect(mixed.status).toBe(202)
        expect(pathsOf(mixed)).toEqual(["wrapping.md", `mixed-${name}`])
        // RFC 5987 `filename*`, alone and beside an ASCII name and an ASCII fallback.
        const star = yield* uploadRaw(key, assistantId, [
          { disposition: `form-data; name="files"; filename*=UTF-8''${percentEncoded(`star-${name}`)}`, content: name }
        ])
        expect(star.status).toBe(202)
        expect(pathsOf(star)).toEqual([`star-${name}`])
        const starMixed = yield* uploadRaw(key, assistantId, [
          { disposition: `form-data; name="files"; filename="care.md"`, content: "care" },
          {
            disposition: `form-data; name="files"; filename="fallback.md"; filename*=utf-8'fa'${
              percentEncoded(`star-mixed-${name}`)
            }`,
            content: name
          }
        ])
        expect(starMixed.status).toBe(202)
        expect(pathsOf(starMixed)).toEqual(["care.md", `star-mixed-${name}`])
        jobs.push(...[alone, mixed, star, starMixed].flatMap(jobIdsOf))
      }
      for (const jobId of jobs) expect(pick(yield* waitForJob(key, assistantId, jobId), "status")).toBe("ready")
      const paths = pathsOf(yield* listDocuments(key, assistantId))
      for (const name of names) {
        expect(paths).toEqual(
          expect.arrayContaining([`form-${name}`, `mixed-${name}`, `star-${name}`, `star-mixed-${name}`])
        )
      }
    }))

  it.effect("a part whose Content-Disposition cannot be read refuses the request with 400 naming it; nothing is queued", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const refusals = [
        { disposition: `form-data; name="files"; filename*=UTF-8''%D8%ZZ.md`, quoted: "%D8%ZZ.md" },
        { disposition: `form-data; name="files"; filename=two words.md`, quoted: "two words.md" },
        { disposition: null, quoted: "-" }
      ]
      for (const refusal of refusals) {
        const reply = yield* uploadRaw(key, assistantId, [
          { disposition: `form-data; name="files"; filename="ok.md"`, content: "fine" },
          { disposition: refusal.disposition, content: "lost?" }
        ])
        expect(reply.status).toBe(400)
        expect(reply.json).toMatchObject({
          data: null,
          response: { status: "bad_request" },
          fields: [{ property: "parts.1" }]
        })
        const constraint = pickString(reply.json, "fields", 0, "constraints", 0)
        expect(constraint).toContain("part 2")
        expect(constraint).toContain(refusal.quoted)
      }
      expect(pick((yield* listDocuments(key, assistantId)).json, "data", "count")).toBe(0)
    }))

  it.effect("folders: path is folder name + file name, foreign folders are 404, the list filters by folder", () =>
    Effect.gen(function*() {
      const mine = yield* setupAccount()
      const other = yield* setupAccount()
      const folder = yield* admin("POST", `/accounts/${mine.accountId}/folders`, { name: "Manuals" })
      const folderId = pickString(folder.json, "data", "id")
      const foreign = yield* admin("POST", `/accounts/${other.accountId}/folders`, { name: "Theirs" })
      const foreignId = pickString(foreign.json, "data", "id")

      const inFolder = yield* uploadText(mine.key, mine.assistantId, {
        folderId,
        filename: "kettle.md",
        content: "Kettle manual."
      })
      expect(inFolder.status).toBe(202)
      expect(pick(inFolder.json, "data", "list", 0, "path")).toBe("Manuals/kettle.md")
      const atRoot = yield* upload(mine.key, mine.assistantId, [{
        name: "dir/sub/kettle.md",
        bytes: new TextEncoder().encode("Root copy.")
      }])
      expect(pick(atRoot.json, "data", "list", 0, "path")).toBe("kettle.md")
      for (const jobId of [...jobIdsOf(inFolder), ...jobIdsOf(atRoot)]) {
        yield* waitForJob(mine.key, mine.assistantId, jobId)
      }

      const filtered = yield* listDocuments(mine.key, mine.assistantId, folderId)
      expect(filtered.json).toMatchObject({ data: { count: 1, list: [{ path: "Manuals/kettle.md" }] } })
      expect(pick((yield* listDocuments(mine.key, mine.assistantId)).json, "data", "count")).toBe(2)

      for (
        const reply of [
          yield* uploadText(mine.key, mine.assistantId, { folderId: foreignId, filename: "x.txt", content: "x" }),
          yield* upload(mine.key, mine.assistantId, [{ name: "x.txt", bytes: new Uint8Array([0x78]) }], {
            folderId: foreignId
          }),
          yield* listDocuments(mine.key, mine.assistantId, foreignId)
        ]
      ) {
        expect(reply.status).toBe(404)
        expect(pick(reply.json, "response", "code")).toBe("folders.not_found")
      }
      const invalid = yield* uploadText(mine.key, mine.assistantId, { filename: "no-extension", content: "" })
      expect(invalid.status).toBe(400)
      expect(pick(invalid.json, "fields")).toEqual(expect.arrayContaining([
        expect.objectContaining({ property: "filename" }),
        expect.objectContaining({ property: "content" })
      ]))
    }))

  it.effect("jobs and documents belong to their assistant: foreign or unknown job 404, foreign assistant 404", () =>
    Effect.gen(function*() {
      const mine = yield* setupAccount()
      const other = yield* setupAccount()
      const reply = yield* uploadText(mine.key, mine.assistantId, { filename: "a.txt", content: "Alpha." })
      const [jobId = ""] = jobIdsOf(reply)
      expect((yield* getJob(mine.key, mine.assistantId, jobId)).status).toBe(200)
      for (
        const answer of [
          yield* getJob(other.key, other.assistantId, jobId),
          yield* getJob(mine.key, mine.assistantId, "job_doesnotexist")
        ]
      ) {
        expect(answer.status).toBe(404)
        expect(answer.json).toMatchObject({
          data: null,
          response: { status: "not_found", code: "documents.job_not_found" }
        })
      }
      const foreignAssistant = yield* getJob(other.key, mine.assistantId, jobId)
      expect(foreignAssistant.status).toBe(404)
      expect(pick(foreignAssistant.json, "response", "code")).toBe("assistants.not_found")
    }))

  it.effect("an assistant's jobs are listed newest first, filtered by status and paged; other assistants' stay hidden", () =>
    Effect.gen(function*() {
      const mine = yield* setupAccount()
      const other = yield* setupAccount()
      const good = yield* uploadText(mine.key, mine.assistantId, {
        filename: "good.txt",
        content: "Kettles boil water."
      })
      const bad = yield* upload(mine.key, mine.assistantId, [{ name: "blank.pdf", bytes: yield* makePdf([""]) }])
      yield* uploadText(other.key, other.assistantId, { filename: "theirs.txt", content: "Theirs." })
      const [goodId = "", badId = ""] = [...jobIdsOf(good), ...jobIdsOf(bad)]
      yield* waitForJob(mine.key, mine.assistantId, goodId)
      yield* waitForJob(mine.key, mine.assistantId, badId)

      const jobs = (query: string) =>
        call("GET", `/v1/assistants/${mine.assistantId}/documents/jobs${query}`, { token: mine.key })
      const all = yield* jobs("")
      expect(all.status).toBe(200)
      expect(all.json).toMatchObject({
        data: { count: 2, list: [{ id: badId, path: "blank.pdf" }, { id: goodId, status: "ready" }] }
      })
      const failed = yield* jobs("?status=failed")
      expect(failed.json).toMatchObject({
        data: { count: 1, list: [{ id: badId, status: "failed", errorMessage: "no_text" }] }
      })
      const second = yield* jobs("?limit=1&offset=1")
      expect(second.json).toMatchObject({ data: { count: 2, list: [{ id: goodId }] } })
      const invalid = yield* jobs("?status=done&limit=501")
      expect(invalid.status).toBe(400)
      expect(pick(invalid.json, "fields")).toEqual(expect.arrayContaining([
        expect.objectContaining({ property: "status" }),
        expect.objectContaining({ property: "limit" })
      ]))
      const foreign = yield* call("GET", `/v1/assistants/${mine.assistantId}/documents/jobs`, { token: other.key })
      expect(foreign.status).toBe(404)
    }))

  it.effect("replace: kind replace, the old version stays searchable until the new one swaps in atomically", () =>
    Effect.gen(function*() {
      const server = transcription.current
      if (server === undefined) return yield* Effect.die(new Error("no transcription server"))
      const { assistantId, key } = yield* setupAccount()
      // Recordings: a job starts as soon as it is queued, and the new version's waits on a busy transcription
      // provider (retried with backoff), so reads made meanwhile are sure to come before it swaps in.
      const spokenBefore = server.text
      server.text = "Opening hours: nine to five."
      const first = yield* upload(key, assistantId, [{ name: "hours.wav", bytes: makeWav(), type: "audio/wav" }])
      const v1 = yield* waitForJob(key, assistantId, jobIdsOf(first)[0] ?? "")
      const oldFileId = pickString(v1, "resultFileId")

      // A long new version, ready only after the provider has answered "busy" three times.
      server.text = Array.from(
        { length: 400 },
        (_, i) => `Paragraph ${i}: opening hours are now eight to eight on day ${i}.`
      ).join("\n\n")
      server.failuresBeforeSuccess = 3
      const second = yield* upload(key, assistantId, [{ name: "hours.wav", bytes: makeWav(), type: "audio/wav" }])
      expect(pick(second.json, "data", "list", 0, "kind")).toBe("replace")
      const secondJob = jobIdsOf(second)[0] ?? ""

      // While it is processed, every read sees exactly one version, never none or both.
      const seen = new Set<string>()
      for (let i = 0; i < 400; i++) {
        const hits = yield* searchFor(assistantId, "opening hours", 50)
        const fileIds = new Set(hits.map((hit) => hit.fileId))
        expect(fileIds.size).toBe(1)
        const list = yield* listDocuments(key, assistantId)
        expect(pick(list.json, "data", "count")).toBe(1)
        for (const id of fileIds) seen.add(id)
        const status = pick((yield* getJob(key, assistantId, secondJob)).json, "data", "status")
        if (status === "ready") break
      }
      const v2 = yield* waitForJob(key, assistantId, secondJob)
      const newFileId = pickString(v2, "resultFileId")
      expect(seen.has(oldFileId)).toBe(true)
      const after = yield* listDocuments(key, assistantId)
      expect(after.json).toMatchObject({ data: { count: 1, list: [{ fileId: newFileId, path: "hours.wav" }] } })
      expect((yield* searchFor(assistantId, "nine to five")).every((hit) => hit.fileId === newFileId)).toBe(true)
      expect(pick(v2, "resultNChunks")).toBeGreaterThan(1)
      server.text = spokenBefore
      // A third upload while nothing is in flight is a replace too.
      const third = yield* uploadText(key, assistantId, { filename: "hours.wav", content: "Closed." })
      expect(pick(third.json, "data", "list", 0, "kind")).toBe("replace")
    }))

  it.effect("delete removes documents and their chunks at once; unknown ids are ignored", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const reply = yield* uploadText(key, assistantId, { filename: "gone.txt", content: "Ephemeral pelican facts." })
      const job = yield* waitForJob(key, assistantId, jobIdsOf(reply)[0] ?? "")
      const fileId = pickString(job, "resultFileId")
      expect(yield* searchFor(assistantId, "pelican")).toHaveLength(1)
      const deleted = yield* call("DELETE", `/v1/assistants/${assistantId}/documents`, {
        token: key,
        body: { fileIds: [fileId, "file_unknown"] }
      })
      expect(deleted.status).toBe(200)
      expect(deleted.json).toMatchObject({ data: null, response: { status: "success" } })
      const afterDelete = yield* listDocuments(key, assistantId)
      expect(pick(afterDelete.json, "data", "count")).toBe(0)
      expect(yield* searchFor(assistantId, "pelican")).toHaveLength(0)
      const again = yield* call("DELETE", `/v1/assistants/${assistantId}/documents`, {
        token: key,
        body: { fileIds: [fileId] }
      })
      expect(again.status).toBe(200)
      const empty = yield* call("DELETE", `/v1/assistants/${assistantId}/documents`, {
        token: key,
        body: { fileIds: [] }
      })
      expect(empty.status).toBe(400)
    }))

  it.effect("permanent failures end failed with a clear errorMessage", () =>
    Effect.gen(function*() {
      const { assistantId, key } = yield* setupAccount()
      const pdf = yield* makePdf(["Valid first page."])
      const corrupt = new Uint8Array(pdf.slice(0, 400))
      const blank = yield* makePdf([""])
      const reply = yield* upload(key, assistantId, [
        { name: "broken.pdf", bytes: corrupt },
        { name: "blank.pdf", bytes: blank },
        { name: "empty.txt", bytes: new TextEncoder().encode("   \n\n  ") }
      ])
      const [broken = "", empty = "", spaces = ""] = jobIdsOf(reply)
      expect(yield* waitForJob(key, assistantId, broken)).toMatchObject({
        status: "failed",
        errorMessage: "corrupt_file"
      })
      expect(yield* waitForJob(key, assistantId, empty)).toMatchObject({ status: "failed", errorMessage: "no_text" })
      expect(yield* waitForJob(key, assistantId, spaces)).toMatchObject({ status: "failed", errorMessage: "no_text" })
    }))
})

layer(TestApp({ DASTYAR_INGEST_RETRY_DELAY: "10 millis" }), { excludeTestServices: true, timeout: 60_000 })(
  "documents without a transcription provider",
  (it) => {
    it.effect("audio fails with transcription_not_configured", () =>
      Effect.gen(function*() {
        const { assistantId, key } = yield* setupAccount()
        const reply = yield* upload(key, assistantId, [{ name: "note.wav", bytes: makeWav() }])
        expect(reply.status).toBe(202)
        expect(yield* waitForJob(key, assistantId, jobIdsOf(reply)[0] ?? "")).toMatchObject({
          status: "failed",
          errorMessage: "transcription_not_configured"
        })
      }))
  }
)
