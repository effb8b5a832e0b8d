/** The public content routes (cacheable, limited per client IP) and the operator's article routes. */
import { Content, DastyarApi } from "@dastyar/domain"
import { HttpApiBuilder } from "@effect/platform"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { AppConfig } from "../Config"
import { cacheFor, withETag } from "../Platform/Caching"
import { clientAddress } from "../Platform/ClientAddress"
import { RateLimit } from "../Platform/RateLimit"
import { annotateRoute } from "../Platform/RequestLog"
import { Articles } from "./Articles"

/** One count per client IP for all content routes. */
export const ContentRateLimitLive = Layer.effect(
  Content.ContentRateLimit,
  Effect.gen(function*() {
    const rateLimit = yield* RateLimit
    const config = yield* AppConfig
    return Effect.gen(function*() {
      yield* annotateRoute
      const address = yield* clientAddress.pipe(Effect.provideService(AppConfig, config))
      yield* rateLimit.consumeIn("content", address, config.contentRateLimitPerMinute)
    })
  })
)

const cacheable = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
  cacheFor({ seconds: 60, scope: "public" }).pipe(Effect.zipRight(withETag), Effect.zipRight(effect))

export const ContentHttpLive = HttpApiBuilder.group(DastyarApi, "content", (handlers) =>
  Effect.gen(function*() {
    const articles = yield* Articles
    return handlers
      .handle("slugs", () => cacheable(articles.slugs()))
      .handle("list", ({ path, urlParams }) => cacheable(articles.publicList(path.type, urlParams)))
      .handle("get", ({ path }) => cacheable(articles.publicGet(path.type, path.slug)))
      .handle("categories", ({ path, urlParams }) => cacheable(articles.categories(path.type, urlParams.language)))
  }))

export const AdminContentHttpLive = HttpApiBuilder.group(
  DastyarApi,
  "adminContent",
  (handlers) =>
    Effect.gen(function*() {
      const articles = yield* Articles
      return handlers
        .handle("listArticles", ({ urlParams }) => articles.adminList(urlParams))
        .handle("getArticle", ({ path }) => articles.adminGet(path.type, path.slug))
        .handle("putArticle", ({ path, payload }) => articles.put(path.type, path.slug, payload))
        .handle("deleteArticle", ({ path }) => articles.remove(path.type, path.slug).pipe(Effect.as(null)))
    })
)
