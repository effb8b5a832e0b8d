/**
 * The compiled server (`dist/js/main.js`, built before the suite) as a child
 * process, for what the in-process `TestApp` cannot show: Node's own socket
 * handling (`Http/Serving.ts`), and a process that is killed and started
 * again on the same database. Its database is a fresh Postgres one when
 * `DATABASE_URL` is set, else an embedded one in a temporary data directory.
 */
import * as Effect from "effect/Effect"
import { type ChildProcess, spawn } from "node:child_process"
import * as fs from "node:fs"
import * as os from "node:os"
import * as path from "node:path"
import { fileURLToPath } from "node:url"
import { serverNodeFlags } from "../../src/Platform/NodeFlags"
import { freshPostgresDatabase } from "../../src/Testing"
import { freePort } from "../support/Ports"
import { adminToken } from "../support/TestApp"

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..")

/** Where a child server keeps its data: a Postgres URL or an embedded data directory. */
export interface Storage {
  readonly env: Readonly<Record<string, string>>
  readonly databaseUrl: string | undefined
}

/** An empty embedded data directory, removed afterwards. */
export const embeddedStorage = Effect.map(
  Effect.acquireRelease(
    Effect.sync(() => fs.mkdtempSync(path.join(os.tmpdir(), "dastyar-child-"))),
    (dir) => Effect.sync(() => fs.rmSync(dir, { recursive: true, force: true }))
  ),
  (dir): Storage => ({ env: { DASTYAR_DATA_DIR: dir }, databaseUrl: undefined })
)

/** A fresh database for the child servers of one test, removed afterwards. */
export const storage = Effect.gen(function*() {
  const baseUrl = process.env.DATABASE_URL
  if (baseUrl !== undefined && baseUrl !== "") {
    const db = yield* freshPostgresDatabase(baseUrl)
    return { env: { DATABASE_URL: db.url }, databaseUrl: db.url } satisfies Storage
  }
  return yield* embeddedStorage
})

export interface ChildServer {
  readonly child: ChildProcess
  readonly port: number
  readonly base: string
  readonly output: () => string
}

const exited = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null

/** Resolves once the child has exited (at once when it already has). */
export const whenExited = (child: ChildProcess) =>
  Effect.async<void>((resume) => {
    if (exited(child)) return resume(Effect.void)
    child.once("exit", () => resume(Effect.void))
  })

/**
 * Starts the server and waits until `/health` answers 200. Not scoped: the
 * caller kills it (the chaos run kills and restarts it many times); `stop`
 * is the scoped form's finalizer.
 */
export const startServer = (
  storage: Storage,
  env: Readonly<Record<string, string>> = {},
  port?: number,
  nodeArgs: ReadonlyArray<string> = ["--enable-source-maps"],
  /** A network namespace to run in (`ip netns exec`), listening on its address instead of loopback. */
  host?: { readonly namespace: string; readonly address: string }
) =>
  Effect.gen(function*() {
    const chosen = port ?? (yield* Effect.promise(freePort))
    const command = [process.execPath, ...serverNodeFlags, ...nodeArgs, "dist/js/main.js"]
    // `ip netns exec` execs the command, so the child's pid is the server's own (a SIGKILL reaches it).
    const launched = host === undefined ? command : ["ip", "netns", "exec", host.namespace, ...command]
    const child = spawn(launched[0] ?? process.execPath, launched.slice(1), {
      cwd: serverDir,
      env: {
        ...process.env,
        // An embedded storage must not inherit the suite's Postgres.
        ...(storage.databaseUrl === undefined ? { DATABASE_URL: undefined } : {}),
        PORT: String(chosen),
        HOST: host?.address ?? "127.0.0.1",
        DASTYAR_ADMIN_TOKEN: adminToken,
        DASTYAR_SEED_DEMO: "false",
        DASTYAR_LOG_LEVEL: "Error",
        DASTYAR_RATE_LIMIT_PER_MINUTE: "100000000",
        DASTYAR_CONTENT_RATE_LIMIT_PER_MINUTE: "100000000",
        ...storage.env,
        ...env
      },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    const keep = (data: Buffer) => (output = (output + data.toString("utf8")).slice(-8000))
    child.stdout.on("data", keep)
    child.stderr.on("data", keep)
    const server: ChildServer = {
      child,
      port: chosen,
      base: `http://${host?.address ?? "127.0.0.1"}:${chosen}`,
      output: () => output
    }
    const deadline = Date.now() + 120_000
    while (Date.now() < deadline) {
      if (exited(child)) return yield* Effect.dieMessage(`the server exited while starting:\n${output}`)
      const status = yield* Effect.promise(() =>
        fetch(`${server.base}/health`, { signal: AbortSignal.timeout(2_000) }).then((r) => r.status, () => 0)
      )
      if (status === 200) return server
      yield* Effect.sleep("50 millis")
    }
    child.kill("SIGKILL")
    return yield* Effect.dieMessage(`the server did not answer /health within 120 s:\n${output}`)
  })

/** SIGKILL, and wait until the process is gone. */
export const kill = (server: ChildServer) =>
  Effect.suspend(() => {
    if (!exited(server.child)) server.child.kill("SIGKILL")
    return whenExited(server.child)
  })

/** A started server killed when the scope closes. */
export const scopedServer = (
  storage: Storage,
  env: Readonly<Record<string, string>> = {},
  nodeArgs?: ReadonlyArray<string>
) => Effect.acquireRelease(startServer(storage, env, undefined, nodeArgs), kill)

/** The child's resident memory in MB (Linux: `/proc`), or NaN where it cannot be read. */
export const rssMb = (server: ChildServer): number => {
  try {
    const status = fs.readFileSync(`/proc/${server.child.pid}/status`, "utf8")
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? Number.NaN) / 1024
  } catch {
    return Number.NaN
  }
}
