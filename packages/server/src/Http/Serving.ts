/**
 * The node:http server of `main.ts`: bound early, answering every request with
 * `503 service.not_ready` (and `Retry-After`) until the app is served on it, so
 * that a request arriving during start or stop is answered instead of left
 * hanging; timeouts that cut off clients trickling headers or bodies; and a
 * graceful stop that lets in-flight requests finish.
 */
import { Errors, I18n, System } from "@dastyar/domain"
import { HttpServer } from "@effect/platform"
import { NodeHttpServer } from "@effect/platform-node"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import * as Http from "node:http"
import * as Net from "node:net"
import type { Duplex } from "node:stream"
import { AppConfig } from "../Config"

/** Seconds a client is told to wait before retrying while the service starts or stops. */
const retryAfterSeconds = 1

const notReadyBody = (acceptLanguage: string | undefined): string =>
  JSON.stringify(Effect.runSync(
    Schema.encode(System.NotReadyResponse)(new System.NotReady()).pipe(
      Effect.locally(I18n.CurrentLocale, I18n.negotiate(acceptLanguage))
    )
  ))

/**
 * Requests Node refuses before the app sees them (headers over its 16 KB cap,
 * bytes that are not HTTP, a request not received within `requestTimeout`)
 * are answered in the envelope too, in the default language (their headers
 * were never read). Node's own answer would be a bare status line.
 */
const clientErrorAnswer = (
  code: string
): { readonly status: number; readonly reason: string; readonly body: string } => {
  const encode = <A, I>(schema: Schema.Schema<A, I>, error: A) =>
    JSON.stringify(Effect.runSync(Schema.encode(schema)(error)))
  switch (code) {
    case "HPE_HEADER_OVERFLOW":
      return {
        status: 431,
        reason: "Request Header Fields Too Large",
        body: encode(Errors.HeadersTooLargeResponse, new Errors.HeadersTooLarge())
      }
    case "HPE_CHUNK_EXTENSIONS_OVERFLOW":
      return {
        status: 413,
        reason: "Payload Too Large",
        body: encode(Errors.PayloadTooLargeResponse, new Errors.PayloadTooLarge())
      }
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return {
        status: 408,
        reason: "Request Timeout",
        body: encode(Errors.RequestTimeoutResponse, new Errors.RequestTimeout())
      }
    default:
      return {
        status: 400,
        reason: "Bad Request",
        body: encode(Errors.MalformedRequestResponse, new Errors.MalformedRequest())
      }
  }
}

/** Like Node's default: no answer on a dead socket or over a response already started (pipelining). */
const answerClientError = (error: Error & { readonly code?: string }, socket: Duplex) => {
  const inFlight: unknown = Reflect.get(socket, "_httpMessage")
  const started = typeof inFlight === "object" && inFlight !== null && Reflect.get(inFlight, "headersSent") === true
  if (error.code === "ECONNRESET" || !socket.writable || started) {
    socket.destroy()
    return
  }
  const { body, reason, status } = clientErrorAnswer(error.code ?? "")
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\ncontent-type: application/json; charset=utf-8\r\n` +
      `content-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
    () => socket.destroy()
  )
}

/** Requests in flight (for the graceful stop) and whether the app is being served. */
export class ServerState {
  inFlight = 0
  stopping = false
  private idle: Array<() => void> = []
  started(response: Http.ServerResponse) {
    this.inFlight++
    response.once("close", () => {
      this.inFlight--
      if (this.inFlight === 0) { for (const resolve of this.idle.splice(0)) resolve() }
    })
  }
  whenIdle = (): Promise<void> =>
    this.inFlight === 0 ? Promise.resolve() : new Promise((resolve) => this.idle.push(resolve))
}

export class NodeServer extends Effect.Service<NodeServer>()("NodeServer", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    const state = new ServerState()
    const server = Http.createServer({
      // A client must send its headers within this time, and its whole request within the next one.
      headersTimeout: Duration.toMillis(config.server.headersTimeout),
      requestTimeout: Duration.toMillis(config.server.requestTimeout),
      keepAliveTimeout: Duration.toMillis(config.server.keepAliveTimeout)
    }, (request, response) => {
      state.started(response)
      // While stopping, responses end their keep-alive connection.
      if (state.stopping) response.setHeader("connection", "close")
      // The app's handler is the second listener once it is served; until then (and after it is withdrawn), 503.
      if (server.listenerCount("request") > 1) return
      response.writeHead(503, {
        "content-type": "application/json; charset=utf-8",
        "retry-after": String(retryAfterSeconds),
        connection: "close"
      })
      response.end(notReadyBody(request.headers["accept-language"]))
    })
    server.on("clientError", answerClientError)
    return { server, state, config } as const
  }),
  dependencies: [AppConfig.Default]
}) {}

/** One line instead of a stack trace when the port is taken or not allowed. */
const describeListenError = (error: unknown, host: string, port: number): string => {
  const code = error instanceof Error && "code" in error ? String(error.code) : ""
  if (code === "EADDRINUSE") return `Cannot listen on ${host}:${port}: the port is in use (set PORT to another one).`
  if (code === "EACCES") return `Cannot listen on ${host}:${port}: permission denied (choose a port above 1023).`
  if (code === "EADDRNOTAVAIL") return `Cannot listen on ${host}:${port}: no such address on this machine (check HOST).`
  return `Cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`
}

export class ListenError extends Schema.TaggedError<ListenError>()("ListenError", { message: Schema.String }) {}

/** The `HttpServer` on the early-bound socket. */
export const layer: Layer.Layer<HttpServer.HttpServer, ListenError, NodeServer> = Layer.scoped(
  HttpServer.HttpServer,
  Effect.gen(function*() {
    const { config, server } = yield* NodeServer
    return yield* NodeHttpServer.make(() => server, { port: config.port, host: config.host }).pipe(
      Effect.mapError((error) =>
        new ListenError({ message: describeListenError(error.cause, config.host, config.port) })
      )
    )
  })
)

/**
 * How long a stopping server still answers on its open keep-alive connections (each answer saying
 * `connection: close`) before it closes the idle ones. A client may be writing its next request on an
 * idle connection at the very moment it is closed, and that request would be reset; a client in the
 * middle of a stream of requests sends its next one well within this time and is told to reconnect.
 */
const keepAliveLinger = Duration.seconds(1)

/**
 * Graceful stop, registered once the app is served (so it runs before the
 * services are closed): stop accepting, let open keep-alive connections be told
 * to close, close the idle ones, let in-flight requests finish for up to
 * `DASTYAR_SHUTDOWN_TIMEOUT`, then cut the rest.
 */
export const drainOnStop = Effect.gen(function*() {
  const { config, server, state } = yield* NodeServer
  yield* Effect.addFinalizer(() =>
    Effect.gen(function*() {
      yield* Effect.logInfo("stopping: finishing requests in flight").pipe(
        Effect.annotateLogs({ inFlight: state.inFlight })
      )
      yield* Effect.sync(() => {
        state.stopping = true
        // Stop accepting only: `http.Server#close` would also close idle keep-alive connections at once.
        Net.Server.prototype.close.call(server)
      })
      const linger = Duration.min(keepAliveLinger, config.server.shutdownTimeout)
      yield* Effect.sleep(linger)
      yield* Effect.sync(() => server.closeIdleConnections())
      const drained = yield* Effect.promise(state.whenIdle).pipe(
        Effect.timeout(Duration.subtract(config.server.shutdownTimeout, linger)),
        Effect.as(true),
        Effect.orElseSucceed(() => false)
      )
      if (!drained) {
        yield* Effect.logWarning("stop: requests still in flight after the shutdown timeout were cut").pipe(
          Effect.annotateLogs({ inFlight: state.inFlight })
        )
      }
      yield* Effect.sync(() => server.closeAllConnections())
    })
  )
})
