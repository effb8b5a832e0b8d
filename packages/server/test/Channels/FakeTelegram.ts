/**
 * A local HTTP server speaking the Telegram Bot API's wire protocol (the
 * methods a connection uses, file downloads, `ok: false` errors with
 * `error_code` and `parameters.retry_after`), plus an OpenAI-compatible
 * `/v1/audio/transcriptions` for voice notes. Bale speaks the same protocol
 * (`FakeBale.ts` starts one as Bale's bot).
 */
import * as http from "node:http"

export interface BotCall {
  readonly token: string
  readonly method: string
  readonly params: Record<string, unknown>
  /** When the call arrived (ms since the epoch), to see backoff between attempts. */
  readonly at: number
}

interface Failure {
  readonly method: string
  readonly status: number
  readonly description: string
  readonly retryAfter?: number
}

export interface FakeTelegram {
  readonly url: string
  readonly calls: Array<BotCall>
  readonly transcriptions: Array<number>
  /** Tokens the fake knows; others get 401. */
  readonly tokens: Set<string>
  /** The next call of `method` fails this way (once per entry). */
  readonly failNext: (failure: Failure) => void
  readonly callsOf: (method: string, chatId?: number) => Array<BotCall>
  readonly close: () => Promise<void>
}

/** The first bytes of an Ogg/Opus voice note: enough for a sniffer to see audio. */
export const voiceBytes = Buffer.concat([
  Buffer.from("OggS"),
  Buffer.from([0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0, 0, 0, 1, 19]),
  Buffer.from("OpusHead"),
  Buffer.from([1, 1, 0x38, 1, 0x80, 0xbb, 0, 0, 0, 0, 0]),
  Buffer.alloc(200, 7)
])

const json = (response: http.ServerResponse, status: number, body: unknown) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(body))
}

export const startFakeTelegram = (transcript: string, botUsername = "shop_test_bot"): Promise<FakeTelegram> =>
  new Promise((resolve) => {
    const calls: Array<BotCall> = []
    const transcriptions: Array<number> = []
    const tokens = new Set<string>()
    const failures: Array<Failure> = []
    const server = http.createServer((request, response) => {
      const chunks: Array<Buffer> = []
      request.on("data", (chunk: Buffer) => chunks.push(chunk))
      request.on("end", () => {
        const url = request.url ?? ""
        const body = Buffer.concat(chunks)
        if (url === "/v1/audio/transcriptions") {
          transcriptions.push(body.length)
          return json(response, 200, { text: transcript })
        }
        const file = /^\/file\/bot([^/]+)\/(.+)$/.exec(url)
        if (file !== null) {
          if (!tokens.has(file[1] ?? "")) {
            return json(response, 401, { ok: false, error_code: 401, description: "Unauthorized" })
          }
          response.writeHead(200, { "content-type": "application/octet-stream" })
          return response.end(voiceBytes)
        }
        const match = /^\/bot([^/]+)\/(\w+)$/.exec(url)
        if (match === null) {
          return json(response, 404, { ok: false, error_code: 404, description: "Not Found" })
        }
        const token = match[1] ?? ""
        const method = match[2] ?? ""
        const params: Record<string, unknown> = body.length > 0 ? JSON.parse(body.toString("utf8")) : {}
        calls.push({ token, method, params, at: Date.now() })
        if (!tokens.has(token)) return json(response, 401, { ok: false, error_code: 401, description: "Unauthorized" })
        const failure = failures.findIndex((entry) => entry.method === method)
        if (failure >= 0) {
          const [entry] = failures.splice(failure, 1)
          if (entry !== undefined) {
            return json(response, entry.status, {
              ok: false,
              error_code: entry.status,
              description: entry.description,
              ...(entry.retryAfter === undefined ? {} : { parameters: { retry_after: entry.retryAfter } })
            })
          }
        }
        switch (method) {
          case "getMe":
            return json(response, 200, {
              ok: true,
              result: { id: 777, is_bot: true, first_name: "Shop", username: botUsername }
            })
          case "getFile":
            return json(response, 200, {
              ok: true,
              result: {
                file_id: params.file_id,
                file_unique_id: "u1",
                file_size: voiceBytes.length,
                file_path: "voice/file_7.oga"
              }
            })
          case "sendMessage":
          case "sendPhoto":
            return json(response, 200, {
              ok: true,
              result: { message_id: calls.length, date: 0, chat: { id: params.chat_id } }
            })
          default:
            return json(response, 200, { ok: true, result: true })
        }
      })
    })
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      resolve({
        url: `http://127.0.0.1:${port}`,
        calls,
        transcriptions,
        tokens,
        failNext: (failure) => failures.push(failure),
        callsOf: (method, chatId) =>
          calls.filter((call) => call.method === method && (chatId === undefined || call.params.chat_id === chatId)),
        close: () => new Promise((done) => server.close(() => done()))
      })
    })
  })
