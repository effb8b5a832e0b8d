import { HttpApp, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"
import { createHash } from "node:crypto"

/**
 * Marks this request's successful response cacheable (errors never are). Every answer is written in the
 * negotiated language, so caches keep one copy per `Accept-Language`.
 */
export const cacheFor = (options: { readonly seconds: number; readonly scope: "private" | "public" }) =>
  HttpApp.appendPreResponseHandler((_, response) =>
    Effect.succeed(
      response.status >= 400 ? response : HttpServerResponse.setHeaders(response, {
        "cache-control": `${options.scope}, max-age=${options.seconds}`,
        vary: "Accept-Language"
      })
    )
  )

const matches = (ifNoneMatch: string, etag: string) =>
  ifNoneMatch.split(",").some((candidate) => {
    const tag = candidate.trim()
    return tag === "*" || tag === etag || tag === `W/${etag}`
  })

/**
 * Gives this request's 200 response an `ETag` computed from the encoded body
 * (envelope included, so it varies with the negotiated language), and answers
 * 304 without a body when `If-None-Match` names it.
 */
export const withETag = HttpApp.appendPreResponseHandler((request, response) => {
  if (response.status !== 200 || response.body._tag !== "Uint8Array") return Effect.succeed(response)
  const etag = `"${createHash("sha256").update(response.body.body).digest("base64url").slice(0, 32)}"`
  const tagged = HttpServerResponse.setHeaders(response, { etag, vary: "Accept-Language" })
  const ifNoneMatch = request.headers["if-none-match"]
  if (ifNoneMatch === undefined || !matches(ifNoneMatch, etag)) return Effect.succeed(tagged)
  return Effect.succeed(HttpServerResponse.empty({ status: 304, headers: tagged.headers }))
})
