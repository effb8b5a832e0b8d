/**
 * Caches of authorisation facts (which key belongs to which account, which
 * assistant to which account), and of shops' synonyms, that every instance
 * empties at once when one instance revokes or changes something. On Postgres
 * a revocation is a `NOTIFY` that each instance hears on a connection of its
 * own (`LISTEN`); embedded PGlite is one instance, so the local emptying that
 * every revocation does first is all it needs.
 *
 * Staleness is never kept: while the listening connection is down the caches
 * are bypassed (every read goes to the database) and emptied again once it is
 * back, and a lookup that was in flight while a revocation arrived is not kept.
 */
import { SqlClient } from "@effect/sql"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import pg from "pg"
import { AppConfig } from "../Config"
import { makeLookupCache } from "../Platform/LookupCache"

/** What a revocation or change concerns: the caches subscribed to a topic are emptied when it is published. */
export type Topic = "keys" | "assistants" | "synonyms"

const topics: ReadonlyArray<string> = ["keys", "assistants", "synonyms"] satisfies ReadonlyArray<Topic>
const isTopic = (payload: string | undefined): payload is Topic => payload !== undefined && topics.includes(payload)

const channel = "dastyar_invalidations"
/** The listening connection's `application_name`, which lets an operator (or a test) find it. */
export const listenerApplicationName = "dastyar-listener"
/** A listening connection that stops answering is treated as lost after this. */
const heartbeat = { every: Duration.seconds(5), timeout: Duration.seconds(2) }

interface Subscriber {
  readonly topics: ReadonlyArray<Topic>
  readonly empty: () => void
}

export class Invalidations extends Effect.Service<Invalidations>()("Invalidations", {
  scoped: Effect.gen(function*() {
    const config = yield* AppConfig
    const sql = yield* SqlClient.SqlClient
    const subscribers = new Set<Subscriber>()
    /** Whether revocations from other instances reach this one (always, embedded). */
    let live = Option.isNone(config.databaseUrl)

    const empty = (topic: Topic | "all") => {
      for (const subscriber of subscribers) {
        if (topic === "all" || subscriber.topics.includes(topic)) subscriber.empty()
      }
    }

    const databaseUrl = config.databaseUrl
    if (Option.isSome(databaseUrl)) {
      const connectionString = Redacted.value(databaseUrl.value)
      /** One listening session: live from its `LISTEN` until it ends or stops answering. */
      const listenOnce = Effect.acquireUseRelease(
        Effect.tryPromise(async () => {
          const client = new pg.Client({ connectionString, application_name: listenerApplicationName, keepAlive: true })
          // Errors end the session (handled below); unheard, they would end the process.
          client.on("error", () => {})
          client.on("notification", (message) => {
            if (message.channel === channel && isTopic(message.payload)) empty(message.payload)
          })
          try {
            await client.connect()
            await client.query(`LISTEN ${channel}`)
          } catch (error) {
            await client.end().catch(() => {})
            throw error
          }
          return client
        }),
        (client) =>
          Effect.gen(function*() {
            // Anything revoked while no session listened is forgotten now.
            empty("all")
            live = true
            const ended = Effect.async<void>((resume) => {
              const done = () => resume(Effect.void)
              client.once("end", done)
              client.once("error", done)
              return Effect.sync(() => (client.off("end", done), client.off("error", done)))
            })
            const answering = Effect.tryPromise(() => client.query("SELECT 1")).pipe(
              Effect.timeoutFail({ duration: heartbeat.timeout, onTimeout: () => new Error("listener silent") }),
              Effect.zipRight(Effect.sleep(heartbeat.every)),
              Effect.forever
            )
            yield* Effect.raceFirst(ended, Effect.ignore(answering))
          }),
        (client) => {
          const close = Effect.promise(() => client.end().catch(() => {})).pipe(Effect.timeout(1000), Effect.ignore)
          return Effect.sync(() => {
            live = false
            empty("all")
          }).pipe(Effect.zipRight(close))
        }
      )
      yield* listenOnce.pipe(
        Effect.ignore,
        Effect.repeat(Schedule.exponential("100 millis").pipe(Schedule.union(Schedule.spaced("5 seconds")))),
        Effect.forkScoped
      )
    }

    return {
      /** Empties the topic's caches here at once, and on every other instance as the notification arrives. */
      publish: (topic: Topic) =>
        Effect.sync(() => empty(topic)).pipe(
          Effect.zipRight(
            Option.isSome(databaseUrl) ? Effect.orDie(sql`SELECT pg_notify(${channel}, ${topic})`) : Effect.void
          )
        ),

      /**
       * A cache of `lookup` for `timeToLive`, emptied by every publication of one of `topics` on any
       * instance, and bypassed while this instance may miss them.
       */
      cache: <Key, Value>(options: {
        readonly topics: ReadonlyArray<Topic>
        readonly capacity: number
        readonly timeToLive: Duration.DurationInput
        readonly keyOf: (key: Key) => string
        readonly lookup: (key: Key) => Effect.Effect<Value>
      }) =>
        Effect.gen(function*() {
          // A lookup overtaken by an emptying is answered once and not kept (the cache's own rule).
          const cache = yield* makeLookupCache(options)
          subscribers.add({ topics: options.topics, empty: () => Effect.runSync(cache.invalidateAll) })
          return {
            get: (key: Key): Effect.Effect<Value> => Effect.suspend(() => live ? cache.get(key) : options.lookup(key)),
            /** Taken when a read of a value elsewhere begins, for `set`. */
            generation: cache.generation,
            /** Keeps a value read elsewhere, unless an emptying came after `begunIn`, or none may be heard. */
            set: (key: Key, value: Value, begunIn: number): Effect.Effect<void> =>
              Effect.suspend(() => live ? cache.set(key, value, begunIn) : Effect.void),
            invalidate: cache.invalidate,
            size: cache.size
          }
        })
    } as const
  })
}) {}
