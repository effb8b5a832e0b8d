/**
 * A local server speaking OpenAI's chat completions (`POST /v1/chat/completions`),
 * JSON or SSE chunks as the request asks. Tests queue what the next requests
 * get: text, tool calls, an HTTP status, or a hang (no answer at all). With
 * nothing queued it answers a fixed text. Every request body is recorded.
 * It also transcribes any audio (`POST /v1/audio/transcriptions`) as `transcript`.
 */
import * as http from "node:http"

export type Scripted =
  | { readonly kind: "text"; readonly text: string }
  | { readonly kind: "tool"; readonly name: string; readonly arguments: Record<string, unknown> }
  | { readonly kind: "status"; readonly status: number }
  | { readonly kind: "hang" }

export interface FakeOpenAi {
  readonly baseUrl: string
  /** Bodies of every chat completions request, in order. */
  readonly requests: Array<Record<string, unknown>>
  readonly queue: (...replies: ReadonlyArray<Scripted>) => void
  /** Holds chat completions unanswered until the returned function is called. */
  readonly hold: () => () => void
  readonly reset: () => void
  readonly close: () => Promise<void>
}

export const defaultText = "Answer from the provider."
/** What `/v1/audio/transcriptions` hears in every voice note. */
export const transcript = "Do you ship to Shiraz?"

const usage = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 }

const toolCall = (reply: Extract<Scripted, { kind: "tool" }>, index: number) => ({
  id: `call_${index}`,
  type: "function",
  function: { name: reply.name, arguments: JSON.stringify(reply.arguments) }
})

const readBody = (request: http.IncomingMessage) =>
  new Promise<string>((resolve) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => (body += chunk))
    request.on("end", () => resolve(body))
  })

const sendJson = (response: http.ServerResponse, reply: Scripted, count: number) => {
  const message = reply.kind === "tool"
    ? { role: "assistant", content: null, tool_calls: [toolCall(reply, count)] }
    : { role: "assistant", content: reply.kind === "text" ? reply.text : "" }
  response.writeHead(200, { "content-type": "application/json" })
  response.end(JSON.stringify({
    id: `cmpl_${count}`,
    object: "chat.completion",
    choices: [{ index: 0, message, finish_reason: reply.kind === "tool" ? "tool_calls" : "stop" }],
    usage
  }))
}

/** The text in three chunks, or a tool call whose arguments arrive in two pieces, then usage and [DONE]. */
const sendStream = (response: http.ServerResponse, reply: Scripted, count: number) => {
  response.writeHead(200, { "content-type": "text/event-stream" })
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${
      JSON.stringify({
        id: `cmpl_${count}`,
        object: "chat.completion.chunk",
        choices: [{ index: 0, delta, finish_reason: finish }]
      })
    }\n\n`
  const parts: Array<string> = [chunk({ role: "assistant", content: "" }, null)]
  if (reply.kind === "tool") {
    const args = JSON.stringify(reply.arguments)
    const half = Math.floor(args.length / 2)
    parts.push(
      chunk({
        tool_calls: [{
          index: 0,
          id: `call_${count}`,
          type: "function",
          function: { name: reply.name, arguments: args.slice(0, half) }
        }]
      }, null)
    )
    parts.push(chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }, null))
    parts.push(chunk({}, "tool_calls"))
  } else {
    const text = reply.kind === "text" ? reply.text : ""
    const third = Math.ceil(text.length / 3)
    for (let i = 0; i < text.length; i += third) parts.push(chunk({ content: text.slice(i, i + third) }, null))
    parts.push(chunk({}, "stop"))
  }
  parts.push(`data: ${JSON.stringify({ id: `cmpl_${count}`, choices: [], usage })}\n\n`, "data: [DONE]\n\n")
  // Written one by one, so the client sees separate chunks.
  const next = (i: number) => {
    if (i === parts.length) return void response.end()
    response.write(parts[i])
    setTimeout(() => next(i + 1), 5)
  }
  next(0)
}

export const startFakeOpenAi = async (): Promise<FakeOpenAi> => {
  const requests: Array<Record<string, unknown>> = []
  let queued: Array<Scripted> = []
  const hanging = new Set<http.ServerResponse>()
  let held: Promise<void> | undefined
  const server = http.createServer(async (request, response) => {
    if (request.method === "POST" && request.url === "/v1/audio/transcriptions") {
      // Like OpenAI, it refuses audio it cannot decode: here anything that is not an Ogg stream.
      if (!(await readBody(request)).includes("OggS")) {
        response.writeHead(400, { "content-type": "application/json" })
        response.end(JSON.stringify({ error: { message: "Invalid file format.", type: "invalid_request_error" } }))
        return
      }
      response.writeHead(200, { "content-type": "application/json" })
      response.end(JSON.stringify({ text: transcript }))
      return
    }
    if (request.method !== "POST" || request.url !== "/v1/chat/completions") {
      response.writeHead(404).end()
      return
    }
    const body: Record<string, unknown> = JSON.parse(await readBody(request))
    requests.push(body)
    if (held !== undefined) await held
    const reply = queued.shift() ?? { kind: "text", text: defaultText }
    if (reply.kind === "hang") {
      hanging.add(response)
      return
    }
    if (reply.kind === "status") {
      response.writeHead(reply.status, { "content-type": "application/json" })
      response.end(JSON.stringify({ error: { message: `scripted ${reply.status}` } }))
      return
    }
    if (body.stream === true) sendStream(response, reply, requests.length)
    else sendJson(response, reply, requests.length)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  const port = typeof address === "object" && address !== null ? address.port : 0
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    queue: (...replies) => void queued.push(...replies),
    hold: () => {
      let release = () => {}
      held = new Promise<void>((resolve) => (release = resolve))
      return () => {
        held = undefined
        release()
      }
    },
    reset: () => {
      queued = []
      requests.length = 0
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const response of hanging) response.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      })
  }
}
