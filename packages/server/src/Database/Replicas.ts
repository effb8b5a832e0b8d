/**
 * Reads that may lag a little (product search, chunk retrieval, list pages)
 * go to Postgres streaming replicas when `DATABASE_REPLICA_URLS` names some.
 * `ReadSql` is a second `SqlClient` for those reads only; everything else,
 * and every read that must see a write just made, keeps the primary's
 * `SqlClient`. Each replica has one pool, shared by every route. Its lag is
 * polled; one further behind than `DATABASE_REPLICA_MAX_LAG`, or unreachable,
 * is skipped until it recovers, and a statement a replica fails for being
 * gone (or for a conflict with its recovery) runs again on the primary.
 */
import * as Reactivity from "@effect/experimental/Reactivity"
import { SqlClient, type SqlConnection, Statement } from "@effect/sql"
import type { SqlError } from "@effect/sql/SqlError"
import { PgClient } from "@effect/sql-pg"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import pg from "pg"
import { AppConfig } from "../Config"
import { isDatabaseUnreachable, namePreparedStatements, naming, sessionOptions } from "./Database"

/** The client for reads a replica may serve; the primary's own client when there are no replicas. */
export class ReadSql extends Context.Tag("ReadSql")<ReadSql, SqlClient.SqlClient>() {}

/**
 * As `ReadSql`, for search reads (product search, chunk retrieval), which go
 * to a usable replica even for an account that just wrote (`primaryReads`):
 * what search sees trails a write anyway (indexing is asynchronous), and a
 * shop that chats or writes all day would otherwise never search on a replica.
 */
export class SearchSql extends Context.Tag("SearchSql")<SearchSql, SqlClient.SqlClient>() {}

/**
 * Set for a fiber whose reads must see the writes of its caller, recent ones
 * included (`Http/Auth.ts` sets it for a request by an account that wrote
 * within the window of `RecentWrites`): `ReadSql` then reads from the primary.
 */
export const primaryReads = FiberRef.unsafeMake(false)

/** One replica: its pool and what the last poll saw. */
export interface Replica {
  readonly url: string
  readonly pool: pg.Pool
  /** Whether it answered the last poll within the bound; false until the first poll. */
  usable: boolean
  /** Statements it served (what the tests and the operator can compare). */
  served: number
}

/** The replicas of this process, for inspection and tests. */
export class Replicas extends Context.Tag("Replicas")<Replicas, ReadonlyArray<Replica>>() {}

/**
 * Seconds behind the primary: nothing when every WAL record received is
 * replayed (an idle primary sends none), else the age of the last transaction
 * replayed. Zero on a server that is not a standby.
 */
const lagQuery = `
  SELECT CASE
    WHEN NOT pg_is_in_recovery() THEN 0
    WHEN pg_last_wal_receive_lsn() IS NOT DISTINCT FROM pg_last_wal_replay_lsn() THEN 0
    ELSE coalesce(extract(epoch FROM now() - pg_last_xact_replay_timestamp()), 1e9)
  END::float8 AS lag`

export const pollEvery = Duration.seconds(1)
/** A poll that gets no answer within this time (a connection's own limit) marks its replica unusable. */
const pollTimeout = Duration.seconds(2)

const poll = (replica: Replica, maxLagSeconds: number) =>
  Effect.tryPromise(() => replica.pool.query<{ lag: number }>(lagQuery)).pipe(
    Effect.timeout(pollTimeout),
    Effect.map((result) => (result.rows[0]?.lag ?? Infinity) <= maxLagSeconds),
    Effect.orElseSucceed(() => false),
    Effect.map((usable) => {
      replica.usable = usable
    })
  )

/**
 * A failure the primary would not have: the replica is gone or restarting,
 * cancelled the read for a conflict with its recovery (40001), or was sent a
 * write it cannot take (25006). The statement then runs on the primary.
 */
const isReplicaFailure = (error: SqlError) => {
  const cause: unknown = error.cause
  const code = cause instanceof Error && "code" in cause && typeof cause.code === "string" ? cause.code : ""
  return isDatabaseUnreachable(error) || code === "40001" || code === "25006" ||
    /Connection error|Failed to acquire connection/.test(error.message)
}

const poolOf = (url: string, max: number) => {
  // A replica that stops answering (a partition, not a refusal) costs a read at most this long before the primary.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 60_000,
    connectionTimeoutMillis: 2_000,
    keepAlive: true,
    application_name: "dastyar-read",
    options: sessionOptions
  })
  // A replica going away errors its idle connections; the pool drops them, and the poll marks it unusable.
  pool.on("error", () => {})
  pool.on("connect", namePreparedStatements)
  return pool
}

/** A replica's pool and its own `PgClient` over it (so a cancelled read is cancelled on that server). */
const openReplica = (url: string, poolSize: number) =>
  Effect.gen(function*() {
    const pool = yield* Effect.acquireRelease(
      Effect.sync(() => poolOf(url, poolSize)),
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(1000))
    )
    const context = yield* Layer.build(PgClient.layerFromPool({
      acquire: Effect.succeed(pool),
      applicationName: "dastyar-read",
      ...naming
    }))
    const replica: Replica = { url, pool, usable: false, served: 0 }
    return { replica, client: Context.get(context, PgClient.PgClient) }
  })

const routed = (urls: ReadonlyArray<string>, poolSize: number, maxLag: Duration.Duration) =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const primary = yield* SqlClient.SqlClient
      const opened = yield* Effect.forEach(urls, (url) => openReplica(url, poolSize))
      const replicas = opened.map(({ replica }) => replica)
      const maxLagSeconds = Duration.toSeconds(maxLag)
      // The first poll before any read, then one per replica each second for the life of the server.
      yield* Effect.forEach(replicas, (replica) => poll(replica, maxLagSeconds), { concurrency: "unbounded" })
      yield* Effect.forEach(replicas, (replica) =>
        Effect.forkScoped(poll(replica, maxLagSeconds).pipe(Effect.repeat(Schedule.spaced(pollEvery)))))

      let next = 0
      /** A usable replica, in turn. */
      const pick = () => {
        for (let i = 0; i < opened.length; i++) {
          const candidate = opened[(next + i) % opened.length]
          if (candidate?.replica.usable) {
            next = (next + i + 1) % opened.length
            return candidate
          }
        }
        return undefined
      }

      const onPrimary = <A>(run: (connection: SqlConnection.Connection) => Effect.Effect<A, SqlError>) =>
        Effect.scoped(Effect.flatMap(primary.reserve, run))

      const routedRun = <A>(
        honourRecentWrites: boolean,
        run: (connection: SqlConnection.Connection) => Effect.Effect<A, SqlError>
      ) =>
        Effect.gen(function*() {
          const chosen = honourRecentWrites && (yield* FiberRef.get(primaryReads)) ? undefined : pick()
          if (chosen === undefined) return yield* onPrimary(run)
          chosen.replica.served++
          return yield* Effect.scoped(Effect.flatMap(chosen.client.reserve, run)).pipe(
            Effect.catchIf(isReplicaFailure, () => {
              chosen.replica.usable = false
              return onPrimary(run)
            })
          )
        })

      const connection = (honourRecentWrites: boolean): SqlConnection.Connection => ({
        execute: (text, params, transformRows) =>
          routedRun(honourRecentWrites, (c) => c.execute(text, params, transformRows)),
        executeRaw: (text, params) => routedRun(honourRecentWrites, (c) => c.executeRaw(text, params)),
        executeValues: (text, params) => routedRun(honourRecentWrites, (c) => c.executeValues(text, params)),
        executeUnprepared: (text, params, transformRows) =>
          routedRun(honourRecentWrites, (c) => c.executeUnprepared(text, params, transformRows)),
        // Streams are not retried part-way: they read from the primary.
        executeStream: (text, params, transformRows) =>
          Stream.unwrapScoped(Effect.map(primary.reserve, (c) => c.executeStream(text, params, transformRows)))
      })

      const clientOf = (honourRecentWrites: boolean) =>
        SqlClient.make({
          acquirer: Effect.succeed(connection(honourRecentWrites)),
          // A transaction on these clients is one that must see itself: it runs on the primary.
          transactionAcquirer: primary.reserve,
          compiler: PgClient.makeCompiler(naming.transformQueryNames, naming.transformJson),
          transformRows: Statement.defaultTransforms(naming.transformResultNames, naming.transformJson).array,
          spanAttributes: [["db.system", "postgresql"], ["db.replica", "routed"]]
        }).pipe(Effect.provide(Reactivity.layer))
      const read = yield* clientOf(true)
      const search = yield* clientOf(false)
      return Context.make(ReadSql, read).pipe(Context.add(SearchSql, search), Context.add(Replicas, replicas))
    })
  )

/** `ReadSql` from the configuration: routed over the replicas, or the primary's client itself. */
export const layer = Layer.unwrapEffect(
  Effect.gen(function*() {
    const config = yield* AppConfig
    if (config.databaseReplicaUrls.length === 0 || Option.isNone(config.databaseUrl)) {
      return Layer.mergeAll(
        Layer.effect(ReadSql, SqlClient.SqlClient),
        Layer.effect(SearchSql, SqlClient.SqlClient),
        Layer.succeed(Replicas, [])
      )
    }
    return routed(config.databaseReplicaUrls, config.databasePoolSize, config.databaseReplicaMaxLag)
  })
)
