/**
 * The request the routes see once the edge has admitted it: the same request,
 * whose body is read only when a reader asks for it. The framework asks after
 * the route's security middleware (API key, operator token) and a messenger
 * hook after checking its own secret, so an unauthenticated request costs no
 * more than its headers. Reading applies the edge's rules: the route's body
 * limit (a chunked body past it drained, not reset), the character rule on JSON
 * bodies, and multipart parts counted and sized as they arrive.
 */
import {
  type Headers,
  HttpIncomingMessage,
  type HttpMethod,
  HttpServerError,
  HttpServerRequest,
  Multipart,
  type Socket
} from "@effect/platform"
import { NodeHttpServerRequest, NodeMultipart } from "@effect/platform-node"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Inspectable from "effect/Inspectable"
import * as Option from "effect/Option"
import * as Predicate from "effect/Predicate"
import type * as Stream from "effect/Stream"
import * as fs from "node:fs"
import { pipeline } from "node:stream/promises"
import { UnstorableBody, unstorableInJsonText } from "./UnstorableStrings"

/** What the edge decided about a request's body before routing. */
export interface BodyRules {
  /** The route's limit (`Limits.MaxBodyBytes`, or the JSON default). */
  readonly maxBytes: number
  readonly json: boolean
  readonly chunked: boolean
}

/** The cause the platform's reader gives a body past its limit; readers of the body test for it. */
export const bodyTooLarge = new Error("maxBytes exceeded")

export const isBodyTooLarge = (cause: unknown) => cause instanceof Error && cause.message === bodyTooLarge.message

/**
 * A file part that passed the multipart limit on one file while it was being
 * written: its form key, its position among that key's files and its name, so
 * the answer names it as the service's own size check does.
 */
export class OversizedPart extends Data.TaggedClass("OversizedPart")<{
  readonly key: string
  readonly index: number
  readonly name: string
}> {}

/**
 * Reads a chunked body up to `maxBytes`. Past the limit the rest is drained,
 * not the connection reset (as the platform's reader does), so the client
 * reads the 413.
 */
const readChunked = (request: HttpServerRequest.HttpServerRequest, maxBytes: number) =>
  Effect.async<string, HttpServerError.RequestError>((resume) => {
    const source = NodeHttpServerRequest.toIncomingMessage(request)
    const chunks: Array<Buffer> = []
    let bytes = 0
    let over = false
    const fail = (cause: unknown) => new HttpServerError.RequestError({ request, reason: "Decode", cause })
    source.on("data", (chunk: Buffer) => {
      if (over) return
      bytes += chunk.length
      if (bytes <= maxBytes) return void chunks.push(chunk)
      over = true
      chunks.length = 0
      resume(Effect.fail(fail(bodyTooLarge)))
    })
    source.on("end", () => {
      if (!over) resume(Effect.succeed(Buffer.concat(chunks).toString("utf8")))
    })
    source.on("error", (error) => {
      if (!over) resume(Effect.fail(fail(error)))
    })
  })

/**
 * The body as text, read once (the stream cannot be read twice) and shared by
 * every view of the request (`modify` makes new views). A JSON body holding
 * unstorable characters is a defect (`UnstorableBody`) the edge answers as 400.
 */
const textReader = (request: HttpServerRequest.HttpServerRequest, rules: BodyRules) => {
  const read = rules.chunked ? readChunked(request, rules.maxBytes) : HttpIncomingMessage.withMaxBodySize(
    request.text,
    Option.some(rules.maxBytes)
  )
  const checked = rules.json ?
    Effect.tap(read, (text) => {
      const properties = unstorableInJsonText(text)
      return properties.length === 0 ? Effect.void : Effect.die(new UnstorableBody({ properties }))
    }) :
    read
  return Effect.runSync(Effect.cached(checked))
}

/**
 * Reads the rest of a refused body and drops it, and completes when it has all arrived (or the connection
 * ends): then the answer goes out. Node's HTTP client stops sending once a response has arrived, so an
 * answer sent while a client still uploads would reach it as a broken pipe instead of the 413. Bounded by
 * the server's request timeout; nothing is kept.
 */
const drain = (request: HttpServerRequest.HttpServerRequest) =>
  Effect.async<void>((resume) => {
    const source = NodeHttpServerRequest.toIncomingMessage(request)
    if (source.complete || source.destroyed) return resume(Effect.void)
    const done = () => resume(Effect.void)
    source.once("end", done)
    source.once("close", done)
    source.once("error", done)
    source.unpipe()
    source.resume()
  })

/** multipasta's error for a part past `maxPartSize` (the platform's `maxFileSize`). */
const isPartLimit = (cause: unknown) =>
  Predicate.hasProperty(cause, "_tag") && cause._tag === "ReachedLimit" &&
  Predicate.hasProperty(cause, "limit") && cause.limit === "MaxPartSize"

/**
 * The multipart body persisted as the platform does it, but with the file being
 * written known, so that a part over the limit on one file is named
 * (`OversizedPart`) instead of an anonymous 413.
 */
const multipartReader = (request: HttpServerRequest.HttpServerRequest) => {
  let writing: OversizedPart | undefined
  const seen = new Map<string, number>()
  const persisted = Multipart.toPersisted(request.multipartStream, (path, file) => {
    const index = seen.get(file.key) ?? 0
    seen.set(file.key, index + 1)
    writing = new OversizedPart({ key: file.key, index, name: file.name })
    return Effect.tryPromise({
      try: (signal) => pipeline(NodeMultipart.fileToReadable(file), fs.createWriteStream(path), { signal }),
      // The parser destroys the part it stops with its own error: the limit, named as the platform names it.
      catch: (cause) =>
        new Multipart.MultipartError({ reason: isPartLimit(cause) ? "FileTooLarge" : "InternalError", cause })
    })
  }).pipe(
    Effect.tapError(() => drain(request)),
    Effect.catchIf(
      (error) => error.reason === "FileTooLarge" && writing !== undefined,
      () => Effect.die(writing)
    )
  )
  return Effect.runSync(Effect.cached(persisted))
}

/** The body's readers of one request, made on first use and shared by every view of it. */
class Readers {
  private cachedText: Effect.Effect<string, HttpServerError.RequestError> | undefined
  private cachedMultipart: ReturnType<typeof multipartReader> | undefined

  constructor(private readonly request: HttpServerRequest.HttpServerRequest, private readonly rules: BodyRules) {}

  get text() {
    return this.cachedText ??= textReader(this.request, this.rules)
  }
  get multipart() {
    return this.cachedMultipart ??= multipartReader(this.request)
  }
}

class AdmittedRequest extends Inspectable.Class implements HttpServerRequest.HttpServerRequest {
  readonly [HttpServerRequest.TypeId]: HttpServerRequest.TypeId = HttpServerRequest.TypeId
  readonly [HttpIncomingMessage.TypeId]: HttpIncomingMessage.TypeId = HttpIncomingMessage.TypeId

  constructor(readonly inner: HttpServerRequest.HttpServerRequest, private readonly readers: Readers) {
    super()
  }

  get source(): unknown {
    return this.inner.source
  }
  get url(): string {
    return this.inner.url
  }
  get originalUrl(): string {
    return this.inner.originalUrl
  }
  get method(): HttpMethod.HttpMethod {
    return this.inner.method
  }
  get cookies() {
    return this.inner.cookies
  }
  get headers(): Headers.Headers {
    return this.inner.headers
  }
  get remoteAddress(): Option.Option<string> {
    return this.inner.remoteAddress
  }
  get upgrade(): Effect.Effect<Socket.Socket, HttpServerError.RequestError> {
    return this.inner.upgrade
  }
  get multipartStream(): Stream.Stream<Multipart.Part, Multipart.MultipartError> {
    return this.inner.multipartStream
  }
  get stream(): Stream.Stream<Uint8Array, HttpServerError.RequestError> {
    return this.inner.stream
  }
  get arrayBuffer(): Effect.Effect<ArrayBuffer, HttpServerError.RequestError> {
    return this.inner.arrayBuffer
  }

  get multipart() {
    return this.readers.multipart
  }
  get text(): Effect.Effect<string, HttpServerError.RequestError> {
    return this.readers.text
  }
  get json(): Effect.Effect<unknown, HttpServerError.RequestError> {
    return Effect.flatMap(this.readers.text, (text) =>
      Effect.try({
        try: (): unknown => text === "" ? null : JSON.parse(text),
        catch: (cause) => new HttpServerError.RequestError({ request: this, reason: "Decode", cause })
      }))
  }
  get urlParamsBody() {
    return this.inner.urlParamsBody
  }

  modify(options: {
    readonly url?: string
    readonly headers?: Headers.Headers
    readonly remoteAddress?: string
  }): HttpServerRequest.HttpServerRequest {
    return new AdmittedRequest(this.inner.modify(options), this.readers)
  }

  toJSON(): unknown {
    return this.inner.toJSON()
  }
}

/** The request as the routes see it: its body read lazily, under `rules`. */
export const admitted = (request: HttpServerRequest.HttpServerRequest, rules: BodyRules) =>
  new AdmittedRequest(request, new Readers(request, rules))
