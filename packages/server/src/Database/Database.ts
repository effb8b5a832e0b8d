/**
 * The SQL client: real Postgres when `DATABASE_URL` is set, otherwise embedded
 * PGlite (Postgres in WASM, with pgvector and pg_trgm) in the data directory.
 * Both go through the same `@effect/sql-pg` client, so one set of migrations
 * and one SQL dialect serve both.
 */
import type { SqlClient, Statement } from "@effect/sql"
import { PgClient } from "@effect/sql-pg"
import { SqlError } from "@effect/sql/SqlError"
import type { PGlite } from "@electric-sql/pglite"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Redacted from "effect/Redacted"
import * as Schema from "effect/Schema"
import * as String from "effect/String"
import { spawn } from "node:child_process"
import * as fs from "node:fs"
import { createRequire } from "node:module"
import * as path from "node:path"
import { pathToFileURL } from "node:url"
import pg from "pg"
import { AppConfig } from "../Config"
import { boundedMemo } from "../Platform/Memo"

/**
 * A name transform that remembers its answers: it runs on every column of every
 * row read, and a schema has few names. Building each name again character by
 * character was a tenth of a cheap query's CPU time. Bounded, in case some
 * query names its columns from data.
 */
const remembered = (transform: (name: string) => string) => boundedMemo(10_000, transform)

/** Column names map between snake_case and camelCase; JSON values (product attributes) keep their keys. */
export const naming = {
  transformQueryNames: remembered(String.camelToSnake),
  transformResultNames: remembered(String.snakeToCamel),
  transformJson: false
} as const

/**
 * Creates the database cluster in an empty `dataDir` (initdb) in a child
 * process. PGlite runs initdb in a second WASM instance and copies the new
 * cluster through a dump; in the server's own process that memory stays
 * resident until a major GC, which an idle server may not run for minutes,
 * and even then the allocator keeps most of it (a worker thread's malloc
 * arenas keep it too). A child process gives all of it back when it exits. It runs Liftoff only: for a
 * process of a few seconds, optimizing the WASM costs more CPU than it saves.
 */
const initializeInChild = (dataDir: string) =>
  new Promise<void>((resolve, reject) => {
    const child = spawn(process.execPath, [
      "--liftoff-only",
      "--input-type=module",
      "--eval",
      `const { PGlite } = await import(process.argv[1]); await (await PGlite.create(process.argv[2])).close()`,
      // Not `import.meta.resolve`, which vitest does not provide; the CommonJS build works as well there.
      pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href,
      dataDir
    ], { stdio: ["ignore", "ignore", "pipe"] })
    let stderr = ""
    child.stderr.on("data", (data: Buffer) => (stderr = (stderr + data.toString("utf8")).slice(-2000)))
    child.once("error", reject)
    child.once("exit", (code) =>
      code === 0 ? resolve() : reject(new Error(`initdb of the embedded database exited with ${code}: ${stderr}`)))
  })

/** Another server process (or this one) has the embedded database open; a second writer would corrupt it. */
export class EmbeddedDatabaseInUse extends Schema.TaggedError<EmbeddedDatabaseInUse>()("EmbeddedDatabaseInUse", {
  dataDir: Schema.String,
  pid: Schema.Number
}) {
  override get message() {
    return `The embedded database in ${this.dataDir} is in use by another Dastyar process (pid ${this.pid}). ` +
      "Stop that process first, or set DASTYAR_DATA_DIR to another directory."
  }
}

const processRunning = (pid: number) => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    return error instanceof Error && "code" in error && error.code === "EPERM"
  }
}

/** Data directories this process holds open (its own pid in a lock file is otherwise a stale lock). */
const heldHere = new Set<string>()

/**
 * PGlite does not lock its data directory: a second server started on it (another `pnpm start`, or a
 * restart while the old process is still closing) opened it and wrote alongside the first. A lock file
 * beside it holds the owner's pid; a lock whose process is gone (killed, crashed) is taken over, and so is
 * one naming this process's own pid (a container restarts with the same pid) unless this process holds it.
 */
const lockDataDir = (dataDir: string) =>
  Effect.acquireRelease(
    Effect.suspend(() => {
      const lockPath = `${dataDir}.lock`
      if (heldHere.has(lockPath)) return Effect.fail(new EmbeddedDatabaseInUse({ dataDir, pid: process.pid }))
      fs.mkdirSync(path.dirname(lockPath), { recursive: true })
      for (let attempt = 0; attempt < 3; attempt++) {
        try {
          fs.writeFileSync(lockPath, `${process.pid}`, { flag: "wx" })
          heldHere.add(lockPath)
          return Effect.succeed(lockPath)
        } catch (error) {
          if (!(error instanceof Error && "code" in error && error.code === "EEXIST")) return Effect.die(error)
        }
        const holder = Number.parseInt(fs.readFileSync(lockPath, "utf8"), 10)
        if (Number.isInteger(holder) && holder !== process.pid && processRunning(holder)) {
          return Effect.fail(new EmbeddedDatabaseInUse({ dataDir, pid: holder }))
        }
        fs.rmSync(lockPath, { force: true })
      }
      return Effect.die(new Error(`Could not take the lock ${lockPath}`))
    }),
    (lockPath) =>
      Effect.sync(() => {
        heldHere.delete(lockPath)
        fs.rmSync(lockPath, { force: true })
      })
  )

/**
 * Opens PGlite in `dataDir` (or in memory) and closes it with the scope.
 * Loaded here, not at the top, so a server on Postgres never loads it.
 */
const openPglite = (dataDir: string | undefined) =>
  Effect.acquireRelease(
    Effect.tryPromise({
      try: async () => {
        if (dataDir !== undefined) {
          fs.mkdirSync(dataDir, { recursive: true })
          if (!fs.existsSync(path.join(dataDir, "PG_VERSION"))) await initializeInChild(dataDir)
        }
        const [{ PGlite }, { vector }, { fuzzystrmatch }, { pg_trgm }, { createPgConfig }] = await Promise.all([
          import("@electric-sql/pglite"),
          import("@electric-sql/pglite-pgvector"),
          import("@electric-sql/pglite/contrib/fuzzystrmatch"),
          import("@electric-sql/pglite/contrib/pg_trgm"),
          import("@electric-sql/pglite/node-postgres")
        ])
        const db: PGlite = await PGlite.create(dataDir, {
          extensions: { vector, pg_trgm, fuzzystrmatch },
          // Postgres's buffers live in the WASM memory, which never shrinks: a small single-user
          // database does not need the server defaults (128 MB of shared buffers, 64 MB per index build).
          startParams: [
            ...PGlite.defaultStartParams,
            ...["-c", "shared_buffers=8MB", "-c", "maintenance_work_mem=8MB", "-c", "work_mem=4MB"]
          ]
        })
        // PGlite runs a statement synchronously at the end of a promise chain, so a backlog of statements ran in
        // one microtask drain and starved the event loop: under load new connections were accepted one per drain
        // and requests on them went unanswered. Each protocol message waits for a turn of the loop, so I/O
        // (accepts, reads) is served between statements.
        const execute = db.execProtocolStream.bind(db)
        db.execProtocolStream = (message, options) =>
          new Promise<void>((resolve) => setImmediate(resolve)).then(() => execute(message, options))
        return { db, config: createPgConfig(db) }
      },
      catch: (cause) => new SqlError({ cause, message: "Failed to open the embedded database" })
    }),
    ({ db }) => Effect.promise(() => db.close()).pipe(Effect.ignore)
  )

/**
 * `column AS "field"` for each field name, for a frequent query run `.withoutTransform`:
 * its rows come back with the fields' names, and no name is transformed per column of every row
 * (a third of a 3-row query's CPU time in the client, even with the names remembered).
 */
export const selectAs = (sql: SqlClient.SqlClient, fields: ReadonlyArray<string>) =>
  sql.csv(fields.map((field) => sql`${sql(naming.transformQueryNames(field))} AS ${sql(field)}`))

/** The embedded database's backup (`dumpOf`); none on Postgres, which `pg_dump` backs up. */
export class EmbeddedBackup extends Context.Tag("EmbeddedBackup")<
  EmbeddedBackup,
  Option.Option<Effect.Effect<Uint8Array>>
>() {}

/** A `PgClient` over one PGlite instance; `dataDir` undefined means in memory (tests). */
export const layerPglite = (dataDir: string | undefined) =>
  Layer.unwrapScoped(Effect.as(dataDir === undefined ? Effect.void : lockDataDir(dataDir), layerPgliteClient(dataDir)))

const layerPgliteClient = (dataDir: string | undefined) =>
  Layer.unwrapScoped(Effect.map(openPglite(dataDir), ({ config, db }) =>
    Layer.merge(
      PgClient.layerFromPool({
        acquire: Effect.acquireRelease(
          // One client, never closed when idle: every client of PGlite's config shares its one connection object
          // (one backend session), so a second client's answers reached the first one's listeners, and closing an
          // idle client removed every client's listeners (requests then hung; 166 of 1,376 timed out under load).
          Effect.sync(() => new pg.Pool({ ...config, max: 1, idleTimeoutMillis: 0 })),
          (pool) => Effect.promise(() => pool.end())
        ),
        applicationName: "dastyar",
        ...naming
      }),
      Layer.succeed(EmbeddedBackup, Option.some(dumpOf(db)))
    )))

/**
 * A consistent copy of the embedded database while it runs: PGlite's own dump
 * (a gzipped tar of the database directory's contents), taken
 * while no statement runs; a transaction under way at that moment is rolled
 * back when the copy is opened, as after a crash.
 */
const dumpOf = (db: PGlite) =>
  Effect.promise(async () => new Uint8Array(await (await db.dumpDataDir("gzip")).arrayBuffer())).pipe(
    Effect.withSpan("Database.backup")
  )

/**
 * The start of a statement's text that asks for it to run as a named prepared
 * statement on Postgres (`prepared`).
 */
const preparedMarker = "/* prepared */ "

/**
 * Marks a frequent statement of a fixed shape (the search reads) to run as a
 * named prepared statement on Postgres: each connection parses it once, and
 * after five runs Postgres keeps a generic plan when it costs no more than the
 * custom ones. Only for statements whose plan does not depend on their values:
 * a partial index is not used by a generic plan. Parsing and planning were
 * a large share of the search reads' time in Postgres. Statements run unnamed
 * in embedded mode, and past `maxPreparedTexts`.
 */
export const prepared = <A extends object>(sql: SqlClient.SqlClient, statement: Statement.Statement<A>) =>
  sql<A>`${sql.literal(preparedMarker)}${statement}`

/**
 * Distinct statement texts given a name, at most: each connection keeps a
 * plan per name for its life, so the count is bounded whatever shapes of
 * query (words, filters) arrive; later texts run unnamed.
 */
const maxPreparedTexts = 200
const preparedNames = new Map<string, string>()

const queryConfigFor = (text: string): string | { readonly name: string; readonly text: string } => {
  if (!text.startsWith(preparedMarker)) return text
  const known = preparedNames.get(text)
  if (known !== undefined) return { name: known, text }
  if (preparedNames.size >= maxPreparedTexts) return text
  const name = `dastyar_${preparedNames.size}`
  preparedNames.set(text, name)
  return { name, text }
}

/**
 * `@effect/sql-pg` sends every statement unnamed (parsed and planned each
 * time) and has no option for names; `pg` prepares a statement given a name
 * once per connection. This gives the marked texts their names as each new
 * connection is handed out (`pg.Pool`'s `connect` event); the rest of the
 * call is `pg`'s own.
 */
export const namePreparedStatements = (client: pg.PoolClient) => {
  const query = client.query
  Object.defineProperty(client, "query", {
    value: (config: unknown, ...rest: ReadonlyArray<unknown>): unknown =>
      Reflect.apply(query, client, [typeof config === "string" ? queryConfigFor(config) : config, ...rest])
  })
}

/**
 * Settings of every session the service opens on Postgres (primary and replicas). The service's statements read
 * one assistant's few rows, so neither of these pays for itself. No parallel query: a plan with a Gather starts
 * its worker processes (milliseconds each) even when a one-time filter then skips the branch, as a search's facet
 * read's fallback does. No JIT: on a table of a million products a search's estimated cost passes
 * `jit_above_cost`, and compiling its expressions took longer than reading its rows. Index builds set their
 * own (`Products/VectorIndexes`).
 */
export const sessionOptions = "-c max_parallel_workers_per_gather=0 -c jit=off"

/**
 * Connections the pool keeps open however long they idle. `pg.Pool` closes
 * every idle connection after 10 s, so on a server searched less often than
 * that most searches would open a connection to a new backend, whose caches
 * are cold and whose prepared statements are gone (see `prepared`). Two: from `semanticRatio`
 * 0.5 a search reads its keyword and meaning sides on two connections at once.
 */
export const keptConnections = 2
/** How long a connection beyond `keptConnections` may idle before it is closed: a burst's connections outlive it. */
const idleConnectionMs = 60_000

/**
 * As `PgClient.layer` does (a pool checked with `SELECT 1` at start), with `namePreparedStatements` on it
 * and `keptConnections` kept open.
 */
export const layerPostgres = (url: Redacted.Redacted, maxConnections: number) =>
  PgClient.layerFromPool({
    acquire: Effect.acquireRelease(
      Effect.sync(() => {
        const pool = new pg.Pool({
          connectionString: Redacted.value(url),
          max: maxConnections,
          min: Math.min(keptConnections, maxConnections),
          idleTimeoutMillis: idleConnectionMs,
          application_name: "dastyar",
          options: sessionOptions
        })
        // An idle connection's error (a Postgres restart) is for the pool to handle; unheard, it would end the process.
        pool.on("error", () => {})
        pool.on("connect", namePreparedStatements)
        return pool
      }),
      (pool) => Effect.promise(() => pool.end()).pipe(Effect.interruptible, Effect.timeoutOption(1000))
    ).pipe(
      Effect.tap((pool) =>
        Effect.tryPromise({
          try: () => pool.query("SELECT 1"),
          catch: (cause) => new SqlError({ cause, message: "PgClient: Failed to connect" })
        }).pipe(
          Effect.timeoutFail({
            duration: "5 seconds",
            onTimeout: () =>
              new SqlError({ cause: new Error("Connection timed out"), message: "PgClient: Connection timed out" })
          })
        )
      )
    ),
    applicationName: "dastyar",
    ...naming
  })

/** Chosen from the configuration. */
export const layer = Layer.unwrapEffect(
  Effect.gen(function*() {
    const config = yield* AppConfig
    return Option.match(config.databaseUrl, {
      onNone: () => layerPglite(path.resolve(config.dataDir, "pgdata")),
      onSome: (url) =>
        Layer.merge(layerPostgres(url, config.databasePoolSize), Layer.succeed(EmbeddedBackup, Option.none()))
    })
  })
)

export const isEmbedded = Effect.map(AppConfig, (config) => Option.isNone(config.databaseUrl))

/** SQLSTATEs and socket errors that mean the database cannot be reached right now (not that the query was wrong). */
const unreachableCodes = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "ENOTFOUND",
  "57P01",
  "57P02",
  "57P03"
])

/**
 * Whether a failure is the database being down or restarting (refused, reset or
 * terminated connections; SQLSTATE class 08 and admin/crash shutdown), so the
 * API can answer 503 and a client retry, instead of a 500.
 */
export const isDatabaseUnreachable = (error: unknown): boolean => {
  if (!(error instanceof SqlError)) return false
  const cause: unknown = error.cause
  if (!(cause instanceof Error)) return false
  const code = "code" in cause && typeof cause.code === "string" ? cause.code : ""
  return unreachableCodes.has(code) || code.startsWith("08") ||
    /Connection terminated|timeout exceeded when trying to connect/i.test(cause.message)
}
