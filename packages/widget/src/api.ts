/**
 * The widget's calls to the service (`/v1/web/:connectionCode/…`). Failures
 * become a `Problem` the panel can say politely; a streamed answer arrives as
 * `delta` texts, then the whole reply.
 */
export interface Config {
  readonly title: string
  readonly greeting: string
  readonly colour: string
  readonly defaultLanguage: "en" | "fa"
  readonly showProducts: boolean
  readonly showSources: boolean
}

export interface Source {
  readonly path: string
  readonly text: string
}

export interface Product {
  readonly externalId: string
  readonly title: string
  readonly price: number | null
  readonly currency: string | null
  readonly imageUrl: string | null
  readonly url: string | null
}

export interface Reply {
  /** The stored answer's id, to rate it (absent from an older server). */
  readonly messageId?: string
  readonly text: string
  readonly sources: ReadonlyArray<Source>
  readonly products: ReadonlyArray<Product>
}

export interface Message {
  readonly id?: string
  readonly role: "user" | "assistant"
  readonly text: string
  readonly sources: ReadonlyArray<Source>
}

/** What went wrong, as the panel tells the visitor. */
export type Problem = "refused" | "quota" | "busy" | "visitor" | "tooLong" | "unavailable"

export class ProblemError extends Error {
  constructor(readonly problem: Problem) {
    super(problem)
  }
}

const problemOf = (status: number): Problem =>
  status === 403 || status === 404
    ? "refused"
    : status === 402
    ? "quota"
    : status === 429
    ? "busy"
    : status === 401
    ? "visitor"
    : status === 400 || status === 413
    ? "tooLong"
    : "unavailable"

export interface Client {
  readonly config: () => Promise<Config>
  /** With the page's customer identity unless `anonymous` (after the identity was refused). */
  readonly session: (
    visitorToken: string | null,
    anonymous?: boolean
  ) => Promise<{ visitorToken: string; messages: Array<Message> }>
  readonly send: (visitorToken: string, message: string, onDelta: (text: string) => void) => Promise<Reply>
  readonly newConversation: (visitorToken: string) => Promise<void>
  /** One vote per answer (the last counts), with an optional comment. */
  readonly feedback: (visitorToken: string, messageId: string, rating: Rating, comment?: string) => Promise<void>
}

export type Rating = "up" | "down"

export const client = (
  options: { base: string; connection: string; previewToken?: string; userId?: string; userHash?: string }
): Client => {
  const root = `${options.base}/v1/web/${encodeURIComponent(options.connection)}`
  const headers = (visitorToken?: string): Record<string, string> => ({
    ...(options.previewToken === undefined ? {} : { "x-dastyar-preview": options.previewToken }),
    ...(visitorToken === undefined ? {} : { "x-dastyar-visitor": visitorToken })
  })

  const request = async (path: string, init: RequestInit, visitorToken?: string) => {
    let response: Response
    try {
      response = await fetch(root + path, {
        ...init,
        headers: {
          ...headers(visitorToken),
          ...(init.body === undefined ? {} : { "content-type": "application/json" })
        }
      })
    } catch {
      // A browser hides a refused preflight as a network error.
      throw new ProblemError("refused")
    }
    if (!response.ok) throw new ProblemError(problemOf(response.status))
    return response
  }
  // The service's own envelope: its shape is the API's (the widget carries no schema library).
  const data = async <A>(response: Response): Promise<A> => {
    const body: { data: A } = await response.json()
    return body.data
  }

  return {
    config: async () => data<Config>(await request("/config", {})),

    session: async (visitorToken, anonymous = false) => {
      const body = {
        ...(visitorToken === null ? {} : { visitorToken }),
        ...(anonymous || options.userId === undefined ? {} : { userId: options.userId }),
        ...(anonymous || options.userHash === undefined ? {} : { userHash: options.userHash })
      }
      return data(await request("/session", { method: "POST", body: JSON.stringify(body) }))
    },

    send: async (visitorToken, message, onDelta) => {
      const streams = typeof ReadableStream !== "undefined" && typeof TextDecoder !== "undefined"
      const response = await request(
        "/messages",
        { method: "POST", body: JSON.stringify({ message, stream: streams }) },
        visitorToken
      )
      if (!streams || response.body === null || !response.headers.get("content-type")?.includes("event-stream")) {
        return data<Reply>(response)
      }
      return readEvents(response.body, onDelta)
    },

    newConversation: async (visitorToken) => {
      await request("/conversations", { method: "POST" }, visitorToken)
    },

    feedback: async (visitorToken, messageId, rating, comment) => {
      const body = JSON.stringify(comment === undefined ? { rating } : { rating, comment })
      await request(`/messages/${encodeURIComponent(messageId)}/feedback`, { method: "POST", body }, visitorToken)
    }
  }
}

/** Server-sent events: `delta` pieces of text, then `done` with the reply. */
const readEvents = async (body: ReadableStream<Uint8Array>, onDelta: (text: string) => void): Promise<Reply> => {
  const reader = body.getReader()
  const decoder = new TextDecoder()
  let buffered = ""
  for (;;) {
    const { done, value } = await reader.read()
    if (done) break
    buffered += decoder.decode(value, { stream: true })
    let end = buffered.indexOf("\n\n")
    while (end >= 0) {
      const block = buffered.slice(0, end)
      buffered = buffered.slice(end + 2)
      end = buffered.indexOf("\n\n")
      let event = "message"
      let payload = ""
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) event = line.slice(6).trim()
        else if (line.startsWith("data:")) payload += line.slice(5).trimStart()
      }
      if (event === "delta") {
        const delta: { text: string } = JSON.parse(payload)
        onDelta(delta.text)
      } else if (event === "done") {
        const reply: Reply = JSON.parse(payload)
        return reply
      }
    }
  }
  throw new ProblemError("unavailable")
}
