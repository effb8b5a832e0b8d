/**
 * Response compression and the root path, around the whole app:
 * - a JSON, HTML or JavaScript body over 1 KB is sent with brotli or gzip when
 *   the client accepts one (`/docs` is megabytes of HTML that compress well);
 *   a body the app returns again and again (the `/docs` page) is compressed once;
 * - `GET /` redirects to the API reference instead of answering 404.
 */
import { HttpApp, HttpServerRequest, HttpServerResponse } from "@effect/platform"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as zlib from "node:zlib"

const minimumBytes = 1024
const compressible = /^(application\/(json|javascript)|text\/(html|plain|css|javascript))/

type Encoding = "br" | "gzip"

/** The client's preferred encoding we support; `q=0` refuses one. */
const chooseEncoding = (acceptEncoding: string | undefined): Encoding | undefined => {
  if (acceptEncoding === undefined) return undefined
  const accepted = new Set(
    acceptEncoding.split(",").map((part) => part.trim().toLowerCase()).filter((part) => !/;\s*q=0(\.0*)?$/.test(part))
      .map((part) => part.split(";")[0])
  )
  if (accepted.has("br")) return "br"
  if (accepted.has("gzip") || accepted.has("*")) return "gzip"
  return undefined
}

/**
 * How hard to compress: a body compressed on each request gets brotli quality 3 (gzip 3), one compressed once
 * quality 5 (gzip 6). Per request, the higher quality costs a noticeable share of a search's CPU for a body only a
 * little smaller. Both keep most of what the slower settings (brotli's default 11) gain.
 */
const effort = { perRequest: { br: 3, gzip: 3 }, once: { br: 5, gzip: 6 } } as const

const compress = (encoding: Encoding, body: Uint8Array, levels: typeof effort[keyof typeof effort]): Uint8Array =>
  encoding === "br"
    ? zlib.brotliCompressSync(body, {
      params: { [zlib.constants.BROTLI_PARAM_QUALITY]: levels.br, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length }
    })
    : zlib.gzipSync(body, { level: levels.gzip })

/** Bodies the app keeps and returns again (static pages), compressed once per encoding. */
const compressedOnce = new WeakMap<Uint8Array, Partial<Record<Encoding, Uint8Array>>>()
const reusedBodyBytes = 64 * 1024

const compressCached = (encoding: Encoding, body: Uint8Array): Uint8Array => {
  if (body.length < reusedBodyBytes) return compress(encoding, body, effort.perRequest)
  const cached = compressedOnce.get(body) ?? {}
  const hit = cached[encoding]
  if (hit !== undefined) return hit
  const fresh = compress(encoding, body, effort.once)
  compressedOnce.set(body, { ...cached, [encoding]: fresh })
  return fresh
}

const compressResponse = (
  response: HttpServerResponse.HttpServerResponse,
  encoding: Encoding
): HttpServerResponse.HttpServerResponse => {
  const body = response.body
  if (body._tag !== "Uint8Array" || body.body.length < minimumBytes) return response
  if (!compressible.test(body.contentType) || response.headers["content-encoding"] !== undefined) return response
  const compressed = compressCached(encoding, body.body)
  return HttpServerResponse.uint8Array(compressed, {
    status: response.status,
    ...(response.statusText === undefined ? {} : { statusText: response.statusText }),
    contentType: body.contentType,
    cookies: response.cookies,
    // Added to what the response already varies on (the language of its text).
    headers: {
      ...response.headers,
      "content-encoding": encoding,
      vary: response.headers.vary === undefined ? "accept-encoding" : `${response.headers.vary}, accept-encoding`
    }
  })
}

export const middleware = <E, R>(
  app: HttpApp.Default<E, R>
): HttpApp.Default<E, R | HttpServerRequest.HttpServerRequest> =>
  // Synchronous checks on every request: no generator around the app.
  Effect.withFiberRuntime((fiber) => {
    const request = Context.unsafeGet(fiber.currentContext, HttpServerRequest.HttpServerRequest)
    if (request.method === "GET" && (request.url === "/" || request.url.startsWith("/?"))) {
      return Effect.succeed(HttpServerResponse.redirect("/docs", { status: 302 }))
    }
    const encoding = chooseEncoding(request.headers["accept-encoding"])
    if (encoding === undefined) return app
    // A pre-response handler sees the final response, errors mapped to the envelope included.
    return Effect.zipRight(
      HttpApp.appendPreResponseHandler((_request, response) => Effect.succeed(compressResponse(response, encoding))),
      app
    )
  })
