import { HttpApp, HttpServerResponse } from "@effect/platform"
import * as Effect from "effect/Effect"

/** Marks this request's successful response cacheable (errors never are). */
export const cacheFor = (options: { readonly seconds: number; readonly scope: "private" | "public" }) =>
  HttpApp.appendPreResponseHandler((_, response) =>
    Effect.succeed(
      response.status >= 400 ? response : HttpServerResponse.setHeader(
        response,
        "cache-control",
        `${options.scope}, max-age=${options.seconds}`
      )
    )
  )
