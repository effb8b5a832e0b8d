/**
 * A local server speaking the OpenAI embeddings protocol (`POST /v1/embeddings`),
 * with deterministic vectors, scripted failures and a record of what it was sent.
 */
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { createServer } from "node:http"
import { embedOne } from "../../src/Search/OfflineEmbedder"

const EmbeddingsRequest = Schema.Struct({ input: Schema.Array(Schema.String), model: Schema.String })

export interface FakeEmbeddings {
  readonly baseUrl: string
  /** Input batch sizes of the successful requests, in order. */
  readonly batches: Array<number>
  /** Statuses to answer before serving (e.g. [429, 500]); consumed in order. */
  readonly failures: Array<number>
  readonly requests: () => number
}

export const fakeEmbeddings = (
  options: {
    readonly dimensions?: number
    /** How long each answer takes (a slow provider); none by default. */
    readonly delayMs?: number
  } = {}
) =>
  Effect.acquireRelease(
    Effect.async<{ readonly fake: FakeEmbeddings; readonly close: () => void }>((resume) => {
      const batches: Array<number> = []
      const failures: Array<number> = []
      let requests = 0
      const server = createServer((req, res) => {
        let body = ""
        req.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")))
        req.on("end", () => {
          requests++
          const failure = failures.shift()
          if (failure !== undefined) {
            res.writeHead(failure, { "content-type": "application/json" })
            res.end(JSON.stringify({ error: { message: "scripted failure", type: "server_error" } }))
            return
          }
          if (req.url !== "/v1/embeddings" || req.headers.authorization !== "Bearer emb-key") {
            res.writeHead(req.url !== "/v1/embeddings" ? 404 : 401).end()
            return
          }
          const parsed = Schema.decodeUnknownSync(EmbeddingsRequest)(JSON.parse(body))
          batches.push(parsed.input.length)
          const size = options.dimensions ?? 64
          const answer = () => res.end(JSON.stringify({
            object: "list",
            model: parsed.model,
            // Deliberately not unit length: the client normalises.
            data: parsed.input.map((text, index) => ({
              object: "embedding",
              index,
              embedding: embedOne(text).slice(0, size).map((x) => x * 3)
            })).reverse(),
            usage: { prompt_tokens: parsed.input.length * 2, total_tokens: parsed.input.length * 2 }
          }))
          res.writeHead(200, { "content-type": "application/json" })
          if (options.delayMs === undefined) answer()
          else setTimeout(answer, options.delayMs)
        })
      })
      server.listen(0, "127.0.0.1", () => {
        const address = server.address()
        const port = typeof address === "object" && address !== null ? address.port : 0
        resume(Effect.succeed({
          fake: { baseUrl: `http://127.0.0.1:${port}/v1`, batches, failures, requests: () => requests },
          close: () => server.close()
        }))
      })
    }),
    ({ close }) => Effect.sync(close)
  ).pipe(Effect.map(({ fake }) => fake))
