/** Helpers for the knowledge-base tests: multipart uploads, polling jobs, fixtures made on the fly. */
import { HttpClient, HttpClientRequest } from "@effect/platform"
import { Document, HeadingLevel, Packer, Paragraph } from "docx"
import * as Effect from "effect/Effect"
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from "fflate"
import * as fs from "node:fs"
import * as http from "node:http"
import { PDFDocument, StandardFonts } from "pdf-lib"
import { adminToken, call, pick, pickString, type Reply } from "../support/TestApp"

const fixtures = new URL("../fixtures/documents/", import.meta.url)
export const fixture = (name: string) => new Uint8Array(fs.readFileSync(new URL(name, fixtures)))

export interface UploadFile {
  readonly name: string
  readonly bytes: Uint8Array
  readonly type?: string
}

/** `POST /documents` as multipart, the way a browser or the SDK sends it. */
export const upload = (
  key: string,
  assistantId: string,
  files: ReadonlyArray<UploadFile>,
  options: { readonly folderId?: string } = {}
) =>
  Effect.gen(function*() {
    const client = yield* HttpClient.HttpClient
    const form = new FormData()
    for (const file of files) {
      form.append("files", new Blob([file.bytes], { type: file.type ?? "application/octet-stream" }), file.name)
    }
    if (options.folderId !== undefined) {
      form.append("folderId", options.folderId)
    }
    const request = HttpClientRequest.post(`/v1/assistants/${assistantId}/documents`).pipe(
      HttpClientRequest.bearerToken(key),
      HttpClientRequest.bodyFormData(form)
    )
    const response = yield* client.execute(request)
    const text = yield* response.text
    return { status: response.status, headers: response.headers, text, json: JSON.parse(text) } satisfies Reply
  }).pipe(Effect.scoped, Effect.orDie)

/**
 * `POST /documents` with each part's Content-Disposition written out as given, the way
 * curl (raw UTF-8 in quotes) or an RFC 5987 client (`filename*=UTF-8''…`) sends it.
 */
export const uploadRaw = (
  key: string,
  assistantId: string,
  parts: ReadonlyArray<{ readonly disposition: string | null; readonly content: string }>
) =>
  call("POST", `/v1/assistants/${assistantId}/documents`, {
    token: key,
    rawBody: {
      contentType: "multipart/form-data; boundary=dastyar-boundary",
      text: parts.map((part) =>
        "--dastyar-boundary\r\n" +
        (part.disposition === null ? "" : `Content-Disposition: ${part.disposition}\r\n`) +
        `Content-Type: text/markdown\r\n\r\n${part.content}\r\n`
      ).join("") + "--dastyar-boundary--\r\n"
    }
  })

export const uploadText = (key: string, assistantId: string, body: Record<string, unknown>) =>
  call("POST", `/v1/assistants/${assistantId}/documents/text`, { token: key, body })

export const getJob = (key: string, assistantId: string, jobId: string) =>
  call("GET", `/v1/assistants/${assistantId}/documents/jobs/${jobId}`, { token: key })

/** Polls the job until it is `ready` or `failed`; returns its data. */
export const waitForJob = (key: string, assistantId: string, jobId: string, timeoutMs = 60_000) =>
  Effect.gen(function*() {
    const deadline = Date.now() + timeoutMs
    while (Date.now() < deadline) {
      const reply = yield* getJob(key, assistantId, jobId)
      const status = pick(reply.json, "data", "status")
      if (status === "ready" || status === "failed") return pick(reply.json, "data")
      yield* Effect.sleep("100 millis")
    }
    return yield* Effect.die(new Error(`job ${jobId} did not finish in ${timeoutMs} ms`))
  })

export const jobIdsOf = (reply: Reply): ReadonlyArray<string> => {
  const list = pick(reply.json, "data", "list")
  return Array.isArray(list) ? list.map((job) => pickString(job, "id")) : []
}

export const listDocuments = (key: string, assistantId: string, folderId?: string) =>
  call("GET", `/v1/assistants/${assistantId}/documents${folderId ? `?folderId=${folderId}` : ""}`, { token: key })

/** A PDF with one paragraph of text per page. */
export const makePdf = (pages: ReadonlyArray<string>) =>
  Effect.promise(async () => {
    const pdf = await PDFDocument.create()
    const font = await pdf.embedFont(StandardFonts.Helvetica)
    for (const text of pages) {
      const page = pdf.addPage([595, 842])
      page.drawText(text, { x: 50, y: 780, size: 12, font, maxWidth: 495, lineHeight: 16 })
    }
    return await pdf.save()
  })

export const makeDocx = (sections: ReadonlyArray<{ readonly heading: string; readonly body: string }>) =>
  Effect.promise(async () => {
    const document = new Document({
      sections: [{
        children: sections.flatMap((section) => [
          new Paragraph({ text: section.heading, heading: HeadingLevel.HEADING_1 }),
          new Paragraph({ text: section.body })
        ])
      }]
    })
    return new Uint8Array(await Packer.toBuffer(document))
  })

/** A mono 16-bit PCM WAV of a short tone. */
export const makeWav = (seconds = 0.5, sampleRate = 8000) => {
  const samples = Math.floor(seconds * sampleRate)
  const data = Buffer.alloc(samples * 2)
  for (let i = 0; i < samples; i++) {
    data.writeInt16LE(Math.round(8000 * Math.sin((2 * Math.PI * 440 * i) / sampleRate)), i * 2)
  }
  const header = Buffer.alloc(44)
  header.write("RIFF", 0)
  header.writeUInt32LE(36 + data.length, 4)
  header.write("WAVE", 8)
  header.write("fmt ", 12)
  header.writeUInt32LE(16, 16)
  header.writeUInt16LE(1, 20)
  header.writeUInt16LE(1, 22)
  header.writeUInt32LE(sampleRate, 24)
  header.writeUInt32LE(sampleRate * 2, 28)
  header.writeUInt16LE(2, 32)
  header.writeUInt16LE(16, 34)
  header.write("data", 36)
  header.writeUInt32LE(data.length, 40)
  return new Uint8Array(Buffer.concat([header, data]))
}

/** The 64-byte header of a 64-bit Linux executable, followed by some code-like bytes. */
export const makeElf = () => {
  const bytes = Buffer.alloc(256)
  Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1, 0]).copy(bytes, 0)
  bytes.writeUInt16LE(2, 16) // ET_EXEC
  bytes.writeUInt16LE(0x3e, 18) // x86-64
  bytes.writeUInt32LE(1, 20)
  bytes.writeBigUInt64LE(0x401000n, 24)
  bytes.writeBigUInt64LE(64n, 32)
  bytes.writeUInt16LE(64, 52)
  bytes.writeUInt16LE(56, 54)
  bytes.writeUInt16LE(1, 56)
  for (let i = 64; i < 256; i++) bytes[i] = (i * 37) & 0xff
  return new Uint8Array(bytes)
}

/** A Windows executable: MZ header pointing at a PE signature. */
export const makeExe = () => {
  const bytes = Buffer.alloc(512)
  bytes.write("MZ", 0, "latin1")
  bytes.writeUInt32LE(0x80, 0x3c)
  bytes.write("PE\u0000\u0000", 0x80, "latin1")
  bytes.writeUInt16LE(0x14c, 0x84)
  for (let i = 0x100; i < 512; i++) bytes[i] = (i * 91) & 0xff
  return new Uint8Array(bytes)
}

export interface TranscriptionServer {
  url: string
  /** Requests received, with the form fields seen. */
  readonly requests: Array<
    { readonly model: string | undefined; readonly filename: string | undefined; readonly bytes: number }
  >
  /** Answers this many requests with 503 before succeeding. */
  failuresBeforeSuccess: number
  /** When set, requests are held open and never answered (a stuck provider). */
  hang: boolean
  /** When set, requests are answered 400 (a provider refusing the audio it was sent). */
  reject: boolean
  text: string
}

/**
 * A local server speaking the OpenAI transcription protocol:
 * `POST /v1/audio/transcriptions`, multipart `file` + `model`, answered `{"text": …}`.
 */
export const transcriptionServer = Effect.acquireRelease(
  Effect.async<{ readonly state: TranscriptionServer; readonly server: http.Server }>((resume) => {
    const state: TranscriptionServer = {
      url: "",
      requests: [],
      failuresBeforeSuccess: 0,
      hang: false,
      reject: false,
      text: "Spoken note: the kettle warranty lasts two years."
    }
    const server = http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const body = Buffer.concat(chunks).toString("latin1")
        const ok = request.method === "POST" && request.url === "/v1/audio/transcriptions" &&
          (request.headers["content-type"] ?? "").startsWith("multipart/form-data")
        const model = /name="model"\r\n\r\n([^\r]*)/.exec(body)?.[1]
        const filename = /name="file"; filename="([^"]*)"/.exec(body)?.[1]
        state.requests.push({ model, filename, bytes: body.length })
        if (state.hang) return
        if (!ok || model === undefined || filename === undefined || state.reject) {
          response.writeHead(400, { "content-type": "application/json" }).end(
            JSON.stringify({ error: { message: "bad request" } })
          )
          return
        }
        if (state.failuresBeforeSuccess > 0) {
          state.failuresBeforeSuccess--
          response.writeHead(503, { "content-type": "application/json" }).end(
            JSON.stringify({ error: { message: "busy" } })
          )
          return
        }
        response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ text: state.text }))
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      state.url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}/v1`
      resume(Effect.succeed({ state, server }))
    })
  }),
  ({ server }) =>
    Effect.async<void>((resume) => {
      server.closeAllConnections()
      server.close(() => resume(Effect.void))
    })
)

/**
 * A valid DOCX whose `word/document.xml` inflates to about `inflatedBytes`
 * (one short paragraph repeated): a decompression bomb of well under 1 MB
 * zipped for a few hundred MB inflated. Streamed, so the test never holds the
 * inflated text itself.
 */
export const makeDocxBomb = (inflatedBytes: number) => {
  const pieces: Array<Uint8Array> = []
  const zip = new Zip((error, data) => {
    if (error) throw error
    pieces.push(data)
  })
  const stored = (name: string, text: string) => {
    const entry = new ZipPassThrough(name)
    zip.add(entry)
    entry.push(strToU8(text), true)
  }
  stored(
    "[Content_Types].xml",
    `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      `<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
      `<Default Extension="xml" ContentType="application/xml"/>` +
      `<Override PartName="/word/document.xml" ` +
      `ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`
  )
  stored(
    "_rels/.rels",
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
      `<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" ` +
      `Target="word/document.xml"/></Relationships>`
  )
  const document = new ZipDeflate("word/document.xml", { level: 6 })
  zip.add(document)
  document.push(strToU8(
    `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>`
  ))
  const paragraph = "<w:p><w:r><w:t>a</w:t></w:r></w:p>"
  const block = strToU8(paragraph.repeat(Math.floor((1024 * 1024) / paragraph.length)))
  for (let written = 0; written < inflatedBytes; written += block.length) document.push(block)
  document.push(strToU8("</w:body></w:document>"), true)
  zip.end()
  return new Uint8Array(Buffer.concat(pieces))
}

/** A PNG that is only a header claiming `width` × `height` pixels (a pixel bomb for OCR). */
export const makePngHeader = (width: number, height: number) => {
  const ihdr = Buffer.alloc(25)
  ihdr.writeUInt32BE(13, 0)
  ihdr.write("IHDR", 4, "latin1")
  ihdr.writeUInt32BE(width, 8)
  ihdr.writeUInt32BE(height, 12)
  ihdr.writeUInt8(8, 16) // bit depth
  ihdr.writeUInt8(2, 17) // truecolour
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return new Uint8Array(Buffer.concat([signature, ihdr, Buffer.alloc(64)]))
}

/** An operator API call to a server started outside the test, for example a child process. */
export const adminCallAt = (base: string, method: string, url: string, body?: unknown) =>
  Effect.promise(async (): Promise<unknown> => {
    const response = await fetch(`${base}/admin/v1${url}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return response.json()
  })

/**
 * On the server at `base`: a new account and active assistant, and a voice note uploaded whose job is held
 * inside the worker, waiting on the (hanging) transcription `provider`, when this returns.
 */
export const voiceJobInFlight = (base: string, provider: TranscriptionServer) =>
  Effect.gen(function*() {
    const accountId = pickString(yield* adminCallAt(base, "POST", "/accounts", { name: "Held" }), "data", "id")
    const key = pickString(
      yield* adminCallAt(base, "POST", `/accounts/${accountId}/keys`, { name: "k" }),
      "data",
      "key"
    )
    const assistantId = pickString(
      yield* adminCallAt(base, "POST", `/accounts/${accountId}/assistants`, { name: "A" }),
      "data",
      "id"
    )
    for (let i = 0; i < 100; i++) {
      if (pick(yield* adminCallAt(base, "GET", `/assistants/${assistantId}`), "data", "status") === "active") break
      yield* Effect.sleep("100 millis")
    }
    const form = new FormData()
    form.append("files", new Blob([makeWav()], { type: "audio/wav" }), "memo.wav")
    const uploaded = yield* Effect.promise(async (): Promise<unknown> => {
      const response = await fetch(`${base}/v1/assistants/${assistantId}/documents`, {
        method: "POST",
        headers: { authorization: `Bearer ${key}` },
        body: form
      })
      return response.json()
    })
    const jobId = pickString(uploaded, "data", "list", 0, "id")
    for (let i = 0; i < 200 && provider.requests.length === 0; i++) yield* Effect.sleep("100 millis")
    return { key, assistantId, jobId }
  })
