/**
 * Rate limits (fixed one-minute window): per key and route for the API, per
 * route family for routes without a key (content per client IP, hooks per
 * connection), failed operator tokens per client IP; and their headers:
 * `X-RateLimit-*` on every response that got past it, `Retry-After` on a 429.
 * The store is in memory, or Redis when `REDIS_URL` is set so several
 * instances share one exact count. When Redis is down the limiter fails open:
 * requests are let through uncounted (with a warning), not refused.
 */
import { Errors } from "@dastyar/domain"
import { RateLimiter } from "@effect/experimental"
import * as RedisRateLimiter from "@effect/experimental/RateLimiter/Redis"
import { HttpApp, HttpRouter, HttpServerResponse } from "@effect/platform"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { AppConfig } from "../Config"
import { withSpanWhenTracing } from "../Telemetry"
import { layerMemoryStore } from "./RateLimitStore"

const window = Duration.minutes(1)
/** The spec fixes the retry hint at one window. */
const retryAfterSeconds = String(Duration.toSeconds(window))

export class RateLimit extends Effect.Service<RateLimit>()("RateLimit", {
  effect: Effect.gen(function*() {
    const limiter = yield* RateLimiter.RateLimiter
    const { rateLimitPerMinute } = yield* AppConfig

    /**
     * Counts one request against `key`'s window; the headers (or the 429) follow from the result.
     * Runs on every API request, so one match instead of a generator and an `Option` per call.
     */
    const count = (key: string, limit: number) =>
      Effect.matchEffect(
        limiter.consume({ algorithm: "fixed-window", onExceeded: "fail", window, limit, key }),
        {
          onFailure: (error) =>
            error.reason === "Exceeded"
              ? HttpApp.appendPreResponseHandler((_, response) =>
                Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", retryAfterSeconds))
              ).pipe(Effect.zipRight(new Errors.TooManyRequests()))
              // A store outage must not take the API down with it: let the request through.
              : Effect.logWarning("rate limit store unavailable; request not counted", error),
          onSuccess: ({ remaining, resetAfter }) =>
            HttpApp.appendPreResponseHandler((_, response) =>
              Effect.succeed(
                response.status === 429 ? response : HttpServerResponse.setHeaders(response, {
                  "x-ratelimit-limit": String(limit),
                  "x-ratelimit-remaining": String(Math.max(0, remaining)),
                  "x-ratelimit-reset": String(Math.max(1, Math.ceil(Duration.toSeconds(resetAfter))))
                })
              )
            )
        }
      )

    /**
     * Counts one request of `subject` (e.g. an API key id) on the current route
     * template, so `/assistants/a/products` and `/assistants/b/products` share a count.
     */
    // Every API request runs this: a span only when tracing is on (`Effect.fn` makes one, and an `Error`, per call).
    const consume = (subject: string, limit: number = rateLimitPerMinute) =>
      Effect.flatMap(
        HttpRouter.RouteContext,
        (route) => count(`${subject}:${route.route.method}:${route.route.path}`, limit)
      ).pipe(
        withSpanWhenTracing("RateLimit.consume", { captureStackTrace: false })
      )

    /**
     * Counts one request of `subject` in a family of routes that share one count
     * (e.g. every content route per client IP, or one hook connection).
     */
    const consumeIn = Effect.fn("RateLimit.consumeIn")(function*(family: string, subject: string, limit: number) {
      yield* count(`${family}:${subject}`, limit)
    })
    const tooMany = HttpApp.appendPreResponseHandler((_, response) =>
      Effect.succeed(HttpServerResponse.setHeader(response, "retry-after", retryAfterSeconds))
    ).pipe(Effect.zipRight(new Errors.TooManyRequests()))

    /**
     * A limit on failures rather than requests (wrong operator tokens per client IP): `check` refuses, without
     * counting, a subject that has used up its `limit` failures in the window, whatever it sends now; `count`
     * records one failure (a 429 past the limit). Both let the request through when the store is unavailable.
     */
    const failures = (family: string, subject: string, limit: number) => {
      const options = {
        algorithm: "fixed-window",
        onExceeded: "fail",
        window,
        limit,
        key: `${family}:${subject}`
      } as const
      return {
        check: Effect.matchEffect(limiter.consume({ ...options, tokens: 0 }), {
          // Also the Redis store's answer for a subject without failures (it refuses a zero expiry on a new key).
          onFailure: () => Effect.void,
          onSuccess: ({ remaining }) => remaining > 0 ? Effect.void : tooMany
        }),
        count: Effect.matchEffect(limiter.consume(options), {
          onFailure: (error) =>
            error.reason === "Exceeded"
              ? tooMany
              : Effect.logWarning("rate limit store unavailable; failure not counted", error),
          onSuccess: () => Effect.void
        })
      }
    }
    return { consume, consumeIn, failures } as const
  })
}) {}

/** `redis://[user:password@]host[:port][/db]` as ioredis options. */
const redisOptions = (url: string) => {
  const parsed = new URL(url)
  return {
    host: parsed.hostname,
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    db: parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0,
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(parsed.protocol === "rediss:" ? { tls: {} } : {}),
    // Fail open at once when Redis is down or stalls (see `count`): without these, ioredis holds each
    // command through 20 reconnect attempts, and every request waits that long.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: 500
  }
}

/** The limiter and its store, chosen by configuration. */
export const layerLimiter = Layer.unwrapEffect(
  Effect.map(AppConfig, (config) =>
    RateLimiter.layer.pipe(
      Layer.provide(Option.match(config.redisUrl, {
        onNone: () => layerMemoryStore,
        onSome: (url) => RedisRateLimiter.layerStore({ ...redisOptions(url), prefix: "dastyar:ratelimit:" })
      }))
    ))
)
