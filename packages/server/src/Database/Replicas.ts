/**
 * Reads that may lag a little (product search, chunk retrieval, list pages)
 * go to Postgres streaming replicas when `DATABASE_REPLICA_URLS` names some.
 * `ReadSql` is a second `SqlClient` for those reads only; everything else,
 * and every read that must see a write just made, keeps the primary's
 * `SqlClient`. Each replica's lag is polled; one further behind than
 * `DATABASE_REPLICA_MAX_LAG`, or unreachable, is skipped until it recovers,
 * and with none left the reads go to the primary.
 */
import { SqlClient } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schedule from "effect/Schedule"
import pg from "pg"
import { AppConfig } from "../Config"
import { namePreparedStatements, naming } from "./Database"

/** The client for reads a replica may serve; the primary's own client when there are no replicas. */
export class ReadSql extends Context.Tag("ReadSql")<ReadSql, SqlClient.SqlClient>() {}

/** One replica: its pool and what the last poll saw. */
export interface Replica {
  readonly url: string
  readonly pool: pg.Pool
  /** Whether it answered the last poll within the bound; false until the first poll. */
  usable: boolean
  /** Connections handed out for reads (what the tests and the operator can compare). */
  served: number
}

/** The replicas of this process, for `/ready`-style inspection and tests. */
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

const pollEvery = Duration.seconds(1)

const poll = (replica: Replica, maxLagSeconds: number) =>
  Effect.tryPromise(() => replica.pool.query<{ lag: number }>(lagQuery)).pipe(
    Effect.timeout(pollEvery),
    Effect.map((result) => (result.rows[0]?.lag ?? Infinity) <= maxLagSeconds),
    Effect.orElseSucceed(() => false),
    Effect.map((usable) => {
      replica.usable = usable
    })
  )

type ConnectCallback = (
  error: Error | undefined,
  client: pg.PoolClient | undefined,
  done: (release?: unknown) => void
) => void

/**
 * A `pg.Pool` for `PgClient` that hands out a usable replica's connection
 * (in turn), and the primary's when none is usable or a replica refuses one:
 * a replica that just went away costs a failed connect, never a failed read.
 */
class RoutingPool extends pg.Pool {
  private next = 0
  constructor(
    config: pg.PoolConfig,
    private readonly primary: pg.Pool,
    private readonly replicas: ReadonlyArray<Replica>
  ) {
    super(config)
  }

  private pick(): Replica | undefined {
    for (let i = 0; i < this.replicas.length; i++) {
      const replica = this.replicas[(this.next + i) % this.replicas.length]
      if (replica?.usable) {
        this.next = (this.next + i + 1) % this.replicas.length
        return replica
      }
    }
    return undefined
  }

  override connect(): Promise<pg.PoolClient>
  override connect(callback: ConnectCallback): void
  override connect(callback?: ConnectCallback): Promise<pg.PoolClient> | void {
    if (callback === undefined) {
      return new Promise((resolve, reject) =>
        this.connect((error, client) => (client === undefined ? reject(error) : resolve(client)))
      )
    }
    const replica = this.pick()
    if (replica === undefined) return this.primary.connect(callback)
    replica.pool.connect((error, client, done) => {
      if (error !== undefined || client === undefined) {
        replica.usable = false
        return this.primary.connect(callback)
      }
      replica.served++
      callback(undefined, client, done)
    })
  }
}

const poolOf = (url: string, max: number) => {
  // A replica that stops answering (a partition, not a refusal) costs a read at most this long before the primary.
  const pool = new pg.Pool({
    connectionString: url,
    max,
    idleTimeoutMillis: 60_000,
    connectionTimeoutMillis: 2_000,
    keepAlive: true,
    application_name: "dastyar-read"
  })
  // A replica going away errors its idle connections; the pool drops them, and the poll marks it unusable.
  pool.on("error", () => {})
  pool.on("connect", namePreparedStatements)
  return pool
}

const routed = (primaryUrl: string, urls: ReadonlyArray<string>, poolSize: number, maxLag: Duration.Duration) =>
  Layer.scopedContext(
    Effect.gen(function*() {
      const primary = yield* Effect.acquireRelease(
        Effect.sync(() => poolOf(primaryUrl, poolSize)),
        (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(1000))
      )
      const replicas = yield* Effect.forEach(urls, (url) =>
        Effect.acquireRelease(
          Effect.sync((): Replica => ({ url, pool: poolOf(url, poolSize), usable: false, served: 0 })),
          (replica) => Effect.promise(() => replica.pool.end()).pipe(Effect.timeoutOption(1000))
        ))
      const maxLagSeconds = Duration.toSeconds(maxLag)
      // The first poll before any read, then one per replica each second for the life of the server.
      yield* Effect.forEach(replicas, (replica) => poll(replica, maxLagSeconds), { concurrency: "unbounded" })
      yield* Effect.forEach(replicas, (replica) =>
        Effect.forkScoped(poll(replica, maxLagSeconds).pipe(Effect.repeat(Schedule.spaced(pollEvery)))))
      const client = yield* Layer.build(PgClient.layerFromPool({
        acquire: Effect.acquireRelease(
          Effect.sync(() => new RoutingPool({ connectionString: primaryUrl, max: 1 }, primary, replicas)),
          (pool) => Effect.promise(() => pool.end()).pipe(Effect.timeoutOption(1000))
        ),
        applicationName: "dastyar-read",
        ...naming
      }))
      return Context.make(ReadSql, Context.get(client, SqlClient.SqlClient)).pipe(Context.add(Replicas, replicas))
    })
  )

/** `ReadSql` from the configuration: routed over the replicas, or the primary's client itself. */
export const layer = Layer.unwrapEffect(
  Effect.gen(function*() {
    const config = yield* AppConfig
    if (config.databaseReplicaUrls.length === 0 || Option.isNone(config.databaseUrl)) {
      return Layer.merge(Layer.effect(ReadSql, SqlClient.SqlClient), Layer.succeed(Replicas, []))
    }
    return routed(
      Redacted.value(config.databaseUrl.value),
      config.databaseReplicaUrls,
      config.databasePoolSize,
      config.databaseReplicaMaxLag
    )
  })
)
