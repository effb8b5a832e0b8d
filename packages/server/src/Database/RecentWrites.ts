/**
 * Read-your-writes with replicas: an account that sent a write reads from the
 * primary for as long as a usable replica may still lack it (the lag bound
 * plus one lag poll). Chosen over a session token because every client gets
 * it without sending anything back; it holds per instance, so behind several
 * instances a read may reach another one, whose replicas are then at most
 * the lag bound behind (docs/operations.md). Search reads (`SearchSql`) do not
 * wait for it. Without replicas it does nothing.
 */
import { HttpServerRequest } from "@effect/platform"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import { AppConfig } from "../Config"
import { makeExpiringMap } from "../Platform/ExpiringMap"
import { pollEvery, primaryReads } from "./Replicas"

/** Accounts remembered at once; past it the map starts over (an account forgotten early reads from a replica). */
const capacity = 100_000

/** A request that writes nothing: a GET, or a search (a POST for its body). */
const readsOnly = (request: HttpServerRequest.HttpServerRequest) =>
  request.method === "GET" || request.method === "HEAD" || /\/search(\?|$)/.test(request.url)

export class RecentWrites extends Effect.Service<RecentWrites>()("RecentWrites", {
  effect: Effect.gen(function*() {
    const config = yield* AppConfig
    const window = Duration.sum(config.databaseReplicaMaxLag, pollEvery)
    const wroteAt = makeExpiringMap<true>(capacity, Duration.toMillis(window))
    const enabled = config.databaseReplicaUrls.length > 0

    return {
      /**
       * For a request on behalf of `accountId`: one that writes is remembered,
       * and it and every request of that account within the window read from the primary.
       */
      route: (accountId: string) =>
        Effect.gen(function*() {
          if (!enabled) return
          const request = yield* HttpServerRequest.HttpServerRequest
          const now = yield* Clock.currentTimeMillis
          const writes = !readsOnly(request)
          if (writes) wroteAt.set(accountId, true, now)
          if (writes || wroteAt.get(accountId, now) === true) yield* FiberRef.set(primaryReads, true)
        })
    } as const
  })
}) {}
