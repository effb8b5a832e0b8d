/**
 * Running the built `dastyar` command (`bin/dastyar.js`) as a subprocess
 * against the test server, the way a user runs it.
 */
import { HttpServer } from "@effect/platform"
import * as Effect from "effect/Effect"
import { execFile } from "node:child_process"
import * as net from "node:net"
import { fileURLToPath } from "node:url"

const bin = fileURLToPath(new URL("../../bin/dastyar.js", import.meta.url))

export interface Run {
  readonly exitCode: number
  readonly stdout: string
  readonly stderr: string
}

/** The parent's environment without any `DASTYAR_*` setting, so only what a test passes counts. */
const cleanEnvironment = () =>
  Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith("DASTYAR_")))

export const runCli = (args: ReadonlyArray<string>, env: Readonly<Record<string, string>> = {}) =>
  Effect.async<Run>((resume) => {
    const child = execFile(
      process.execPath,
      [bin, ...args],
      { env: { ...cleanEnvironment(), ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        // `error` is set for any non-zero exit; its `code` is then the exit code.
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : -1
        resume(Effect.succeed({ exitCode, stdout, stderr }))
      }
    )
    return Effect.sync(() => child.kill())
  })

/** `http://127.0.0.1:<port>` of the test server. */
export const serverUrl = Effect.map(
  HttpServer.HttpServer,
  (server) =>
    server.address._tag === "TcpAddress" ? `http://127.0.0.1:${server.address.port}` : "http://unix-socket.invalid"
)

/** A loopback port with nothing listening on it (bound, then released). */
export const closedPort = Effect.async<number>((resume) => {
  const probe = net.createServer().listen(0, "127.0.0.1", () => {
    const address = probe.address()
    const port = typeof address === "object" && address !== null ? address.port : 0
    probe.close(() => resume(Effect.succeed(port)))
  })
})
