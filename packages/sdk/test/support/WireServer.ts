/**
 * A loopback HTTP server that answers with canned responses, in order (the
 * last one repeats), and records what it received: for wire-level cases the
 * real service cannot produce on demand (a 429 followed by a 200).
 */
import * as http from "node:http"

export interface CannedResponse {
  readonly status: number
  readonly headers?: Readonly<Record<string, string>>
  readonly body: string
}

export interface ReceivedRequest {
  readonly method: string
  readonly url: string
  readonly headers: http.IncomingHttpHeaders
  readonly body: string
}

export interface WireServer {
  readonly url: string
  readonly received: ReadonlyArray<ReceivedRequest>
  readonly close: () => Promise<void>
}

export const startWireServer = async (
  answers: readonly [CannedResponse, ...Array<CannedResponse>]
): Promise<WireServer> => {
  const received: Array<ReceivedRequest> = []
  const server = http.createServer((request, response) => {
    let body = ""
    request.setEncoding("utf8")
    request.on("data", (chunk: string) => (body += chunk))
    request.on("end", () => {
      received.push({ method: request.method ?? "", url: request.url ?? "", headers: request.headers, body })
      const answer = answers[Math.min(received.length, answers.length) - 1] ?? answers[0]
      response.writeHead(answer.status, { "content-type": "application/json", ...answer.headers })
      response.end(answer.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("the wire server has no TCP address")
  return {
    url: `http://127.0.0.1:${address.port}`,
    received,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections()
        server.close((error) => (error ? reject(error) : resolve()))
      })
  }
}

/** A success envelope as the service writes it. */
export const successBody = (data: unknown) =>
  JSON.stringify({ data, response: { status: "success", message: "Success" } })
